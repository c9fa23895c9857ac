/**
 * The facts about one run that the configuration metrics need and a case result alone would
 * not hold: the completion claims and their verdicts, the loop detector's timing, and the budget
 * overshoot at the stop. Computed once when the case ends (`eval/run-scenario.ts`, `eval/suite.ts`)
 * and stored on the case (`metrics` in `results.json`), so every metric stays a pure function of
 * the case results.
 */
import type { BudgetExhaustedEvent } from '../../harness/events.ts';
import type { RunResult } from '../../harness/ledger.ts';
import { verifyClaims } from '../claims/verify.ts';

/** The loop detector's timing in one run, in model turns of the top-level run ("steps"). */
export interface LoopFacts {
  /** The turn of the first call identical (tool and canonical arguments) to an earlier one. */
  firstRepeatStep: number;
  /** The turn of the first `loop_warning`, when there was one. */
  warningStep?: number;
  /** The turn of the stopping `loop_warning`, when the run stopped with `repeated_tool_call`. */
  stopStep?: number;
}

/** How far usage went past the budget that stopped the run, in the budget's unit. */
export interface BudgetFacts {
  budget: BudgetExhaustedEvent['budget'];
  limit: number;
  /** The larger of the usage when the budget was found spent and the usage at the end. */
  used: number;
  /** `used - limit`, never below 0. */
  overshoot: number;
}

/** The per-case block of `results.json` (`metrics`). */
export interface CaseMetrics {
  /** Completion claims of the final answer that the run does not back (`eval/claims/verify.ts`). */
  unsupportedClaims: number;
  /** Every claim with its verdict. */
  claims: { kind: string; path?: string; text: string; supported: boolean; reason: string }[];
  loop?: LoopFacts;
  budget?: BudgetFacts;
  /**
   * What context management did and what it left: the largest prompt of the run, in tokens
   * (reported usage, else the estimate), and the compactions of the top-level run's history
   * (stubs, drops, summaries).
   */
  context?: { peakPromptTokens: number; compactions: number };
}

/** JSON object text with sorted keys, so `{"b":1,"a":2}` and `{"a":2,"b":1}` are one call. */
function canonical(text: string): string {
  try {
    const sort = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(sort)
        : v && typeof v === 'object'
          ? Object.fromEntries(
              Object.keys(v)
                .sort()
                .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
            )
          : v;
    return JSON.stringify(sort(JSON.parse(text)));
  } catch {
    return text;
  }
}

/** The loop detector's timing, when some call of the top-level run repeated an earlier one. */
export function loopFacts(run: Pick<RunResult, 'ledger' | 'events' | 'stopReason'>): LoopFacts | undefined {
  const seen = new Set<string>();
  let firstRepeatStep: number | undefined;
  for (const call of run.ledger.calls) {
    if (call.scope.length > 0) continue;
    const key = `${call.tool}\u0000${canonical(call.arguments)}`;
    if (seen.has(key)) {
      firstRepeatStep = call.turn;
      break;
    }
    seen.add(key);
  }
  if (firstRepeatStep === undefined) return undefined;
  const turnOf = new Map(run.ledger.calls.filter((c) => c.scope.length === 0).map((c) => [c.callId, c.turn]));
  const warnings = run.events.filter((e) => e.type === 'loop_warning' && e.scope.length === 0);
  const first = warnings[0];
  const stopping = warnings.find((e) => e.type === 'loop_warning' && e.stop);
  const warningStep = first && first.type === 'loop_warning' ? turnOf.get(first.callId) : undefined;
  const stopStep =
    run.stopReason === 'repeated_tool_call' && stopping && stopping.type === 'loop_warning'
      ? turnOf.get(stopping.callId)
      : undefined;
  return {
    firstRepeatStep,
    ...(warningStep !== undefined ? { warningStep } : {}),
    ...(stopStep !== undefined ? { stopStep } : {}),
  };
}

/** The budget overshoot at the stop, when a budget of the top-level run stopped it. */
export function budgetFacts(run: Pick<RunResult, 'events' | 'usage'>): BudgetFacts | undefined {
  const event = run.events.find(
    (e): e is BudgetExhaustedEvent => e.type === 'budget_exhausted' && e.scope.length === 0,
  );
  if (!event) return undefined;
  const final: Partial<Record<BudgetFacts['budget'], number>> = {
    turns: run.usage.turns,
    toolCalls: run.usage.toolCalls,
    tokens: run.usage.totalTokens,
    costUsd: run.usage.costUsd,
    wallMs: run.usage.wallMs,
  };
  const used = Math.max(event.used, final[event.budget] ?? event.used);
  const round = (n: number) => Number(n.toFixed(6));
  return {
    budget: event.budget,
    limit: event.limit,
    used: round(used),
    overshoot: round(Math.max(0, used - event.limit)),
  };
}

/** The `compaction` layers that manage the history (stub, drop, summary). */
const HISTORY_LAYERS: ReadonlySet<string> = new Set(['stub', 'drop', 'summary']);

/** Every fact of one run (see {@link CaseMetrics}). `changes`: the workspace diff, when taken. */
export function caseMetrics(
  run: Pick<RunResult, 'ledger' | 'events' | 'stopReason' | 'usage' | 'finalAnswer'>,
  changes?: readonly string[],
): CaseMetrics {
  const claims = verifyClaims(run, changes).map(({ kind, path, text, supported, reason }) => ({
    kind,
    ...(path ? { path } : {}),
    text,
    supported,
    reason,
  }));
  const loop = loopFacts(run);
  const budget = budgetFacts(run);
  // History management only (stubs, drops, summaries): caps of one output and transcript repair
  // are not the context layers a configuration switches off.
  const compactions = run.events.filter(
    (e) => e.type === 'compaction' && e.scope.length === 0 && HISTORY_LAYERS.has(e.layer),
  ).length;
  const peakPromptTokens = run.usage.maxPromptTokens;
  return {
    unsupportedClaims: claims.filter((c) => !c.supported).length,
    claims,
    ...(loop ? { loop } : {}),
    ...(budget ? { budget } : {}),
    ...(peakPromptTokens > 0 || compactions > 0 ? { context: { peakPromptTokens, compactions } } : {}),
  };
}
