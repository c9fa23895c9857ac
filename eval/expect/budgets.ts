/** Handler for `budgets`: usage stays at or under each bound (turns, calls, tokens, USD, ms). */
import type { RunResult } from '../../harness/ledger.ts';
import type { BudgetExpectation, Expectations } from '../scenario/types.ts';
import { makeCheck, type Check } from './check.ts';
import type { ExpectContext } from './context.ts';

/** The usage figure each budget key bounds, from the run's totals. */
export function usageFor(usage: RunResult['usage']): Record<keyof BudgetExpectation, number> {
  return {
    turns: usage.turns,
    toolCalls: usage.toolCalls,
    tokens: usage.totalTokens,
    promptTokens: usage.maxPromptTokens,
    costUsd: usage.costUsd,
    wallMs: usage.wallMs,
  };
}

/** `budgets`: one check per bound, `budgets.<key>`. */
export function checkBudgets(want: Expectations['budgets'], { run }: ExpectContext): Check[] {
  const usage = usageFor(run.usage);
  return (Object.entries(want ?? {}) as [keyof BudgetExpectation, number][]).map(([key, bound]) => {
    const observed = usage[key];
    return makeCheck(
      `budgets.${key}`,
      observed <= bound,
      `<= ${bound}`,
      observed,
      observed <= bound
        ? `${key}: observed ${observed}, upper bound ${bound}`
        : `${key}: observed ${observed}, upper bound ${bound} (over by ${Number((observed - bound).toFixed(6))})`,
    );
  });
}
