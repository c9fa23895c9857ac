/**
 * `run --repeat K`: the suite run K times; per case the passes out of K, pass^k (τ-bench, Yao et
 * al. 2024, arXiv:2406.12045: C(c, k) / C(n, k), here with k = n = K, and pass^1) and the flip
 * rate; per configuration their means and the cases that flipped. Scripted and recorded models
 * are frozen, so every case must give the same outcome K times: a flip is nondeterminism in the
 * harness. For live models the figures measure the model's noise (tau2-bench#540).
 */
import type { CaseResult } from '../results.ts';
import { flipRate, passHatK } from './pass-k.ts';
import type { RepeatCase, RepeatSummary } from './types.ts';

const round = (v: number) => Number(v.toFixed(6));
const meanOf = (values: number[]) =>
  values.length === 0 ? null : round(values.reduce((a, b) => a + b, 0) / values.length);

/**
 * The repeat summary of K runs of one suite (`trials[t]` the cases of run t, same plan order).
 * @throws RangeError when there are fewer than one trial.
 */
export function repeatSummary(trials: readonly (readonly CaseResult[])[]): RepeatSummary {
  if (trials.length < 1) throw new RangeError('repeatSummary needs at least one trial');
  const byKey = new Map<string, { id: string; config: string; outcomes: boolean[] }>();
  for (const run of trials)
    for (const c of run) {
      if (c.status === 'skipped') continue;
      const key = `${c.id}\u0000${c.config}`;
      const entry = byKey.get(key) ?? { id: c.id, config: c.config, outcomes: [] };
      entry.outcomes.push(c.status === 'pass');
      byKey.set(key, entry);
    }
  const cases: RepeatCase[] = [...byKey.values()].map(({ id, config, outcomes }) => {
    const passes = outcomes.filter(Boolean).length;
    const n = outcomes.length;
    return {
      id,
      config,
      trials: n,
      passes,
      passHat1: n === 0 ? null : round(passHatK(passes, n, 1)),
      passHatK: n === 0 ? null : round(passHatK(passes, n, n)),
      flipRate: round(flipRate(outcomes)),
    };
  });
  return repeatSummaryOf(trials.length, cases);
}

/**
 * The repeat summary of per-case repeat figures (`cases`, in plan order) of K runs: the means per
 * configuration recomputed from them. `harness-bench merge` calls it on the union of the shards'
 * cases, so a sharded `--repeat K` merges into what the unsharded run gives.
 */
export function repeatSummaryOf(k: number, cases: readonly RepeatCase[]): RepeatSummary {
  const byConfig: RepeatSummary['byConfig'] = {};
  for (const config of [...new Set(cases.map((c) => c.config))]) {
    const mine = cases.filter((c) => c.config === config);
    byConfig[config] = {
      passHat1: meanOf(mine.flatMap((c) => (c.passHat1 === null ? [] : [c.passHat1]))),
      passHatK: meanOf(mine.flatMap((c) => (c.passHatK === null ? [] : [c.passHatK]))),
      flipRate: meanOf(mine.map((c) => c.flipRate)) ?? 0,
      flipped: mine.filter((c) => c.flipRate > 0).map((c) => c.id),
    };
  }
  return { k, byConfig, cases: [...cases] };
}
