/**
 * `harness-bench run`: load every input first (any invalid file → exit 2, nothing run or
 * written), run the cases with a progress line, print the table, write results.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, DEFAULT_CONFIG_FILE, PACKAGE_ROOT, type NamedConfig } from '../eval/config-load.ts';
import { InputError, type InputProblem } from '../eval/errors.ts';
import { cassetteAsScenario } from '../eval/expect/cassette.ts';
import { prepareScorers } from '../eval/expect/scorers.ts';
import { isCI } from '../eval/requirements.ts';
import { describeFailure } from '../eval/results.ts';
import { loadCassettes, loadScenarioFiles, planCases, runSuite, type LoadedCassette } from '../eval/suite.ts';
import type { LoadedScenario } from '../eval/scenario/types.ts';
import { parseShard } from '../eval/shard.ts';
import { describeTracing, suiteTracing, traceTarget } from '../eval/trace/cli-tracing.ts';
import { palette, useColor } from '../reports/color.ts';
import { renderTable } from '../reports/table.ts';
import { writeReportDir, writeResultsJson } from '../reports/write.ts';
import { CaseFileStage } from '../reports/case-dir.ts';
import { ledgerLines, turnTexts } from './ledger-lines.ts';
import { type CliIo, VERSION } from './io.ts';

/** Flags of `run`. */
export interface RunFlags {
  scenarios?: string[];
  recordings?: string[];
  config?: string[];
  json?: string;
  out?: string;
  filter?: string;
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
}

/**
 * Loads every configuration; collects every problem before failing. An argument `name=path`
 * names the configuration `name` (what `expectFor` and the reports use) instead of the file's
 * stem, unless a file of that whole name exists.
 * @throws InputError
 */
export function loadConfigs(files: readonly string[] | undefined, cwd: string): NamedConfig[] {
  const problems: InputProblem[] = [];
  const configs: NamedConfig[] = [];
  for (const arg of files && files.length > 0 ? files : [DEFAULT_CONFIG_FILE]) {
    const named = /^([A-Za-z0-9][\w.-]*)=(.+)$/.exec(arg);
    const [name, file] =
      named && !existsSync(path.resolve(cwd, arg)) ? [named[1]!, named[2]!] : [undefined, arg];
    try {
      const loaded = loadConfig(path.resolve(cwd, file), name);
      if (configs.some((c) => c.name === loaded.name))
        problems.push({ file, path: '', reason: `two configurations are named "${loaded.name}"` });
      configs.push(loaded);
    } catch (error) {
      if (error instanceof InputError) problems.push(...error.problems.map((p) => ({ ...p, file })));
      else throw error;
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  return configs;
}

/** Runs the `run` command and returns its exit code. @throws InputError (exit 2) */
export async function runCommand(flags: RunFlags, io: CliIo): Promise<number> {
  const bothDefault = !flags.scenarios && !flags.recordings;
  const base = bothDefault ? PACKAGE_ROOT : io.cwd;
  const problems: InputProblem[] = [];
  const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  const trace = traceTarget(flags, io.env);
  const configs = (() => {
    try {
      return loadConfigs(flags.config, io.cwd);
    } catch (error) {
      if (error instanceof InputError) problems.push(...error.problems);
      else throw error;
      return [];
    }
  })();
  let scenarios: LoadedScenario[] = [];
  let recordings: LoadedCassette[] = [];
  try {
    scenarios =
      flags.scenarios || bothDefault ? await loadScenarioFiles(flags.scenarios ?? ['scenarios'], base) : [];
  } catch (error) {
    if (error instanceof InputError) problems.push(...error.problems);
    else throw error;
  }
  try {
    recordings =
      flags.recordings || bothDefault ? await loadCassettes(flags.recordings ?? ['recordings'], base) : [];
  } catch (error) {
    if (error instanceof InputError) problems.push(...error.problems);
    else throw error;
  }
  if (problems.length === 0) {
    const withExpectations = recordings.flatMap((r) =>
      r.expectations ? [cassetteAsScenario(r.expectations, { id: r.cassette.meta.id, task: '' })] : [],
    );
    problems.push(...(await prepareScorers(configs, [...scenarios, ...withExpectations])));
  }
  if (problems.length > 0) throw new InputError(problems);
  if (
    planCases({ configs, scenarios, recordings, ...(flags.filter ? { filter: flags.filter } : {}) })
      .length === 0
  )
    throw new InputError([
      {
        file: flags.filter ? `--filter ${JSON.stringify(flags.filter)}` : 'run',
        path: '',
        reason: `no case to run (${scenarios.length} scenarios and ${recordings.length} recordings loaded${flags.filter ? ', none whose id contains the filter' : ''}); a suite that runs nothing must not pass`,
      },
    ]);

  const color = useColor({ isTTY: io.isTTY }, io.env);
  const c = palette(color);
  const tracing = trace
    ? suiteTracing({ ...trace, ...(trace.file ? { file: path.resolve(io.cwd, trace.file) } : {}) }, VERSION)
    : undefined;
  const out = flags.out ? path.resolve(io.cwd, flags.out) : undefined;
  const stage = out ? new CaseFileStage(out) : undefined;
  const results = await runSuite({
    configs,
    scenarios,
    recordings,
    ...(flags.filter ? { filter: flags.filter } : {}),
    concurrency: Number(flags.concurrency),
    ...(flags.bail ? { bail: true } : {}),
    ...(isCI(io.env) ? { ci: true } : {}),
    ...(shard ? { shard } : {}),
    onRun: async (planned, run, result) => {
      await tracing?.onRun(planned, run, result);
      stage?.write(result, run);
      if (flags.verbose && (result.status === 'fail' || result.status === 'error')) {
        const lines = [
          c.bold(`── ${result.id} (${result.config}): ${result.status}`),
          ...(run
            ? ledgerLines(run.ledger, c, { detail: true, width: 100, texts: turnTexts(run.events) })
            : []),
          `stop reason: ${result.stopReason ?? 'none'}${result.stopDetail ? ` (${result.stopDetail})` : ''}`,
          ...result.checks.filter((k) => !k.pass).map((k) => c.red(`✗ ${describeFailure(k)}`)),
          ...(result.error ? [c.red(`error: ${result.error.message}`)] : []),
        ];
        io.stderr(`${io.isTTY ? '\r\u001b[2K' : ''}${lines.join('\n')}\n`);
      }
    },
    version: VERSION,
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
  });
  if (trace && tracing) io.stderr(`${describeTracing(trace, await tracing.close())}\n`);
  if (results.shard)
    io.stderr(
      `shard ${results.shard.index}/${results.shard.count}: ${results.shard.assigned} of ${results.shard.planCases} cases${results.shard.assigned === 0 ? ' (none hash to this shard)' : ''}\n`,
    );
  const envColumns = Number(io.env.COLUMNS);
  const width = io.columns ?? (Number.isInteger(envColumns) && envColumns > 0 ? envColumns : undefined);
  io.stdout(`${renderTable(results, { color, ...(width ? { width } : {}) })}\n`);
  const written: string[] = [];
  if (out && stage) written.push(...writeReportDir(out, stage.commit(results)));
  if (flags.json) {
    writeResultsJson(path.resolve(io.cwd, flags.json), results);
    written.push(path.resolve(io.cwd, flags.json));
  }
  for (const file of written) io.stdout(`${c.dim(`wrote ${path.relative(io.cwd, file) || file}`)}\n`);
  // Skipped cases (a prerequisite missing here) are neither passes nor failures: exit 0 when every case that ran passed.
  return results.summary.failed + results.summary.errored > 0 ? 1 : 0;
}
