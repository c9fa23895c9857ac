/**
 * Budget faults (`harness/loop/budgets.ts`, the tool-call budget checked there for the dispatcher too, cost and
 * usage in the loop, truncation counting, the wrap-up turn, a subagent's share of the budgets):
 * off-by-one comparisons and quantities left out of a sum. Public threads:
 * 0xPlaygrounds/rig#2093 (max_turns allowed one call too many), open-octo/octo-agent#62 (cost
 * checked before each call), google/oss-rebuild#1523 (a graceful last turn).
 */
import type { Fault } from '../types.ts';

export const BUDGET_FAULTS: Fault[] = [
  {
    id: 'budget/max-turns-off-by-one',
    tag: 'budget',
    bug: 'the turn budget compares with > instead of >=, so the run gets one turn more than maxTurns',
    patches: [
      {
        file: 'harness/loop/budgets.ts',
        search: 'if (usage.turns >= limits.maxTurns)',
        replace: 'if (usage.turns > limits.maxTurns)',
      },
    ],
  },
  {
    id: 'budget/tool-calls-off-by-one',
    tag: 'budget',
    bug: 'the tool-call budget lets one call more than maxToolCalls run',
    patches: [
      {
        file: 'harness/loop/budgets.ts',
        search: 'if (used < limit) return undefined;',
        replace: 'if (used <= limit) return undefined;',
      },
    ],
  },
  {
    id: 'budget/cost-limit-exclusive',
    tag: 'budget',
    bug: 'the cost budget is spent only once exceeded, so a run that reaches it exactly makes another paid call',
    patches: [
      {
        file: 'harness/loop/budgets.ts',
        search: 'if (usage.costUsd >= limits.maxCostUsd)',
        replace: 'if (usage.costUsd > limits.maxCostUsd)',
      },
    ],
  },
  {
    id: 'budget/cost-ignores-output',
    tag: 'budget',
    bug: 'the cost of a call is computed from its prompt tokens only',
    patches: [
      {
        file: 'harness/loop/model-call.ts',
        search:
          '(usage.promptTokens * price.inputUsdPerMTok + usage.completionTokens * price.outputUsdPerMTok) / 1e6',
        replace: '(usage.promptTokens * price.inputUsdPerMTok) / 1e6',
      },
    ],
  },
  {
    id: 'budget/tokens-prompt-only',
    tag: 'budget',
    bug: 'the token budget sums prompt tokens only',
    patches: [
      {
        file: 'harness/loop/budgets.ts',
        search: 'const tokens = usage.promptTokens + usage.completionTokens;',
        replace: 'const tokens = usage.promptTokens;',
      },
    ],
  },
  {
    id: 'budget/reported-usage-ignored',
    tag: 'budget',
    bug: "the provider's reported usage is ignored and the harness's own estimate is used",
    patches: [
      {
        file: 'harness/context/tokens.ts',
        search: 'const reported = response.usage;',
        replace: "const reported = undefined as ModelResponse['usage'];",
      },
    ],
  },
  {
    id: 'budget/truncations-never-reset',
    tag: 'budget',
    bug: 'the count of truncated turns is not reset by a normal turn, so scattered truncations stop the run',
    patches: [
      {
        file: 'harness/loop/step.ts',
        search: "if (response.finishReason !== 'length') return { inRow: 0 };",
        replace: "if (response.finishReason !== 'length') return { inRow: state.truncatedInRow };",
      },
    ],
  },
  {
    id: 'budget/text-truncation-limit-off-by-one',
    tag: 'budget',
    bug: 'replies cut off by the output limit stop the run one reply late',
    patches: [
      {
        file: 'harness/loop/step.ts',
        search: 'if (inRow < state.config.limits.maxConsecutiveTruncations) return { inRow };',
        replace: 'if (inRow <= state.config.limits.maxConsecutiveTruncations) return { inRow };',
      },
    ],
  },
  {
    id: 'budget/wrap-up-only-for-turns',
    tag: 'budget',
    bug: 'the wrap-up turn is granted only when maxTurns is spent, not for the other budgets',
    patches: [
      {
        file: 'harness/loop/step.ts',
        search: '{ budget: outcome.budget, wrapUp: limits.wrapUpTurn && !outcome.aborted },',
        replace:
          "{ budget: outcome.budget, wrapUp: outcome.budget.reason === 'max_turns' && limits.wrapUpTurn && !outcome.aborted },",
      },
      {
        file: 'harness/loop/step.ts',
        search: 'return stop({ reason, detail }, { budget, wrapUp: limits.wrapUpTurn && !outcome.aborted });',
        replace: 'return stop({ reason, detail }, { budget, wrapUp: false });',
      },
    ],
  },
  {
    id: 'budget/subagent-tokens-not-added',
    tag: 'budget',
    bug: "a subagent's tokens are not added to its parent's totals",
    patches: [
      {
        file: 'harness/subagent/spawn.ts',
        search:
          'totals.promptTokens += result.usage.promptTokens;\n  totals.completionTokens += result.usage.completionTokens;',
        replace: '',
      },
    ],
  },
  {
    id: 'budget/subagent-fresh-token-budget',
    tag: 'budget',
    bug: "a subagent starts with the parent's whole token budget instead of what remains of it",
    patches: [
      {
        file: 'harness/subagent/spawn.ts',
        search: 'maxTokens: remaining.maxTokens,',
        replace: 'maxTokens: limits.maxTokens,',
      },
    ],
  },
];
