/**
 * `harness-bench record --tasks FILE --out DIR [--concurrency N] [--rate 60/min]`: a live
 * recording run of several tasks, one cassette each (`DIR/<id>.json`), at most N sessions at
 * once and request starts spaced to the rate over all of them; a 429 (or a 503 with
 * `retry-after`) holds every session until the provider's `retry-after` (`eval/record/rate-limit.ts`),
 * while the model client retries the refused call itself. Each task works in its own copy of
 * its workspace (your folder is left as it is; `node_modules` is not copied), so concurrent
 * sessions never see each other's writes.
 *
 * Exit 0 when every task was recorded; 1 when one could not be (nothing reached the server, or
 * the secret scan refused its cassette: that file is not written); 2 on bad input, before any
 * request (tasks file, flags, an existing cassette without `--force`, a missing workspace).
 */
import { existsSync, statSync } from 'node:fs';
import { cp, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { liveDeps } from '../harness/deps.ts';
import { saveCassette } from '../eval/cassette/load.ts';
import { InputError, type InputProblem } from '../eval/errors.ts';
import { parseRate, RequestLimiter } from '../eval/record/rate-limit.ts';
import { RecordRefusedError } from '../eval/record/session-recorder.ts';
import { loadTasks, type RecordTask } from '../eval/record/tasks.ts';
import { describeTracing, liveTracing, traceTarget } from '../eval/trace/cli-tracing.ts';
import { palette, useColor } from '../reports/color.ts';
import { type CliIo, VERSION } from './io.ts';
import { liveSession, recordTarget, type RecordFlags, type RecordHooks } from './live-session.ts';
import { loadConfigs } from './run-command.ts';

/** Flags of a recording run of several tasks (`record --tasks`). */
export interface RecordBatchFlags extends Omit<RecordFlags, 'task' | 'title'> {
  tasks: string;
  /** Sessions at once. @default 1 */
  concurrency?: string;
  /** Request starts per time over all sessions: `60/min`, `2/s`, `500/h`. */
  rate?: string;
}

/** Runs a recording run of several tasks; resolves with the exit code. @throws InputError (exit 2) */
export async function recordBatchCommand(
  flags: RecordBatchFlags,
  io: CliIo,
  hooks: Omit<RecordHooks, 'deps'> = {},
): Promise<number> {
  const problems: InputProblem[] = [];
  const collect = <T>(make: () => T): T | undefined => {
    try {
      return make();
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(...error.problems);
      return undefined;
    }
  };
  const live = collect(() => recordTarget({ ...flags, out: undefined }, io));
  const tasks = collect(() => loadTasks(path.resolve(io.cwd, flags.tasks), flags.tasks)) ?? [];
  const ratePerSecond = flags.rate === undefined ? undefined : collect(() => parseRate(flags.rate!));
  const trace = collect(() => traceTarget(flags, io.env));
  const outDir = path.resolve(io.cwd, flags.out);
  for (const task of tasks) {
    const file = path.join(outDir, `${task.id}.json`);
    if (existsSync(file) && !flags.force)
      problems.push({
        file,
        path: '',
        reason: 'exists; cassettes are evidence and are not overwritten (pass --force to re-record)',
      });
    if (task.workspace && !(existsSync(task.workspace) && statSync(task.workspace).isDirectory()))
      problems.push({
        file: flags.tasks,
        path: `/${task.id}/workspace`,
        reason: `not a folder: ${task.workspace}`,
      });
  }
  if (problems.length > 0 || !live) throw new InputError(problems);
  const [named] = loadConfigs(flags.config ? [flags.config] : undefined, io.cwd);
  const concurrency = Math.max(1, Number(flags.concurrency ?? 1));
  const c = palette(useColor({ isTTY: io.isTTY }, io.env));
  const limiter = new RequestLimiter(ratePerSecond ? { ratePerSecond } : {});
  const fetch = limiter.wrap(hooks.fetch ?? globalThis.fetch);
  const tracing = trace
    ? liveTracing(
        { ...trace, ...(trace.file ? { file: path.resolve(io.cwd, trace.file) } : {}) },
        VERSION,
        live,
      )
    : undefined;
  io.stderr(
    `recording ${tasks.length} tasks with ${live.model} at ${live.baseURL} under ${named!.name}: ${concurrency} at once${ratePerSecond ? `, at most ${flags.rate} requests` : ''}…\n`,
  );

  const recordOne = async (task: RecordTask): Promise<string | undefined> => {
    const copy = await realpath(await mkdtemp(path.join(tmpdir(), 'hb-record-task-')));
    try {
      await cp(task.workspace ?? live.workspace, copy, {
        recursive: true,
        filter: (source) => !source.split(path.sep).includes('node_modules'),
      });
      const session = liveSession({ ...live, workspace: copy }, named!.config, io, {
        ...(flags.stream === false ? { stream: false } : {}),
        fetch,
        deps: tracing ? tracing.subscribe(liveDeps()) : liveDeps(),
      });
      await session.start();
      const run = await session.run(task.task);
      if (session.recorder.exchanges().length === 0)
        return 'nothing was recorded (no exchange reached the server)';
      const file = path.join(outDir, `${task.id}.json`);
      saveCassette(file, session.cassette({ id: task.id, ...(task.title ? { title: task.title } : {}) }));
      return `${run.stopReason}, ${run.usage.modelCalls} model calls → ${path.relative(io.cwd, file) || file}`;
    } catch (error) {
      if (error instanceof RecordRefusedError) return `refused: ${error.message.split('\n')[0]}`;
      throw error;
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  };

  let next = 0;
  let done = 0;
  let failed = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const task = tasks[next]!;
      next += 1;
      const outcome = await recordOne(task);
      done += 1;
      const ok = outcome !== undefined && !/^(nothing|refused)/.test(outcome);
      if (!ok) failed += 1;
      io.stderr(`[${done}/${tasks.length}] ${ok ? c.green('✓') : c.red('✗')} ${task.id}: ${outcome}\n`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, worker));
  if (trace && tracing) io.stderr(`${describeTracing(trace, await tracing.close())}\n`);
  const s = limiter.stats;
  io.stdout(
    `recorded ${tasks.length - failed} of ${tasks.length} tasks into ${path.relative(io.cwd, outDir) || outDir}: ${s.requests} requests, ${s.rateLimited} rate-limited (429), ${(s.waitedMs / 1000).toFixed(1)} s waited for the rate limit\n`,
  );
  return failed > 0 ? 1 : 0;
}
