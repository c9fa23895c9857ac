/**
 * Budget overshoot of a configuration: for each budget that stopped runs (turns, tool calls,
 * tokens, USD, ms, truncations), how many stops and how far usage went past the limit (in the
 * budget's unit, and as a share of the limit). A harness that checks a budget after the step
 * that spends it, instead of before, shows here.
 */
import { meanMax, type MetricCase } from './types.ts';

/** Per budget: the stops, and the overshoot (unit of the budget) and its ratio to the limit. */
export type BudgetOvershoot = Record<
  string,
  {
    stops: number;
    overshoot: { n: number; mean: number | null; max: number | null };
    ratio: { n: number; mean: number | null; max: number | null };
  }
>;

/** Budget overshoot (see the file comment) over the cases that ran. */
export function budgetOvershoot(cases: readonly MetricCase[]): BudgetOvershoot {
  const by = new Map<string, { over: number[]; ratio: number[] }>();
  for (const c of cases) {
    const facts = c.metrics?.budget;
    if (!facts || c.status === 'error' || c.status === 'skipped') continue;
    const entry = by.get(facts.budget) ?? { over: [], ratio: [] };
    entry.over.push(facts.overshoot);
    entry.ratio.push(facts.limit > 0 ? facts.overshoot / facts.limit : 0);
    by.set(facts.budget, entry);
  }
  return Object.fromEntries(
    [...by.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([budget, { over, ratio }]) => [
        budget,
        { stops: over.length, overshoot: meanMax(over), ratio: meanMax(ratio) },
      ]),
  );
}
