/**
 * Paired percentile bootstrap of a mean difference (Efron & Tibshirani 1993, "An Introduction to
 * the Bootstrap", ch. 13): resample the per-case differences with replacement, take the mean of
 * each resample, and read the interval off the quantiles of those means (simple-statistics
 * `quantileSorted`). The resampling draws from the seeded mulberry32 stream of
 * `harness/deps.ts`, so a results file is byte-identical run after run.
 */
import { mean, quantileSorted } from 'simple-statistics';
import { deterministicDeps } from '../../harness/deps.ts';
import type { BootstrapInterval } from './types.ts';

/** Options of {@link pairedBootstrap}: resamples (default 2000), level (default 0.95), seed (default 1). */
export interface BootstrapOptions {
  resamples?: number;
  level?: number;
  seed?: number;
}

/** Rounded to 6 significant digits (results files stay stable and readable). */
const round = (v: number) => Number(v.toPrecision(6));

/**
 * The interval of the mean of `differences` (candidate − reference, one per paired case, in the
 * unit of the quantity: tokens, USD, turns). Empty input → every number `null`.
 * @throws RangeError when `level` is not in (0, 1) or `resamples` is not a positive integer.
 */
export function pairedBootstrap(
  differences: readonly number[],
  options: BootstrapOptions = {},
): BootstrapInterval {
  const resamples = options.resamples ?? 2000;
  const level = options.level ?? 0.95;
  const seed = options.seed ?? 1;
  if (!(level > 0 && level < 1)) throw new RangeError(`bootstrap level must be in (0, 1), got ${level}`);
  if (!Number.isInteger(resamples) || resamples < 1)
    throw new RangeError(`bootstrap resamples must be a positive integer, got ${resamples}`);
  const n = differences.length;
  const base = { n, level, resamples, seed };
  if (n === 0) return { ...base, meanDifference: null, low: null, high: null };
  const observed = mean([...differences]);
  if (differences.every((d) => d === differences[0]))
    return { ...base, meanDifference: round(observed), low: round(observed), high: round(observed) };
  const random = deterministicDeps({ seed }).random;
  const means = new Array<number>(resamples);
  for (let r = 0; r < resamples; r += 1) {
    let sum = 0;
    for (let i = 0; i < n; i += 1) sum += differences[Math.floor(random() * n)]!;
    means[r] = sum / n;
  }
  means.sort((a, b) => a - b);
  return {
    ...base,
    meanDifference: round(observed),
    low: round(quantileSorted(means, (1 - level) / 2)),
    high: round(quantileSorted(means, (1 + level) / 2)),
  };
}
