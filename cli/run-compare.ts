/**
 * The comparison side of `run` (kept out of `run-command.ts`): `--reference`, `--baseline` with
 * `--tolerance`, and the choice between the single-configuration table and the case ×
 * configuration matrix (`--compact`, `--full`).
 */
import { counted } from '../reports/words.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  assertComparable,
  checkBaseline,
  knownMetric,
  parseTolerance,
  type BaselineVerdict,
  type Tolerance,
} from '../eval/compare/baseline.ts';
import { metricValues } from '../eval/compare/deltas.ts';
import { repeatSummary } from '../eval/compare/repeat.ts';
import type { NamedConfig } from '../eval/config-load.ts';
import { InputError, parseJsonInput, type InputProblem } from '../eval/errors.ts';
import { checkResultsShape } from '../eval/merge.ts';
import type { ResultsFile } from '../eval/results.ts';
import { runSuite, type SuiteOptions } from '../eval/suite.ts';
import type { CliIo } from './io.ts';
import { palette } from '../reports/color.ts';
import { renderMatrix } from '../reports/matrix.ts';
import { renderTable } from '../reports/table.ts';

/** The comparison flags of `run`. */
export interface CompareFlags {
  reference?: string;
  baseline?: string;
  tolerance?: string[];
  compact?: boolean;
  full?: boolean;
  /** `--repeat K`: run the suite K times (pass^k and flip rates, `eval/compare/repeat.ts`). */
  repeat?: string;
}

/** What {@link prepareCompare} checked before the run: the baseline's parsed JSON and the tolerances by configuration. */
export interface PreparedCompare {
  baseline?: { file: string; json: unknown };
  tolerances: Record<string, Record<string, Tolerance>>;
}

/**
 * Checks the comparison flags before anything runs: `--reference` names a configuration,
 * `--tolerance name=value` pairs parse, the baseline file is readable JSON of the results schema.
 * @returns problems (exit 2) or what the gate needs after the run.
 */
