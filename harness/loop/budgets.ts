/**
 * Budget checks before every model call. Every budget has a non-zero default
 * (`harness/config.ts`), and the first one spent names the stop reason. Units: turns, tool
 * calls, tokens (prompt + completion, all model calls), USD, ms of the injected clock.
 */
import type { HarnessConfig } from '../config.ts';
import type { StopReason } from './stop-reasons.ts';

/** Usage so far, in the budgets' units. */
export interface BudgetUsage {
  turns: number;
  toolCalls: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  elapsedMs: number;
}

/** A spent budget: which, how much was used, the limit, and the stop reason it gives. */
export interface BudgetStop {
  reason: StopReason;
  budget: 'turns' | 'toolCalls' | 'tokens' | 'costUsd' | 'wallMs';
  used: number;
  limit: number;
  detail: string;
}

/**
 * The first spent budget, or undefined. Order: wall time, cost, tokens, tool calls, turns (the
 * money and time budgets first, since they are the ones users set to protect themselves).
 */
export function checkBudgets(config: HarnessConfig, usage: BudgetUsage): BudgetStop | undefined {
  const { limits } = config;
  const tokens = usage.promptTokens + usage.completionTokens;
  if (usage.elapsedMs >= limits.maxWallMs)
    return {
      reason: 'time_budget_exceeded',
      budget: 'wallMs',
      used: usage.elapsedMs,
      limit: limits.maxWallMs,
      detail: `${usage.elapsedMs} ms of ${limits.maxWallMs} ms`,
    };
  if (usage.costUsd >= limits.maxCostUsd)
    return {
      reason: 'cost_budget_exceeded',
      budget: 'costUsd',
      used: usage.costUsd,
      limit: limits.maxCostUsd,
      detail: `$${usage.costUsd.toFixed(4)} of $${limits.maxCostUsd}`,
    };
  if (tokens >= limits.maxTokens)
    return {
      reason: 'token_budget_exceeded',
      budget: 'tokens',
      used: tokens,
      limit: limits.maxTokens,
      detail: `${tokens} tokens of ${limits.maxTokens}`,
    };
  const toolCalls = toolBudgetStop(config, usage.toolCalls, 'turn');
  if (toolCalls) return toolCalls;
  if (usage.turns >= limits.maxTurns)
    return {
      reason: 'max_turns',
      budget: 'turns',
      used: usage.turns,
      limit: limits.maxTurns,
      detail: `${usage.turns} turns of ${limits.maxTurns}`,
    };
  return undefined;
}

/**
 * The tool-call budget, spent once `used` calls reached `limits.maxToolCalls`; checked before a
 * model call (`turn`: by {@link checkBudgets}) and before each call of a turn (`call`: the
 * dispatcher's preflight, so a turn of many calls stops at the limit), with the detail of each.
 */
export function toolBudgetStop(
  config: HarnessConfig,
  used: number,
  at: 'turn' | 'call',
): BudgetStop | undefined {
  const limit = config.limits.maxToolCalls;
  if (used < limit) return undefined;
  return {
    reason: 'tool_budget_exceeded',
    budget: 'toolCalls',
    used,
    limit,
    detail: at === 'turn' ? `${used} tool calls of ${limit}` : `limit ${limit} tool calls`,
  };
}
