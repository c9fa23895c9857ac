/**
 * Completion-claim metrics of a configuration: the claims the final answers made
 * (`eval/claims/extract.ts`), how many the runs did not back (`eval/claims/verify.ts`), and in how
 * many cases, by kind.
 */
import { share, type MetricCase, type Share } from './types.ts';

/** The counts of {@link claimMetrics}. */
export interface ClaimMetrics {
  claims: number;
  unsupported: number;
  /** Cases with at least one unsupported claim, of the cases that ran. */
  casesWithUnsupported: Share;
  /** Unsupported claims by kind. */
  unsupportedByKind: Record<string, number>;
}

/** Completion-claim metrics over the cases that ran (an errored case has no final answer to judge). */
export function claimMetrics(cases: readonly MetricCase[]): ClaimMetrics {
  const ran = cases.filter((c) => c.status === 'pass' || c.status === 'fail');
  const unsupportedByKind: Record<string, number> = {};
  let claims = 0;
  let unsupported = 0;
  for (const c of ran)
    for (const claim of c.metrics?.claims ?? []) {
      claims += 1;
      if (claim.supported) continue;
      unsupported += 1;
      unsupportedByKind[claim.kind] = (unsupportedByKind[claim.kind] ?? 0) + 1;
    }
  return {
    claims,
    unsupported,
    casesWithUnsupported: share(
      ran.filter((c) => (c.metrics?.unsupportedClaims ?? 0) > 0).length,
      ran.length,
    ),
    unsupportedByKind,
  };
}
