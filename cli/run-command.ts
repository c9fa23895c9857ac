import path from 'node:path';
import { isCI } from '../eval/requirements.ts';
import { InputError } from '../eval/errors.ts';
import { planCases, shardPlan, type SuiteOptions } from '../eval/suite.ts';
import type { ResultsFile } from '../eval/results.ts';
import { parseShard } from '../eval/shard.ts';
import { describeTracing, suiteTracing, traceTarget } from '../eval/trace/cli-tracing.ts';
import { palette, useColor } from '../reports/color.ts';
import { writeReportDir, writeResultsJson } from '../reports/write.ts';
import { CaseFileStage } from '../reports/case-dir.ts';
import { gateFor } from './approval-flags.ts';
import { describeFailure } from '../eval/results.ts';
import { isFailedCheck } from '../eval/expect/check.ts';
import { conversationLines } from './conversation-lines.ts';
import { ledgerLines, turnTexts } from './ledger-lines.ts';
import { type CliIo, VERSION } from './io.ts';
import { prepareRun } from './run-plan.ts';
import { listLines } from './select.ts';

export { loadConfigs } from './config-specs.ts';
import {
  type CompareFlags,
  prepareCompare,
  renderGate,
  renderRepeats,
  renderRun,
  runGate,
  runRepeated,
} from './run-compare.ts';

/** Flags of `run` (the comparison ones in `run-compare.ts`). */
export interface RunFlags extends CompareFlags {
  scenarios?: string[];
  recordings?: string[];
  /** `-c FILE`, `-c NAME=FILE` or `-c NAME` (`cli/config-specs.ts`), repeatable. */
  config?: string[];
  json?: string;
  out?: string;
  /** Repeatable; a case whose id contains any of them (`cli/select.ts`). */
  filter?: string[];
  /** Repeatable; a case with any of these tags, none of the `!TAG` ones (`cli/select.ts`). */
  tag?: string[];
  /** Print the cases that would run, with their tags, and exit 0. */
  list?: boolean;
  concurrency: string;
  bail?: boolean;
  /** `i/n`: run only shard i of n (`eval/shard.ts`). */
  shard?: string;
  /** `--trace [URL]`, `--trace-file FILE`, `--trace-content` (`eval/trace/cli-tracing.ts`). */
  trace?: string | boolean;
  traceFile?: string;
  traceContent?: boolean;
  /** Print the turn-by-turn ledger of every failed or errored case as it ends. */
  verbose?: boolean;
  /** `--approved DIR`, `--no-approved` (`cli/approval-flags.ts`). */
  approved?: string | boolean;
  /** Set by `approve`: record the behaviour of what ran instead of checking it. */
  approve?: boolean;
}

/** `harness: NAME (kind, file) · N checks not applicable`: the header of a foreign harness's run. */
function harnessHeader(results: ResultsFile): string {
  const na = results.summary.notApplicableChecks ?? 0;
  const naText = `${na} check${na === 1 ? '' : 's'} not applicable (black box)`;
  const columns = results.configs.filter((c) => c.harness);
  if (columns.length > 0)
    return `harnesses side by side: ${columns.map((c) => `${c.name} (${c.harness!.kind}${c.harness!.file ? `, ${c.harness!.file}` : ''})`).join(', ')} · ${naText}`;
  const h = results.harness!;
  return `harness: ${h.name} (${h.kind}${h.file ? `, ${h.file}` : ''}) · ${naText}`;
}

/**
 * Runs the `run` command and returns its exit code: every input and output path is checked
 * first (`cli/run-plan.ts`). @throws InputError (exit 2)
 */
