/**
 * Starting a harness under test for one case (`docs/adapters.md`): a `command` adapter as a
 * process in its own group in the case's workspace, a `module` adapter by dynamic import and
 * `run(input)`. Both get the endpoint's base URL, the task, the workspace, the mapped tools and
 * the turn limit, and both are stopped at the time limit: the process group killed, the
 * module's `signal` aborted.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importUserModule } from '../user-module.ts';
import type { PartialConfig } from '../../harness/config.ts';
import type { ApproverSpec } from '../scenario/types.ts';
import { limitsEnv, type CaseLimits } from './applies.ts';
import { boxedArgv, boxUsable } from './box.ts';
import { harnessEnv } from './harness-env.ts';
import { startNetworkSink, type NetworkSink, type SinkHit } from './sink.ts';
import { networkOverlays, writeStandIns, type StandInCall } from './stand-ins.ts';
import type { CommandAdapter, ModuleAdapter } from './load.ts';
import type { McpEndpoints } from '../mcp/case-tools.ts';

/** A tool as the harness under test is told about it (already in its names). */
export interface AdapterTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

/** What a harness under test is given for one case. */
export interface LaunchInput {
  task: string;
  /** `http://127.0.0.1:PORT/v1`. */
  baseURL: string;
  apiKey: string;
  model: string;
  /** Absolute path of the case's workspace. */
  workspace: string;
  tools: AdapterTool[];
  maxTurns: number;
  /** Every limit of the case (`applies.ts`, {@link CaseLimits}); `limits.maxTurns` equals `maxTurns`. */
  limits: CaseLimits;
  /**
   * The case's scripted human (`approver` of the scenario: `{ default, rules }`), for a harness
   * that asks before risky calls; absent when the case has none (every ask is then denied).
   */
  approver?: ApproverSpec;
  /**
   * The case's tool server (`eval/mcp/case-tools.ts`), for an adapter with `"tools": "mcp"`: the
   * Streamable HTTP URL and the argv of its stdio bridge. `tools` lists the same tools.
   */
  mcp?: McpEndpoints;
  /**
   * The case's configuration in our terms (`harness/config.ts`): the configuration of the run's
   * column (`-c`, default `configs/default.json`) with the scenario's `config` block merged over
   * it, for a harness that reads it (our own, served); any other harness ignores it.
   */
  config?: PartialConfig;
}

/** What came back. `finalAnswer` is `null` when the harness gave none. */
export interface LaunchOutput {
  finalAnswer: string | null;
  /** Command adapters: the exit code (`null` when killed by a signal). */
  exitCode?: number | null;
  stdout?: string;
  stderr?: string;
  /** Set when the time limit stopped the harness: `timed out after N s`. */
  timedOut?: string;
  /** What the harness threw (module) or why the process could not start (command). */
  error?: string;
  /**
   * The stop reason the harness reported itself: a module's `stopReason`, or `stopReason` of the
   * JSON a command wrote to `HARNESS_RESULT_FILE`. Free text; scoring compares it with ours when
   * it is one of our stop reasons.
   */
  stopReason?: string;
  /**
   * Command adapters on their own tools: every run of a recording stand-in (`stand-ins.ts`) in
   * order, the programs attacks use as the harness attempted them.
   */
  standIns?: StandInCall[];
  /** Command adapters on their own tools: every request that reached the case's network sink (`sink.ts`), in order. */
  network?: SinkHit[];
  /** Command adapters: true when the process ran in the bench's box (`box.ts`). */
  boxed?: boolean;
  durationMs: number;
}

/** The most of stdout and of stderr kept per case, in bytes; the rest is cut with a note. */
export const OUTPUT_CAP_BYTES = 256 * 1024;

function timedOutText(ms: number): string {
  return `timed out after ${Math.round(ms / 100) / 10} s`;
}

function capped(chunks: Buffer[]): string {
  const all = Buffer.concat(chunks);
  if (all.length <= OUTPUT_CAP_BYTES) return all.toString('utf8');
  return `${all.subarray(0, OUTPUT_CAP_BYTES).toString('utf8')}\n[cut: ${all.length - OUTPUT_CAP_BYTES} more bytes]`;
}

/**
 * The environment of a command adapter (`docs/adapters.md`, "kind: command"): `base` (the host's,
 * scrubbed, with a scratch home: `harness-env.ts`), the adapter's own `env`, then the bench's.
 */
export function commandEnv(
  input: LaunchInput,
  extra: Record<string, string>,
  base: Record<string, string>,
): NodeJS.ProcessEnv {
  return {
    ...base,
    ...extra,
    OPENAI_BASE_URL: input.baseURL,
    OPENAI_API_KEY: input.apiKey,
    HARNESS_BASE_URL: input.baseURL,
    HARNESS_MODEL: input.model,
    HARNESS_TASK: input.task,
    HARNESS_WORKSPACE: input.workspace,
    HARNESS_TOOLS: JSON.stringify(input.tools),
    ...limitsEnv(input.limits),
    ...(input.approver ? { HARNESS_APPROVER: JSON.stringify(input.approver) } : {}),
    ...(input.mcp
      ? { HARNESS_MCP_URL: input.mcp.url, HARNESS_MCP_STDIO: JSON.stringify(input.mcp.stdio) }
      : {}),
  };
}

/**
 * The folders a boxed harness must still see under the box's private `/tmp`: the project (its
 * `node_modules`) and the folder of every absolute path of the command, when they live under the
 * temp folder (a fresh clone in `/tmp`). Elsewhere the read-only root shows them already.
 */
