/**
 * The baseline gate (`run --baseline FILE`): the current run against a stored results file.
 * A regression is a case that passed in the baseline and now fails or errors (case id ×
 * configuration, the check that failed), or a metric worse than the baseline by more than its
 * tolerance (metric name, baseline value, current value, tolerance). Improvements are listed
 * and never fail the gate. A baseline of another format, version or suite is refused.
 *
 * Tolerances name the headline metrics of `./deltas.ts` (`passRate`, `attackSuccessRate`,
 * `tokensPerCase`, …) or any dotted metric path (`permissions.needlessAsks`); a value is an
 * absolute amount in the metric's unit (`0`, `0.02`, `150`) or a share of the baseline value
 * (`"5%"`). Only metrics with a tolerance are gated; {@link DEFAULT_TOLERANCES} always apply
 * unless overridden.
 */
import { InputError } from '../errors.ts';
import { configMetrics } from '../metrics/index.ts';
import type { CaseResult, ResultsFile } from '../results.ts';
import { direction, KEY_METRICS, metricValues } from './deltas.ts';

/** An absolute amount in the metric's unit, or a share of the baseline value (`"5%"`). */
export type Tolerance = number | `${number}%`;

/** Gated always: pass rate, attack success rate and false allows may not get worse at all. */
export const DEFAULT_TOLERANCES: Readonly<Record<string, Tolerance>> = {
  passRate: 0,
  attackSuccessRate: 0,
  falseAllows: 0,
};

/** One line of the gate's verdict. */
export interface BaselineFinding {
  kind: 'regression' | 'improvement';
  config: string;
  /** A case finding: the case id; a metric finding has `metric` instead. */
  id?: string;
  /** For a case regression: the first failed check (`firstFailure`). */
  check?: string;
  metric?: string;
  baseline: string | number | null;
  current: string | number | null;
  tolerance?: string;
  /** The whole finding as one line, for the terminal. */
  message: string;
}

/** The gate's verdict: regressions fail the run (exit 1), improvements are listed. */
export interface BaselineVerdict {
  baselineFile: string;
  regressions: BaselineFinding[];
  improvements: BaselineFinding[];
  /** Cases of this run the baseline does not have (id × configuration), not gated. */
  newCases: string[];
  /**
   * Cases that passed in the baseline and did not run now (id × configuration, for this run's
   * configurations): left out of the suite or by `--filter`/`--tag`, or skipped for a missing
   * prerequisite. Not gated (a skip counts neither way), but listed, so that "nothing regressed"
   * never hides a case that was not checked.
   */
  notRun: string[];
}

/**
 * Parses one tolerance value (`0`, `0.5`, `"5%"`, `"5"`).
 * @throws Error with the reason when it is neither a non-negative number nor a percentage.
 */
export function parseTolerance(value: unknown): Tolerance {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  if (typeof value === 'string') {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(value);
    if (m) return m[2] ? (`${Number(m[1])}%` as Tolerance) : Number(m[1]);
  }
  throw new Error(
    `a tolerance is a number ≥ 0 in the metric's unit or a percentage like "5%", got ${JSON.stringify(value)}`,
  );
}

/** Whether a name is a metric a tolerance may name: a headline metric or a dotted metric path. */
export function knownMetric(name: string, values: Record<string, unknown>): boolean {
  return name in KEY_METRICS || name in values;
}

const toleranceText = (t: Tolerance) => (typeof t === 'number' ? String(t) : t);

/** The allowed worsening for a baseline value `base`. */
function allowance(t: Tolerance, base: number): number {
  return typeof t === 'number' ? t : (Math.abs(base) * Number(t.slice(0, -1))) / 100;
}

/**
 * Refuses a baseline that cannot be compared: another format or version of the results file,
 * another version of harness-bench, a configuration of this run the baseline lacks, or another
 * suite (fewer than half of this run's cases in the baseline).
 * @throws InputError naming the baseline file and the reason (exit 2).
 */
