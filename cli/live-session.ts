/**
 * What `record`, `record --tasks` and `chat` share: the flags of a live session, the hooks tests
 * inject, and the builder of a live, recorded session (model client, deps, recorder).
 */
import type { HarnessConfig } from '../harness/config.ts';
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { liveModelSettings } from '../harness/model/openai-model.ts';
import type { HarnessDeps } from '../harness/deps.ts';
import { InputError, type InputProblem } from '../eval/errors.ts';
import { SessionRecorder, type SessionRecorderOptions } from '../eval/record/session-recorder.ts';
import type { TraceFlags } from '../eval/trace/cli-tracing.ts';
import type { CliIo } from './io.ts';
import { outputPathProblems } from './output-paths.ts';

/** Flags of `record` (with `--trace [URL]`, `--trace-file FILE`, `--trace-content`). */
export interface RecordFlags extends TraceFlags {
  baseUrl?: string;
  model?: string;
  /** The task; exactly one of `task` and `tasks` (`record-batch.ts`). */
  task?: string;
  /** A tasks file: record each task to `<out>/<id>.json` (`cli/record-batch.ts`). */
  tasks?: string;
  /** With `tasks`: sessions at once, and request starts per time (`60/min`). */
  concurrency?: string;
  rate?: string;
  workspace?: string;
  config?: string;
  out: string;
  /** `--no-stream` sets false. @default true */
  stream?: boolean;
  title?: string;
  force?: boolean;
}

/** Injected for tests: the fetch that reaches the server, and the session's deps. */
export interface RecordHooks {
  fetch?: typeof globalThis.fetch;
  deps?: HarnessDeps;
}

/** The key sent when none is set (local servers need none). Not key-shaped, so the scan ignores it. */
const NO_KEY_PLACEHOLDER = 'no-key-set';

/**
 * The recorded live session of `record` and `chat`: the endpoint, model and workspace of the
 * target, the configuration, and the environment whose secrets are redacted; `extra` adds the
 * stream flag, an injected fetch and deps.
 */
export function liveSession(
  target: { baseURL: string; apiKey?: string | undefined; model: string; workspace: string },
  config: HarnessConfig,
  io: Pick<CliIo, 'env'>,
  extra: Pick<SessionRecorderOptions, 'stream' | 'fetch' | 'deps'> = {},
): SessionRecorder {
  return new SessionRecorder({
    baseURL: target.baseURL,
    apiKey: target.apiKey ?? NO_KEY_PLACEHOLDER,
    model: target.model,
    config,
    workspace: target.workspace,
    env: io.env,
    ...extra,
  });
}

/**
 * Resolves the live settings, the workspace and the output file (when `out` is given: it must
 * not exist unless `force`), or throws every problem at once.
 * @throws InputError (exit 2)
 */
export function recordTarget(
  flags: Pick<RecordFlags, 'baseUrl' | 'model' | 'force' | 'workspace'> & { out?: string },
  io: CliIo,
) {
  const live = liveModelSettings(
    { ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}), ...(flags.model ? { model: flags.model } : {}) },
    io.env,
  );
  const problems: InputProblem[] = [];
  if (!live.baseURL)
    problems.push({
      file: '(flags)',
      path: '--base-url',
      reason: 'no endpoint: pass --base-url URL or set HARNESS_BASE_URL',
    });
  else if (!/^https?:\/\//.test(live.baseURL))
    problems.push({
      file: '(flags)',
      path: '--base-url',
      reason: `must be an http(s) URL, got ${JSON.stringify(live.baseURL)}`,
    });
  if (!live.model)
    problems.push({
      file: '(flags)',
      path: '--model',
      reason: 'no model: pass --model NAME or set HARNESS_MODEL',
    });
  const out = flags.out === undefined ? undefined : path.resolve(io.cwd, flags.out);
  if (out && existsSync(out) && !flags.force)
    problems.push({
      file: out,
      path: '',
      reason: 'exists; cassettes are evidence and are not overwritten (pass --force to re-record)',
    });
  // Checked before the live session starts: a session costs tokens and cannot be redone for free.
  if (flags.out !== undefined)
    problems.push(...outputPathProblems([{ flag: '--out', value: flags.out, kind: 'file' }], io.cwd));
  const workspaceDir = path.resolve(io.cwd, flags.workspace ?? '.');
  let workspace = workspaceDir;
  try {
    if (!statSync(workspaceDir).isDirectory()) throw new Error('not a directory');
    workspace = realpathSync(workspaceDir);
  } catch (error) {
    problems.push({
      file: workspaceDir,
      path: '--workspace',
      reason: `not a readable directory (${(error as Error).message})`,
    });
  }
  if (problems.length > 0) throw new InputError(problems);
  return { baseURL: live.baseURL!, model: live.model!, apiKey: live.apiKey, out, workspace };
}
