/** Stop-reason confusion of a configuration: expected × actual. */
import type { MetricCase } from './types.ts';

/** Counts by expected stop reason, then actual; `matched` on the diagonal, `mismatched` off it. */
export interface StopReasonConfusion {
  matrix: Record<string, Record<string, number>>;
  matched: number;
  mismatched: number;
}

/**
 * The confusion matrix of stop reasons over the cases that expect one (the `stopReason` check:
 * every scenario, and cassettes with expectations): `matrix[expected][actual]`. A case that
 * errored or was skipped has no actual stop reason and is left out.
 */
export function stopReasonConfusion(cases: readonly MetricCase[]): StopReasonConfusion {
  const out: StopReasonConfusion = { matrix: {}, matched: 0, mismatched: 0 };
  for (const c of cases) {
    if (c.status === 'error' || c.status === 'skipped') continue;
    const check = c.checks.find((k) => k.name === 'stopReason');
    if (!check || typeof check.expected !== 'string' || typeof check.observed !== 'string') continue;
    const row = (out.matrix[check.expected] ??= {});
    row[check.observed] = (row[check.observed] ?? 0) + 1;
    if (check.expected === check.observed) out.matched += 1;
    else out.mismatched += 1;
  }
  return out;
}