export function prepareCompare(
  flags: CompareFlags,
  configs: readonly NamedConfig[],
  cwd: string,
): { problems: InputProblem[]; prepared: PreparedCompare } {
  const problems: InputProblem[] = [];
  const names = configs.map((c) => c.name);
  if (flags.reference && configs.length > 0 && !names.includes(flags.reference))
    problems.push({
      file: `--reference ${flags.reference}`,
      path: '',
      reason: `no configuration of this run has that name (${names.join(', ')})`,
    });
  const cli: Record<string, Tolerance> = {};
  for (const arg of flags.tolerance ?? []) {
    const m = /^([\w.]+)=(.+)$/.exec(arg);
    if (!m) {
      problems.push({
        file: `--tolerance ${arg}`,
        path: '',
        reason: 'must be METRIC=VALUE, e.g. tokensPerCase=5%',
      });
      continue;
    }
    try {
      cli[m[1]!] = parseTolerance(m[2]);
    } catch (error) {
      problems.push({ file: `--tolerance ${arg}`, path: '', reason: (error as Error).message });
    }
  }
  if (flags.tolerance?.length && !flags.baseline)
    problems.push({ file: '--tolerance', path: '', reason: 'only means something with --baseline FILE' });
  const tolerances = Object.fromEntries(
    configs.map((c) => [c.name, { ...(c.bench?.baseline?.tolerances ?? {}), ...cli }]),
  );
  let baseline: PreparedCompare['baseline'];
  if (flags.baseline) {
    const file = path.resolve(cwd, flags.baseline);
    try {
      const json = parseJsonInput(readFileSync(file, 'utf8'), flags.baseline);
      // Its shape now, before any case runs (a damaged baseline used to fail after the run).
      checkResultsShape(json, flags.baseline);
      baseline = { file: flags.baseline, json };
    } catch (error) {
      if (error instanceof InputError) problems.push(...error.problems);
      else
        problems.push({
          file: flags.baseline,
          path: '',
          reason: `cannot read the baseline: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        });
    }
  }
  return { problems, prepared: { ...(baseline ? { baseline } : {}), tolerances } };
}

/**
 * Runs the gate on the finished run. @throws InputError (exit 2) when the baseline cannot be
 * compared or a tolerance names no metric.
 */
export function runGate(results: ResultsFile, prepared: PreparedCompare): BaselineVerdict | undefined {
  if (!prepared.baseline) return undefined;
  const { file, json } = prepared.baseline;
  assertComparable(json, results, file);
  const problems: InputProblem[] = [];
  for (const [config, list] of Object.entries(prepared.tolerances)) {
    const values = metricValues(
      results.summary.metrics[config]!,
      results.cases.filter((c) => c.config === config),
    );
    for (const metric of Object.keys(list))
      if (!knownMetric(metric, values))
        problems.push({
          file: 'tolerances',
          path: `${config}/${metric}`,
          reason: `no metric is named "${metric}" (headline metrics: passRate, attackSuccessRate, falseAllows, tokensPerCase, costPerCase, turnsPerCase, toolCallsPerCase, …; or a dotted path of summary.metrics)`,
        });
  }
  if (problems.length > 0) throw new InputError(problems);
  return checkBaseline(json, results, prepared.tolerances, file);
}

/** The gate's verdict as terminal lines: every regression, then every improvement. */
export function renderGate(verdict: BaselineVerdict, color: boolean): string {
  const c = palette(color);
  const lines = [
    c.bold(
      `baseline ${verdict.baselineFile}: ${counted(verdict.regressions.length, 'regression')}, ${counted(verdict.improvements.length, 'improvement')}${verdict.newCases.length ? `, ${counted(verdict.newCases.length, 'new case')} (not gated)` : ''}`,
    ),
  ];
  if (verdict.notRun.length > 0)
    lines.push(
      c.yellow(
        `  ${verdict.notRun.length} cases that passed in the baseline did not run now (left out or skipped; not gated): ${verdict.notRun.slice(0, 5).join(', ')}${verdict.notRun.length > 5 ? ', …' : ''}`,
      ),
    );
  for (const r of verdict.regressions) lines.push(`  ${c.red('REGRESSION')} ${r.message}`);
  for (const r of verdict.improvements) lines.push(`  ${c.green('improved')} ${r.message}`);
  lines.push(
    verdict.regressions.length > 0
      ? c.red('BASELINE GATE FAILED')
      : c.green('baseline gate passed: nothing regressed'),
  );
  return lines.join('\n');
}

/** The table of a single-configuration run, the matrix of a comparison. */
export function renderRun(
  results: ResultsFile,
  options: { color: boolean; width?: number },
  flags: CompareFlags,
): string {
  if (results.configs.length < 2 && !flags.compact) return renderTable(results, options);
  return renderMatrix(results, {
    ...options,
    ...(flags.compact ? { compact: true } : flags.full ? { compact: false } : {}),
  });
}

/**
 * Runs the suite `k` times (k ≥ 1) and returns run 1 with the `repeats` block when k > 1; the
 * progress line names the run.
 */
export async function runRepeated(
  suite: SuiteOptions,
  k: number,
  io: Pick<CliIo, 'stderr'>,
): Promise<ResultsFile> {
  const first = await runSuite(suite);
  if (k <= 1) return first;
  const trials = [first.cases];
  let durationMs = first.durationMs;
  for (let t = 2; t <= k; t += 1) {
    io.stderr(`repeat ${t}/${k}\n`);
    const next = await runSuite(suite);
    trials.push(next.cases);
    durationMs += next.durationMs;
  }
  return { ...first, durationMs, repeats: repeatSummary(trials) };
}

/** The repeat summary as terminal lines: pass^1, pass^k and flips per configuration. */
export function renderRepeats(results: ResultsFile, color: boolean): string {
  const r = results.repeats;
  if (!r) return '';
  const c = palette(color);
  const pct = (v: number | null) => (v === null ? '-' : `${(v * 100).toFixed(1)}%`);
  const lines = [c.bold(`--repeat ${r.k}: pass^k (tau-bench, Yao et al. 2024) and flips between runs`)];
  for (const [name, b] of Object.entries(r.byConfig))
    lines.push(
      `  ${name.padEnd(12)} pass^1 ${pct(b.passHat1)} · pass^${r.k} ${pct(b.passHatK)} · ${b.flipped.length} cases flipped${b.flipped.length ? `: ${b.flipped.slice(0, 10).join(', ')}` : ''}`,
    );
  const flips = Object.values(r.byConfig).reduce((n, b) => n + b.flipped.length, 0);
  if (flips === 0 && results.comparisons?.modelNoise.live === 0)
    lines.push(c.dim('  zero flips: the models are frozen and the harness is deterministic'));
  return lines.join('\n');
}
