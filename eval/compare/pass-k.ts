/**
 * pass^k of τ-bench (Yao et al. 2024, "τ-bench: A Benchmark for Tool-Agent-User Interaction in
 * Real-World Domains", arXiv:2406.12045, §4): the chance that all k i.i.d. trials of a task
 * succeed, estimated without bias per task from n ≥ k trials with c successes as
 * C(c, k) / C(n, k), then averaged over tasks. pass^1 is the mean success rate; pass^k falls with
 * k for an unreliable agent. With a frozen model every trial is the same, so pass^k = pass^1 and
 * the flip rate is 0: anything else is nondeterminism in the harness.
 */

/** C(n, k) as a float (products of ratios; exact for the small n of repeated runs). */
function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let out = 1;
  for (let i = 1; i <= k; i += 1) out *= (n - k + i) / i;
  return out;
}

/**
 * The pass^k estimate of one case from `successes` of `trials`.
 * @throws RangeError when k > trials, k < 1 or successes is outside 0..trials.
 */
export function passHatK(successes: number, trials: number, k: number): number {
  if (!Number.isInteger(k) || k < 1 || k > trials)
    throw new RangeError(`pass^k needs 1 ≤ k ≤ trials (k = ${k}, trials = ${trials})`);
  if (successes < 0 || successes > trials)
    throw new RangeError(`successes must be in 0..${trials}, got ${successes}`);
  return choose(successes, k) / choose(trials, k);
}

/**
 * Flip rate of one case over its trials in order: the share of consecutive trial pairs whose
 * pass/fail outcome differs (0 for a deterministic case; 0 when there is a single trial).
 */
export function flipRate(outcomes: readonly boolean[]): number {
  if (outcomes.length < 2) return 0;
  let flips = 0;
  for (let i = 1; i < outcomes.length; i += 1) if (outcomes[i] !== outcomes[i - 1]) flips += 1;
  return flips / (outcomes.length - 1);
}