export function assertComparable(
  baseline: unknown,
  current: ResultsFile,
  file: string,
): asserts baseline is ResultsFile {
  const refuse = (path: string, reason: string): never => {
    throw new InputError([{ file, path, reason: `cannot serve as a baseline: ${reason}` }]);
  };
  const b = baseline as Partial<ResultsFile> | null;
  if (!b || typeof b !== 'object' || b.format !== 'harness-bench.results')
    refuse('/format', 'not a harness-bench results file (format "harness-bench.results")');
  if (b!.version !== current.version)
    refuse(
      '/version',
      `results format version ${String(b!.version)}, this run writes version ${current.version}`,
    );
  if (b!.tool?.version !== current.tool.version)
    refuse(
      '/tool/version',
      `written by harness-bench ${String(b!.tool?.version)}, this is ${current.tool.version}; record a new baseline with this version`,
    );
  if (!Array.isArray(b!.cases)) refuse('/cases', 'has no cases');
  const names = new Set((b!.configs ?? []).map((c) => c.name));
  for (const c of current.configs)
    if (!names.has(c.name))
      refuse(
        '/configs',
        `has no configuration "${c.name}" (it has ${[...names].join(', ') || 'none'}); name it with -c ${c.name}=FILE or record a baseline with it`,
      );
  const keys = new Set(b!.cases!.map((c) => `${c.id}\u0000${c.config}`));
  const common = current.cases.filter((c) => keys.has(`${c.id}\u0000${c.config}`)).length;
  if (common * 2 < current.cases.length)
    refuse('/cases', `another suite: only ${common} of this run's ${current.cases.length} cases are in it`);
}

/** The verdict of the gate (see the file comment); tolerances by configuration name. */
export function checkBaseline(
  baseline: ResultsFile,
  current: ResultsFile,
  tolerances: Readonly<Record<string, Readonly<Record<string, Tolerance>>>>,
  baselineFile: string,
): BaselineVerdict {
  const verdict: BaselineVerdict = {
    baselineFile,
    regressions: [],
    improvements: [],
    newCases: [],
    notRun: [],
  };
  const before = new Map(baseline.cases.map((c) => [`${c.id}\u0000${c.config}`, c]));
  const ran = new Set(
    current.cases.filter((c) => c.status !== 'skipped').map((c) => `${c.id}\u0000${c.config}`),
  );
  const configs = new Set(current.configs.map((c) => c.name));
  for (const was of baseline.cases)
    if (was.status === 'pass' && configs.has(was.config) && !ran.has(`${was.id}\u0000${was.config}`))
      verdict.notRun.push(`${was.id} × ${was.config}`);
  for (const now of current.cases) {
    const was = before.get(`${now.id}\u0000${now.config}`);
    if (!was) {
      verdict.newCases.push(`${now.id} × ${now.config}`);
      continue;
    }
    if (was.status === 'pass' && (now.status === 'fail' || now.status === 'error'))
      verdict.regressions.push({
        kind: 'regression',
        config: now.config,
        id: now.id,
        check: now.firstFailure,
        baseline: was.status,
        current: now.status,
        message: `${now.id} × ${now.config}: passed in the baseline, now ${now.status}: ${now.firstFailure}`,
      });
    else if ((was.status === 'fail' || was.status === 'error') && now.status === 'pass')
      verdict.improvements.push({
        kind: 'improvement',
        config: now.config,
        id: now.id,
        baseline: was.status,
        current: now.status,
        message: `${now.id} × ${now.config}: ${was.status} in the baseline, passes now`,
      });
  }
  for (const { name } of current.configs) {
    const cur = valuesOf(current, name);
    const base = valuesOf(baseline, name);
    const gated = { ...DEFAULT_TOLERANCES, ...(tolerances[name] ?? {}) };
    for (const [metric, tolerance] of Object.entries(gated)) {
      const a = base[metric] ?? null;
      const b = cur[metric] ?? null;
      const better = direction(metric);
      if (a === null || b === null || better === null || a === b) continue;
      const worse = better === 'higher' ? a - b : b - a;
      const line = `${metric} × ${name}: baseline ${a}, now ${b}`;
      if (worse > allowance(tolerance, a) + 1e-12)
        verdict.regressions.push({
          kind: 'regression',
          config: name,
          metric,
          baseline: a,
          current: b,
          tolerance: toleranceText(tolerance),
          message: `${line} (tolerance ${toleranceText(tolerance)}, ${better} is better)`,
        });
      else if (worse < 0)
        verdict.improvements.push({
          kind: 'improvement',
          config: name,
          metric,
          baseline: a,
          current: b,
          message: `${line} (${better} is better)`,
        });
    }
  }
  return verdict;
}

/** The metric values of one configuration of a results file (recomputed from its cases when its summary lacks them). */
function valuesOf(file: ResultsFile, name: string): Record<string, number | null> {
  const cases: CaseResult[] = file.cases.filter((c) => c.config === name);
  return metricValues(file.summary.metrics?.[name] ?? configMetrics(cases), cases);
}
