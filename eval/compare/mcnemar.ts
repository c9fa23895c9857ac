/**
 * McNemar's exact (conditional) test on paired pass/fail outcomes. Only the discordant pairs
 * carry information: with b cases passing under the reference only and c under the candidate
 * only, under the null hypothesis of no difference b ~ Binomial(b + c, 1/2), and the two-sided
 * p-value is min(1, 2 · P(X ≤ min(b, c))) — the exact binomial test of R's
 * `binom.test(b, b + c)` and of `exact2x2::mcnemar.exact`. Source and worked example:
 * Fagerland, Lydersen & Laake (2013), "The McNemar test for binary matched-pairs data: mid-p and
 * asymptotic are better than exact conditional", BMC Medical Research Methodology 13:91,
 * Table 1 (Bentur et al. 2009: b = 1, c = 7 gives the exact conditional p = 0.070); the golden
 * test (`mcnemar.test.ts`) holds that example.
 */
import type { McNemarResult } from './types.ts';

/**
 * P(X ≤ k) for X ~ Binomial(n, 1/2), summed in log space so it stays exact-ish (relative error
 * ~1e-15) for any n (0.5^n underflows past n = 1074).
 */
export function binomialHalfCdf(k: number, n: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  let logTerm = -n * Math.LN2;
  let sum = Math.exp(logTerm);
  for (let i = 0; i < k; i += 1) {
    logTerm += Math.log((n - i) / (i + 1));
    sum += Math.exp(logTerm);
  }
  return Math.min(1, sum);
}

/**
 * McNemar's exact test of `referenceOnly` (b) against `candidateOnly` (c) discordant pairs; the
 * p-value is rounded to 6 significant digits so results files stay stable.
 * @throws RangeError when a count is negative or not an integer.
 */
export function mcnemarExact(referenceOnly: number, candidateOnly: number): McNemarResult {
  for (const v of [referenceOnly, candidateOnly])
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`McNemar counts must be integers ≥ 0, got ${v}`);
  const discordant = referenceOnly + candidateOnly;
  const p =
    discordant === 0
      ? 1
      : Math.min(1, 2 * binomialHalfCdf(Math.min(referenceOnly, candidateOnly), discordant));
  return { discordant, referenceOnly, candidateOnly, pValue: Number(p.toPrecision(6)) };
}
