/** Case results for the metric tests: a builder and the checks the metrics read. */
import type { Check } from '../expect/check.ts';
import type { CaseMetrics } from './case-facts.ts';
import type { MetricCase } from './types.ts';

/** A passing case of the `default` configuration unless overridden. */
export function metricCase(id: string, over: Partial<MetricCase> = {}): MetricCase {
  return { id, config: 'default', status: 'pass', tags: [], checks: [], ...over };
}

/** A check with the given expected and observed values (pass when they are equal). */
export function check(name: string, expected: unknown, observed: unknown): Check {
  return {
    name,
    pass: expected === observed,
    expected,
    observed,
    reason: `${String(expected)} / ${String(observed)}`,
  };
}

/** Case metrics with no claims unless overridden. */
export function facts(over: Partial<CaseMetrics> = {}): CaseMetrics {
  return { unsupportedClaims: 0, claims: [], ...over };
}
