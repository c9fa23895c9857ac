/**
 * The run's session (`config.session`): resumed by id or created, never for a subagent; its
 * writer records the history as the run goes (`memory/session-store.ts`), and what `run_start`
 * says about it.
 */
import path from 'node:path';
import type { HarnessConfig } from '../config.ts';
import type { HarnessDeps } from '../deps.ts';
import type { RunStartEvent } from '../events.ts';
import type { LoadedSession } from '../memory/session-load.ts';
import { SessionStore, type SessionWriter } from '../memory/session-store.ts';
import type { RunOptions } from '../run-types.ts';

/** What `run_start` says about the session. */
export type SessionStart = NonNullable<RunStartEvent['session']>;

/** The run's session: what was loaded (a resume), the writer (absent: no session). */
export interface RunSession {
  loaded?: LoadedSession;
  writer?: SessionWriter;
}

/**
 * Resumes the configured session (`config.session.resume`) or creates one
 * (`config.session.enabled`); a subagent's run has none.
 * @throws SessionError when `config.session.resume` names a session that does not exist.
 */
export async function openSession(
  options: RunOptions,
  config: HarnessConfig,
  deps: HarnessDeps,
  runId: string,
): Promise<RunSession> {
  const sessionConfig = config.session;
  if (options.memory?.subagent || !(sessionConfig.resume || sessionConfig.enabled)) return {};
  const store = new SessionStore(path.resolve(options.workspace, sessionConfig.dir), deps.now, {
    root: options.workspace,
  });
  if (sessionConfig.resume) return store.resume(sessionConfig.resume);
  return { writer: await store.create(deps.newId('session_'), { cwd: options.workspace, runId }) };
}

/** The `session` field of `run_start`, or undefined without a session. */
export function sessionStart({ loaded, writer }: RunSession): SessionStart | undefined {
  if (!writer) return undefined;
  return {
    id: writer.id,
    resumed: loaded !== undefined,
    restoredMessages: loaded?.messages.length ?? 0,
    skippedLines: loaded?.skipped.map((s) => s.line) ?? [],
    ...(loaded?.quarantineFile ? { quarantineFile: loaded.quarantineFile } : {}),
  };
}
