/**
 * The metric names a tolerance (`--tolerance`, a configuration's `baseline.tolerances`, the
 * project configuration's `tolerances`) and the project configuration's `scorers` may name,
 * known before any case runs: the headline metrics (`eval/compare/deltas.ts` KEY_METRICS) and
 * every dotted path of `summary.metrics.<config>` a run can produce (the injection metrics and
 * every budget's overshoot included, which a run only has when such cases ran). The rule is the
 * flag's (`eval/compare/baseline.ts` knownMetric), checked on the file instead of after the run.
 */
import type { BudgetExhaustedEvent } from '../harness/events.ts';
import { KEY_METRICS, metricValues } from './compare/deltas.ts';
import { didYouMean } from './did-you-mean.ts';
import { configMetrics, type ConfigMetrics } from './metrics/index.ts';

/** Every budget that can stop a run (a typed record, so a new budget cannot be forgotten). */
const BUDGETS: Record<BudgetExhaustedEvent['budget'], true> = {
  turns: true,
  toolCalls: true,
  tokens: true,
  costUsd: true,
  wallMs: true,
  truncations: true,
};

/** The metrics of a configuration with every optional part present, for its leaf names. */
function fullMetrics(): ConfigMetrics {
  const base = configMetrics([]);
  const share = base.passRate;
  const spread = { n: 0, mean: null, max: null };
  return {
    ...base,
    attack: { attackSuccess: share, utilityWithoutAttack: share, utilityUnderAttack: share },
    budgetOvershoot: Object.fromEntries(
      Object.keys(BUDGETS).map((b) => [b, { stops: 0, overshoot: spread, ratio: spread }]),
    ),
  };
}

/** Every metric name, headline metrics first, then the dotted paths of `summary.metrics`. */
export const METRIC_NAMES: readonly string[] = Object.keys(metricValues(fullMetrics(), []));

/** Whether `name` is a metric (see the file comment). */
export function isMetricName(name: string): boolean {
  return name in KEY_METRICS || METRIC_NAMES.includes(name);
}

/**
 * Why `name` is no metric, in the words of the `--tolerance` check, with the closest name
 * ("did you mean", `did-you-mean.ts`; else the first metric that starts with the word, so
 * `tokens` suggests `tokensPerCase`): `no metric is named "tokens" (did you mean
 * "tokensPerCase"?); headline metrics: …`. `undefined` when it is one.
 */
export function unknownMetricReason(name: string): string | undefined {
  if (isMetricName(name)) return undefined;
  const lower = name.toLowerCase();
  const prefixed = lower ? METRIC_NAMES.find((m) => m.toLowerCase().startsWith(lower)) : undefined;
  const hint = didYouMean(name, METRIC_NAMES) || (prefixed ? ` (did you mean "${prefixed}"?)` : '');
  return `no metric is named "${name}"${hint}; headline metrics: ${Object.keys(KEY_METRICS).join(', ')}; or a dotted path of summary.metrics (permissions.needlessAsks, loop.stopLatency.mean, …)`;
}