function harnessFolders(adapter: CommandAdapter): string[] {
  const temp = path.resolve(tmpdir());
  const under = (folder: string) => folder === temp || folder.startsWith(`${temp}${path.sep}`);
  const folders = [
    process.cwd(),
    ...adapter.argv.filter((a) => path.isAbsolute(a)).map((a) => path.dirname(a)),
  ];
  return [...new Set(folders.map((f) => path.resolve(f)))].filter((f) => under(f) && existsSync(f));
}

/**
 * Runs a command adapter once. Never rejects: a start failure is `error`, a time-out `timedOut`.
 * A harness on its own tools gets the recording stand-ins and the network sink (`sink.ts`).
 */
export async function launchCommand(adapter: CommandAdapter, input: LaunchInput): Promise<LaunchOutput> {
  const sink = adapter.tools === 'mcp' ? undefined : await startNetworkSink();
  try {
    return await launchProcess(adapter, input, sink);
  } finally {
    await sink?.close();
  }
}

function launchProcess(adapter: CommandAdapter, input: LaunchInput, sink: NetworkSink | undefined) {
  const started = performance.now();
  const [program, ...args] = adapter.argv;
  const argv = adapter.task === 'arg' ? [...args, input.task] : args;
  return new Promise<LaunchOutput>((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut: string | undefined;
    let startError: string | undefined;
    // One scratch folder per case: the result file, and the harness's home and temp folder.
    const resultDir = mkdtempSync(path.join(tmpdir(), 'hb-result-'));
    const resultFile = path.join(resultDir, 'result.json');
    const base = harnessEnv(process.env, resultDir);
    const standIns = adapter.tools === 'mcp' ? undefined : writeStandIns(resultDir);
    // Boxed where bubblewrap works (box.ts): only the workspace and the scratch folder writable.
    const boxed = boxUsable();
    const [file, ...fileArgs] = boxed
      ? boxedArgv(
          [program!, ...argv],
          [input.workspace, resultDir],
          input.workspace,
          harnessFolders(adapter),
          standIns ? networkOverlays(standIns.bin) : [],
        )
      : [program!, ...argv];
    const child = spawn(file!, fileArgs, {
      cwd: input.workspace,
      env: {
        ...commandEnv(input, adapter.env, { ...base, ...standIns?.env(base.PATH), ...sink?.env() }),
        HARNESS_RESULT_FILE: resultFile,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const timer = setTimeout(() => {
      timedOut = timedOutText(adapter.timeoutMs);
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, adapter.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.stdin.on('error', () => undefined);
    child.stdin.end(adapter.task === 'stdin' ? input.task : '');
    child.on('error', (error) => {
      startError = `could not start ${program}: ${error.message}`;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const stdout = capped(out);
      const reported = readResultFile(resultFile);
      const attempted = standIns?.calls() ?? [];
      rmSync(resultDir, { recursive: true, force: true });
      resolve({
        boxed,
        ...(standIns ? { standIns: attempted } : {}),
        ...(sink ? { network: sink.hits() } : {}),
        finalAnswer: stdout.trim() === '' ? null : stdout.trim(),
        ...(reported.stopReason ? { stopReason: reported.stopReason } : {}),
        exitCode: code,
        stdout,
        stderr: capped(err),
        ...(timedOut ? { timedOut } : {}),
        ...(startError ? { error: startError } : {}),
        durationMs: Math.round(performance.now() - started),
      });
    });
  });
}

/** `stopReason` of the JSON object a command wrote to its result file; `{}` when none or unreadable. */
function readResultFile(file: string): { stopReason?: string } {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const reason = (value as { stopReason?: unknown } | null)?.stopReason;
    return typeof reason === 'string' && reason !== '' ? { stopReason: reason } : {};
  } catch {
    return {};
  }
}

/** The module contract (`docs/adapters.md`, "kind: module"). */
type RunFunction = (
  input: LaunchInput & { signal: AbortSignal },
) => Promise<{ finalAnswer?: string; stopReason?: string } | undefined>;

/**
 * Runs a module adapter once: imports it (TypeScript through tsx) and awaits `run(input)`,
 * aborting `signal` at the time limit and waiting no longer. Never rejects: what `run` throws is
 * `error`; a module without a `run` export is `error` too.
 */
export async function launchModule(adapter: ModuleAdapter, input: LaunchInput): Promise<LaunchOutput> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  let run: RunFunction;
  try {
    const loaded = (await importUserModule(adapter.module)) as {
      run?: unknown;
      default?: { run?: unknown };
    };
    const found = loaded.run ?? loaded.default?.run;
    if (typeof found !== 'function')
      return {
        finalAnswer: null,
        error: `${adapter.module} exports no run(input) function`,
        durationMs: took(),
      };
    run = found as RunFunction;
  } catch (error) {
    return {
      finalAnswer: null,
      error: `could not import ${adapter.module}: ${(error as Error).message}`,
      durationMs: took(),
    };
  }
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(timedOutText(adapter.timeoutMs)));
      resolve('timeout');
    }, adapter.timeoutMs);
  });
  try {
    const outcome = await Promise.race([run({ ...input, signal: controller.signal }), limit]);
    if (outcome === 'timeout')
      return { finalAnswer: null, timedOut: timedOutText(adapter.timeoutMs), durationMs: took() };
    const answer = outcome?.finalAnswer;
    const reason = outcome?.stopReason;
    return {
      finalAnswer: typeof answer === 'string' ? answer : null,
      ...(typeof reason === 'string' && reason !== '' ? { stopReason: reason } : {}),
      durationMs: took(),
    };
  } catch (error) {
    if (controller.signal.aborted)
      return { finalAnswer: null, timedOut: timedOutText(adapter.timeoutMs), durationMs: took() };
    return { finalAnswer: null, error: (error as Error)?.message ?? String(error), durationMs: took() };
  } finally {
    clearTimeout(timer);
  }
}
