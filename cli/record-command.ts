/**
 * `harness-bench record --base-url URL --model NAME --task TEXT [--workspace DIR] [--config FILE]
 * --out FILE`: one live, non-interactive run of the harness against an OpenAI-compatible
 * endpoint, recorded as a version-1 cassette. Asks are answered by the configuration's mode
 * (`auto` approves; `headless` and `plan` deny; `interactive` has nobody to ask here, so it
 * denies like `headless`). The key comes from `HARNESS_API_KEY`, else `OPENAI_API_KEY`; base
 * URL and model may come from `HARNESS_BASE_URL` and `HARNESS_MODEL`.
 *
 * Exit 0 when the cassette was written; 1 when nothing could be recorded or the secret scan
 * refused the cassette (nothing is written); 2 on bad input (missing flag, unreadable
 * configuration or workspace, an existing output file without `--force`).
 */
import type { HarnessConfig } from '../harness/config.ts';
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { liveModelSettings } from '../harness/model/openai-model.ts';
import { liveDeps, type HarnessDeps } from '../harness/deps.ts';
import { saveCassette } from '../eval/cassette/load.ts';
import { InputError, type InputProblem } from '../eval/errors.ts';
import { idFromFileName } from '../eval/import/common.ts';
import {
  RecordRefusedError,
  SessionRecorder,
  type SessionRecorderOptions,
} from '../eval/record/session-recorder.ts';
import { describeTracing, liveTracing, traceTarget, type TraceFlags } from '../eval/trace/cli-tracing.ts';
import { palette, useColor } from '../reports/color.ts';
import { ledgerLines } from './ledger-lines.ts';
import { recordBatchCommand } from './record-batch.ts';
import { VERSION, type CliIo } from './main.ts';
import { loadConfigs } from './run-command.ts';

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
export const NO_KEY_PLACEHOLDER = 'no-key-set';

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

/** Runs `record`; resolves with the exit code. @throws InputError (exit 2) */
export async function recordCommand(flags: RecordFlags, io: CliIo, hooks: RecordHooks = {}): Promise<number> {
  if (flags.tasks !== undefined || flags.task === undefined) {
    if (flags.tasks === undefined || flags.task !== undefined)
      throw new InputError([
        {
          file: '(flags)',
          path: '--task',
          reason: 'give --task TEXT (one task) or --tasks FILE (several), not both',
        },
      ]);
    return recordBatchCommand(
      { ...flags, tasks: flags.tasks },
      io,
      hooks.fetch ? { fetch: hooks.fetch } : {},
    );
  }
  const resolved = recordTarget(flags, io);
  const target = { ...resolved, out: resolved.out! };
  const trace = traceTarget(flags, io.env);
  const [named] = loadConfigs(flags.config ? [flags.config] : undefined, io.cwd);
  const c = palette(useColor({ isTTY: io.isTTY }, io.env));
  if (!target.apiKey)
    io.stderr(
      `note: no HARNESS_API_KEY or OPENAI_API_KEY set; sending a placeholder key (fine for local servers)\n`,
    );
  if (named!.config.permissions.mode === 'interactive')
    io.stderr(
      `note: configuration ${named!.name} is interactive, but record has nobody to ask: every ask is denied (use permissions.mode "auto" to approve)\n`,
    );
  const tracing = trace
    ? liveTracing(
        { ...trace, ...(trace.file ? { file: path.resolve(io.cwd, trace.file) } : {}) },
        VERSION,
        target,
      )
    : undefined;
  const deps = tracing ? tracing.subscribe(hooks.deps ?? liveDeps()) : hooks.deps;
  const session = liveSession(target, named!.config, io, {
    ...(flags.stream === false ? { stream: false } : {}),
    ...(hooks.fetch ? { fetch: hooks.fetch } : {}),
    ...(deps ? { deps } : {}),
  });
  const fixture = await session.start();
  if (!fixture.ok)
    io.stderr(
      `note: no workspace fixture in the cassette: ${fixture.reason}; replay it with --workspace DIR\n`,
    );
  else if (fixture.skipped.length > 0)
    io.stderr(`note: left out of the workspace fixture: ${fixture.skipped.join(', ')}\n`);
  io.stderr(`recording ${target.model} at ${target.baseURL} under ${named!.name}…\n`);
  const run = await session.run(flags.task);
  if (trace && tracing) io.stderr(`${describeTracing(trace, await tracing.close())}\n`);
  for (const note of session.recorder.notes) io.stderr(`warning: ${note}\n`);
  const out: string[] = [
    c.bold(`record ${path.basename(target.out)}: ${target.model} at ${target.baseURL} under ${named!.name}`),
    ...ledgerLines(run.ledger, c),
  ];
  out.push(`stop reason: ${run.stopReason}${run.stopDetail ? ` (${run.stopDetail})` : ''}`);
  if (run.finalAnswer) out.push(`answer: ${run.finalAnswer}`);
  io.stdout(`${out.join('\n')}\n`);
  if (session.recorder.exchanges().length === 0) {
    io.stderr(
      `harness-bench: nothing was recorded (no exchange reached the server); ${target.out} was not written\n`,
    );
    return 1;
  }
  try {
    const cassette = session.cassette({
      id: idFromFileName(target.out),
      ...(flags.title ? { title: flags.title } : {}),
    });
    saveCassette(target.out, cassette);
    io.stdout(
      `wrote ${path.relative(io.cwd, target.out) || target.out} (${cassette.exchanges.length} exchanges, ${run.usage.modelCalls} model calls); replay it offline with: harness-bench replay ${path.relative(io.cwd, target.out) || target.out}\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof RecordRefusedError)) throw error;
    io.stderr(
      `harness-bench: refusing to write ${target.out}: ${error.message}\nNothing was written. Remove the secret at its source (the workspace, the environment, the server's response) and record again.\n`,
    );
    return 1;
  }
}
