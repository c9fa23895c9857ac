import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, mergeConfig } from '../config.ts';
import { checkBudgets, toolBudgetStop, type BudgetUsage } from './budgets.ts';

const config = mergeConfig(DEFAULT_CONFIG, {
  limits: { maxTurns: 10, maxToolCalls: 20, maxTokens: 1000, maxCostUsd: 0.05, maxWallMs: 60_000 },
});
const fresh: BudgetUsage = {
  turns: 0,
  toolCalls: 0,
  promptTokens: 0,
  completionTokens: 0,
  costUsd: 0,
  elapsedMs: 0,
};
const spent: BudgetUsage = {
  turns: 10,
  toolCalls: 20,
  promptTokens: 900,
  completionTokens: 100,
  costUsd: 0.05,
  elapsedMs: 60_000,
};

describe('checkBudgets', () => {
  it('is undefined while every budget has room', () => {
    expect(checkBudgets(config, fresh)).toBeUndefined();
    expect(
      checkBudgets(config, {
        turns: 9,
        toolCalls: 19,
        promptTokens: 900,
        completionTokens: 99,
        costUsd: 0.0499,
        elapsedMs: 59_999,
      }),
    ).toBeUndefined();
  });

  it('names the first spent budget in the order wall time, cost, tokens, tool calls, turns', () => {
    const order: [keyof BudgetUsage, string][] = [
      ['elapsedMs', 'time_budget_exceeded'],
      ['costUsd', 'cost_budget_exceeded'],
      ['promptTokens', 'token_budget_exceeded'],
      ['toolCalls', 'tool_budget_exceeded'],
      ['turns', 'max_turns'],
    ];
    const usage: BudgetUsage = { ...spent };
    for (const [field, reason] of order) {
      expect(checkBudgets(config, usage)?.reason).toBe(reason);
      usage[field] = fresh[field];
      if (field === 'promptTokens') usage.completionTokens = 0;
    }
    expect(checkBudgets(config, usage)).toBeUndefined();
  });

  it('reports used, limit and a detail in the budget unit', () => {
    expect(checkBudgets(config, { ...fresh, costUsd: 0.069 })).toEqual({
      reason: 'cost_budget_exceeded',
      budget: 'costUsd',
      used: 0.069,
      limit: 0.05,
      detail: '$0.0690 of $0.05',
    });
    expect(checkBudgets(config, { ...fresh, promptTokens: 600, completionTokens: 400 })).toEqual({
      reason: 'token_budget_exceeded',
      budget: 'tokens',
      used: 1000,
      limit: 1000,
      detail: '1000 tokens of 1000',
    });
    expect(checkBudgets(config, { ...fresh, turns: 10 })).toMatchObject({
      budget: 'turns',
      used: 10,
      limit: 10,
      detail: '10 turns of 10',
    });
    expect(checkBudgets(config, { ...fresh, toolCalls: 21 })).toMatchObject({
      budget: 'toolCalls',
      used: 21,
      limit: 20,
    });
    expect(checkBudgets(config, { ...fresh, elapsedMs: 61_000 })).toMatchObject({
      budget: 'wallMs',
      detail: '61000 ms of 60000 ms',
    });
  });

  it('counts prompt and completion tokens together', () => {
    expect(checkBudgets(config, { ...fresh, promptTokens: 999 })).toBeUndefined();
    expect(checkBudgets(config, { ...fresh, promptTokens: 999, completionTokens: 1 })?.reason).toBe(
      'token_budget_exceeded',
    );
  });
});

describe('toolBudgetStop', () => {
  it('is spent at the limit, before a model call and before a call of a turn alike', () => {
    expect(toolBudgetStop(config, 19, 'turn')).toBeUndefined();
    expect(toolBudgetStop(config, 19, 'call')).toBeUndefined();
    const stop = { reason: 'tool_budget_exceeded', budget: 'toolCalls', used: 20, limit: 20 };
    expect(toolBudgetStop(config, 20, 'turn')).toEqual({ ...stop, detail: '20 tool calls of 20' });
    expect(toolBudgetStop(config, 20, 'call')).toEqual({ ...stop, detail: 'limit 20 tool calls' });
    expect(checkBudgets(config, { ...fresh, toolCalls: 20 })).toEqual(toolBudgetStop(config, 20, 'turn'));
  });
});
