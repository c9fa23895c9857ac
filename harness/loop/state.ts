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
import type { ChatMessage } from '../model/types.ts';
import type { RunState } from '../run-types.ts';
import type { TaintState } from '../policy/taint.ts';

export type { RunState, RunStop } from '../run-types.ts';

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
