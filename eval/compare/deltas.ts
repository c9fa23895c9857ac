/**
 * The metrics a comparison and the baseline gate set side by side: a few headline metrics by
 * short name (what `baseline.tolerances` and `--tolerance` name) and every numeric leaf of
 * `summary.metrics.<config>` (`eval/metrics/index.ts`) by dotted path, matrices aside (their
 * cells are in the stop-reason and permission totals already). Each metric has a direction:
 * which way is better, or neither.
 */
import type { ConfigMetrics } from '../metrics/index.ts';
import type { CaseResult } from '../results.ts';
import type { MetricDelta } from './types.ts';

/** The headline metrics: short name → meaning (units in the name's suffix: rate 0..1, USD, tokens). */
export const KEY_METRICS = {
  passRate: 'share of the cases that ran which passed (0..1)',
  attackSuccessRate: 'share of injection cases whose attack succeeded (0..1)',
  falseAllows: 'calls allowed to run that should have been asked or denied',
  stopReasonMismatches: 'cases whose stop reason was not the expected one',
  unsupportedClaims: 'completion claims of final answers that the run does not back',
  loopFalsePositives: 'legitimate-repetition runs stopped as loops',
  tokensPerCase: 'mean total tokens per case that ran',
  costPerCase: 'mean cost per case that ran, USD',
  turnsPerCase: 'mean model turns per case that ran',
  toolCallsPerCase: 'mean executed tool calls per case that ran',
} as const;

const HIGHER = new Set([
  'passRate',
  'passRate.rate',
  'passRate.count',
  'permissions.matched',
  'stopReasons.matched',
]);
const NEUTRAL_LEAF = new Set(['of', 'n', 'calls', 'claims', 'repeatingRuns', 'stops']);

/** Which way a metric is better: `higher`, `lower`, or `null` (a count of cases, a denominator). */
export function direction(name: string): MetricDelta['better'] {
  if (HIGHER.has(name) || /^attack\.utility\w*\.(rate|count)$/.test(name)) return 'higher';
  const leaf = name.split('.').at(-1) ?? name;
  if (NEUTRAL_LEAF.has(leaf)) return null;
  return 'lower';
}

/** Mean of a usage field over the cases that ran (`null` when none ran), rounded to 6 digits. */
function usageMean(cases: readonly CaseResult[], pick: (c: CaseResult) => number): number | null {
  const ran = cases.filter((c) => c.status !== 'skipped');
  if (ran.length === 0) return null;
  return Number((ran.reduce((s, c) => s + pick(c), 0) / ran.length).toPrecision(6));
}

/** Every numeric leaf of an object by dotted path (`matrix` and `unsupportedByKind` subtrees aside). */
function leaves(value: unknown, prefix: string, out: Record<string, number | null>): void {
  if (value === null || typeof value === 'number') {
    out[prefix] = value;
    return;
  }
  if (!value || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value)) {
    if (k === 'matrix' || k === 'unsupportedByKind') continue;
    leaves(v, prefix ? `${prefix}.${k}` : k, out);
  }
}

/**
 * The metric values of one configuration: the headline metrics ({@link KEY_METRICS}) first,
 * then every leaf of its `ConfigMetrics` by dotted path.
 */
export function metricValues(
  metrics: ConfigMetrics,
  cases: readonly CaseResult[],
): Record<string, number | null> {
  const out: Record<string, number | null> = {
    passRate: metrics.passRate.rate,
    attackSuccessRate: metrics.attack?.attackSuccess.rate ?? null,
    falseAllows: metrics.permissions.falseAllows,
    stopReasonMismatches: metrics.stopReasons.mismatched,
    unsupportedClaims: metrics.claims.unsupported,
    loopFalsePositives: metrics.loop.falsePositives.count,
    tokensPerCase: usageMean(cases, (c) => c.usage.totalTokens),
    costPerCase: usageMean(cases, (c) => c.usage.costUsd),
    turnsPerCase: usageMean(cases, (c) => c.usage.turns),
    toolCallsPerCase: usageMean(cases, (c) => c.usage.toolCalls),
  };
  leaves(metrics, '', out);
  return out;
}

/**
 * The delta of every metric present in either configuration (candidate − reference, rounded to
 * 6 significant digits), headline metrics first.
 */
export function metricDeltas(
  reference: Record<string, number | null>,
  candidate: Record<string, number | null>,
): Record<string, MetricDelta> {
  const names = [...new Set([...Object.keys(reference), ...Object.keys(candidate)])];
  return Object.fromEntries(
    names.map((name) => {
      const a = reference[name] ?? null;
      const b = candidate[name] ?? null;
      const delta = a === null || b === null ? null : Number((b - a).toPrecision(6));
      return [name, { reference: a, candidate: b, delta, better: direction(name) }];
    }),
  );
}
