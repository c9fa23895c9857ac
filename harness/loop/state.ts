/**
 * The run as a value: `RunState` holds everything a run has decided and accumulated so far (the
 * history, every request, the events, the totals, the counters the stop rules read, and the stop
 * once decided). The loop (`run.ts`) reads a turn's outcome, asks {@link nextStep} (`step.ts`)
 * what follows, and applies the answer with {@link applyStep} — the one place where
 * `state.stop` is set. Subagents read and update their parent's state directly (budgets left,
 * usage added afterwards), never through a closure.
 */
import type { HarnessConfig } from '../config.ts';
import type { HarnessEvent } from '../events.ts';
import type { ChatMessage, ModelRequest } from '../model/types.ts';
import type { TaintState } from '../policy/taint.ts';
import type { StopReason } from './stop-reasons.ts';

/** Running totals of a run (subagents' usage added when they end). Tokens, USD. */
export interface RunTotals {
  /** Turns of the conversation (wrap-up and compaction summaries excluded). */
  turns: number;
  /** Every model call: turns, the wrap-up turn and compaction summaries. */
  modelCalls: number;
  /** Tool calls requested, across every scope sharing the budget (the dispatcher counts them). */
  toolCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** The largest prompt of a single request. */
  maxPromptTokens: number;
  costUsd: number;
}

/** Why the run ends; exactly one per run. */
export interface RunStop {
  reason: StopReason;
  detail?: string;
}

/** The state of one run (one scope: a subagent has its own). */
export interface RunState {
  readonly runId: string;
  readonly config: HarnessConfig;
  /** Injected clock at the start, ms since the epoch. */
  readonly startedMs: number;
  /** The working history (the conversation as stored); appended to, rewritten only by the context stage. */
  readonly messages: ChatMessage[];
  /** Every request sent, in order, exactly as sent. */
  readonly requests: ModelRequest[];
  /** Every event of the run and its subagents, in order (`seq`). Appended to, never copied. */
  readonly events: HarnessEvent[];
  readonly totals: RunTotals;
  /** Untrusted tools whose content entered the context (shared with subagents and a chat's runs). */
  readonly taint: TaintState;
  /** Shapes approved for the session. */
  readonly grants: string[];
  /** Call ids used in the conversation (a repeated id gets a fresh one). */
  readonly usedIds: Set<string>;
  /** Replies in a row cut off by the output token limit. */
  truncatedInRow: number;
  /** Replies in a row that wrote a tool call as text (corrected once). */
  textCallsInRow: number;
  finalAnswer: string | null;
  /** Set once, by `applyStep`; the loop ends when it is set. */
  stop: RunStop | undefined;
}

/** Inputs of {@link createRunState}. */
export interface RunStateInit {
  runId: string;
  config: HarnessConfig;
  startedMs: number;
  messages: ChatMessage[];
  events: HarnessEvent[];
  taint?: TaintState;
  grants?: string[];
}

/** A fresh state: zero totals, no stop; ids of a continued conversation count as used. */
export function createRunState(init: RunStateInit): RunState {
  const usedIds = new Set<string>();
  for (const m of init.messages)
    if (m.role === 'assistant') for (const c of m.tool_calls ?? []) usedIds.add(c.id);
  return {
    runId: init.runId,
    config: init.config,
    startedMs: init.startedMs,
    messages: init.messages,
    requests: [],
    events: init.events,
    totals: {
      turns: 0,
      modelCalls: 0,
      toolCalls: 0,
      promptTokens: 0,
      completionTokens: 0,
      maxPromptTokens: 0,
      costUsd: 0,
    },
    taint: init.taint ?? { sources: [] },
    grants: init.grants ?? [],
    usedIds,
    truncatedInRow: 0,
    textCallsInRow: 0,
    finalAnswer: null,
    stop: undefined,
  };
}
