/**
 * What the metrics read of a case result: a structural subset of `CaseResult`
 * (`eval/results.ts`), so the metric functions stay pure and the results module can import them.
 */
import type { Check } from '../expect/check.ts';
import type { CaseMetrics } from './case-facts.ts';

/** The fields of one case result the metrics use. */
export interface MetricCase {
  id: string;
  config: string;
  status: 'pass' | 'fail' | 'error' | 'skipped';
  tags: readonly string[];
  checks: readonly Check[];
  attack?: { succeeded: boolean };
  metrics?: CaseMetrics;
}

/** A share: `count` of `of`, and `rate` = count / of (`null` when `of` is 0). */
export interface Share {
  count: number;
  of: number;
  rate: number | null;
}

/** Builds a {@link Share}; the rate is rounded to 6 decimals so results files stay stable. */
export function share(count: number, of: number): Share {
  return { count, of, rate: of === 0 ? null : Number((count / of).toFixed(6)) };
}

/** Mean and maximum of a list of numbers (`null` when empty), rounded to 6 decimals. */
export function meanMax(values: readonly number[]): { n: number; mean: number | null; max: number | null } {
  if (values.length === 0) return { n: 0, mean: null, max: null };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return { n: values.length, mean: Number(mean.toFixed(6)), max: Number(Math.max(...values).toFixed(6)) };
}