export async function runCommand(flags: RunFlags, io: CliIo): Promise<number> {
  const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  const trace = traceTarget(flags, io.env);
  const prepared = await prepareRun(flags, io.cwd);
  const { configs, scenarios, recordings, harness } = prepared;
  const whole = planCases({ configs, scenarios, recordings });
  const compare = prepareCompare(flags, configs, io.cwd);
  if (compare.problems.length > 0) throw new InputError(compare.problems);
  const planned = shard ? shardPlan(whole, shard, VERSION, configs).cases : whole;
  if (flags.list) {
    io.stdout(`${listLines(planned, configs).join('\n')}\n`);
    return 0;
  }

  const color = useColor({ isTTY: io.isTTY }, io.env);
  const c = palette(color);
  const tracing = trace
    ? suiteTracing({ ...trace, ...(trace.file ? { file: path.resolve(io.cwd, trace.file) } : {}) }, VERSION)
    : undefined;
  const stage = prepared.out ? new CaseFileStage(prepared.out) : undefined;
  const approval = gateFor(flags, io.cwd, flags.approve ? 'write' : 'check');
  const suite: SuiteOptions = {
    ...(approval ? { approval } : {}),
    configs,
    scenarios,
    recordings,
    concurrency: Number(flags.concurrency),
    ...(flags.bail ? { bail: true } : {}),
    ...(isCI(io.env) ? { ci: true } : {}),
    ...(shard ? { shard } : {}),
    harness,
    onRun: async (planned, run, result, output) => {
      await tracing?.onRun(planned, run, result);
      stage?.write(result, run, output);
      if (flags.verbose && (result.status === 'fail' || result.status === 'error')) {
        const lines = [
          c.bold(`── ${result.id} (${result.config}): ${result.status}`),
          ...(run && result.harness
            ? conversationLines(run.requests, result, c, 100, output?.stderr)
            : run
              ? ledgerLines(run.ledger, c, { detail: true, width: 100, texts: turnTexts(run.events) })
              : []),
          ...(result.harness
            ? []
            : [
                `stop reason: ${result.stopReason ?? 'none'}${result.stopDetail ? ` (${result.stopDetail})` : ''}`,
              ]),
          ...result.checks.filter(isFailedCheck).map((k) => c.red(`✗ ${describeFailure(k)}`)),
          ...(result.error ? [c.red(`error: ${result.error.message}`)] : []),
        ];
        io.stderr(`${io.isTTY ? '\r\u001b[2K' : ''}${lines.join('\n')}\n`);
      }
    },
    version: VERSION,
    ...(flags.reference ? { reference: flags.reference } : {}),
    onCaseEnd: (result, done, total) => {
      const mark =
        result.status === 'pass'
          ? c.green('✓')
          : result.status === 'fail'
            ? c.red('✗')
            : result.status === 'skipped'
              ? c.cyan('↓')
              : c.yellow('!');
      const line = `[${done}/${total}] ${mark} ${result.id}${configs.length > 1 ? ` (${result.config})` : ''}`;
      if (io.isTTY) io.stderr(`\r\u001b[2K${line}${done === total ? '\n' : ''}`);
      else io.stderr(`${line}\n`);
    },
  };
  // Until the sidecars are committed, a failure (a case run that throws, a baseline that cannot
  // be compared) leaves the out folder as it was: nothing written half-way.
  let results: Awaited<ReturnType<typeof runRepeated>>;
  let gate: ReturnType<typeof runGate>;
  try {
    results = await runRepeated(suite, Number(flags.repeat ?? 1), io);
    if (trace && tracing) io.stderr(`${describeTracing(trace, await tracing.close())}\n`);
    if (results.shard)
      io.stderr(
        `shard ${results.shard.index}/${results.shard.count}: ${results.shard.assigned} of ${results.shard.planCases} cases${results.shard.assigned === 0 ? ' (none hash to this shard)' : ''}\n`,
      );
    gate = runGate(results, compare.prepared);
  } catch (error) {
    stage?.discard();
    throw error;
  }
  const envColumns = Number(io.env.COLUMNS);
  const width = io.columns ?? (Number.isInteger(envColumns) && envColumns > 0 ? envColumns : undefined);
  if (harness.kind !== 'ours' || results.configs.some((c) => c.harness))
    io.stdout(`${harnessHeader(results)}\n`);
  io.stdout(`${renderRun(results, { color, ...(width ? { width } : {}) }, flags)}\n`);
  if (results.repeats) io.stdout(`${renderRepeats(results, color)}\n`);
  if (gate) io.stdout(`${renderGate(gate, color)}\n`);
  if (results.cases.length < planned.length)
    io.stderr(
      `${c.yellow(`--bail: stopped after the first failure; ${planned.length - results.cases.length} of ${planned.length} cases did not run`)}\n`,
    );
  const written: string[] = [];
  if (prepared.out && stage) written.push(...writeReportDir(prepared.out, stage.commit(results)));
  if (prepared.json) {
    writeResultsJson(prepared.json, results);
    written.push(prepared.json);
  }
  for (const file of written) io.stdout(`${c.dim(`wrote ${path.relative(io.cwd, file) || file}`)}\n`);
  if (approval?.options.mode === 'write') {
    const { cases, changed } = approval.flush();
    io.stdout(
      `approved the behaviour of ${cases} case${cases === 1 ? '' : 's'} in ${path.relative(io.cwd, approval.options.dir) || '.'} (${changed} new or changed)\n`,
    );
    return results.summary.errored > 0 ? 1 : 0;
  }
  // Skipped cases (a prerequisite missing here) are neither passes nor failures: exit 0 when every case that ran passed.
  return results.summary.failed + results.summary.errored > 0 || (gate?.regressions.length ?? 0) > 0 ? 1 : 0;
}
