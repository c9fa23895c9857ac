/**
 * What follows a turn, as a value. A turn ends in one {@link TurnOutcome} (facts: the reply, the
 * dispatcher's verdict, a spent budget, a failed model call); {@link nextStep} turns it into a
 * {@link Step} (continue, with the counters and an optional harness note, or stop, with the stop
 * reason) and is pure; {@link applyStep} writes the step into the {@link RunState} and is the
 * only place that sets `state.stop`. The shape follows openai-agents-js (`runner/steps.ts`:
 * a turn resolves to a `NextStep` value, `next_step_run_again` or `next_step_final_output`) and
 * the Vercel AI SDK (`generate-text/stop-condition.ts`: stopping is a function of the steps so
 * far), with the stop reasons of `docs/architecture.md` §6.
 */
import type { UnstampedEvent } from '../events.ts';
import type { ModelError, ModelResponse } from '../model/types.ts';
import type { BudgetStop } from './budgets.ts';
import { detectTextToolCall, TEXT_TOOL_CALL_NOTE, TRUNCATED_TEXT_NOTE } from './notes.ts';
import type { RunState, RunStop } from './state.ts';

/** How a model call failed: the provider or transport failed (or the run was cancelled during it). */
export interface ModelFailure {
  kind: 'model_error';
  error: ModelError;
  /** The run's signal was aborted when the call failed. */
  aborted: boolean;
}

/** The request would not fit the window (the context stage could remove nothing more). */
export interface Overflow {
  kind: 'context_overflow';
  detail: string;
}

/** What one turn produced. */
export type TurnOutcome =
  /** The run was cancelled before the model call. */
  | { kind: 'cancelled' }
  /** A budget was spent before the model call. */
  | { kind: 'budget'; budget: BudgetStop; aborted: boolean }
  | ModelFailure
  | Overflow
  /** The provider's content filter ended the turn, or the model refused (`contentFilterStop`); appended, no call run. */
  | { kind: 'content_filter'; detail: string }
  /** A reply without tool calls (already appended to the history). */
  | { kind: 'answer'; response: ModelResponse }
  /** A reply with tool calls, dispatched (call and results appended); `stop` when a call ends the run. */
  | {
      kind: 'tools';
      response: ModelResponse;
      stop?: { reason: RunStop['reason']; detail: string; budget?: BudgetStop };
      aborted: boolean;
    };

/** What follows a turn. */
export type Step =
  | {
      next: 'continue';
      truncatedInRow: number;
      textCallsInRow: number;
      /** A harness note to append as a user message before the next turn. */
      note?: string;
    }
  | {
      next: 'stop';
      stop: RunStop;
      /** The final answer, when this step gives one. */
      finalAnswer?: string;
      /** The spent budget, reported as a `budget_exhausted` event. */
      budget?: BudgetStop;
      /** The reserved tool-less wrap-up turn runs before the end (`limits.wrapUpTurn`). */
      wrapUp: boolean;
    };

/** The part of the state {@link nextStep} reads. */
export type StepState = Pick<RunState, 'config' | 'truncatedInRow' | 'textCallsInRow'>;

/**
 * Decides what follows `outcome`. Pure: reads `state`, changes nothing.
 * - a spent budget stops with its reason, after a wrap-up turn when `limits.wrapUpTurn` and the
 *   run was not cancelled;
 * - a reply cut off by the output limit (`finish_reason: "length"`) is answered with a note,
 *   until `limits.maxConsecutiveTruncations` in a row stop the run with `output_truncated`;
 * - a tool call written as text is corrected once (`textToolCalls: "correct"`, handed case B02);
 * - any other text reply is the final answer; a dispatched turn continues unless a call ended it.
 */
export function nextStep(state: StepState, outcome: TurnOutcome): Step {
  const { limits } = state.config;
  switch (outcome.kind) {
    case 'cancelled':
      return stop({ reason: 'human_cancelled', detail: 'cancelled before the next model call' });
    case 'budget':
      return stop(
        { reason: outcome.budget.reason, detail: outcome.budget.detail },
        { budget: outcome.budget, wrapUp: limits.wrapUpTurn && !outcome.aborted },
      );
    case 'model_error':
      return stop(
        outcome.aborted
          ? { reason: 'human_cancelled', detail: 'cancelled during a model call' }
          : { reason: 'model_error', detail: `${outcome.error.code}: ${outcome.error.message}` },
      );
    case 'context_overflow':
      return stop({ reason: 'context_overflow', detail: outcome.detail });
    case 'content_filter':
      return stop({ reason: 'content_filter', detail: outcome.detail });
    case 'answer': {
      const content = outcome.response.content ?? '';
      const cut = truncation(state, outcome.response, 'replies');
      if (cut.stop) return stop(cut.stop, { finalAnswer: content });
      if (cut.inRow > 0)
        return {
          next: 'continue',
          truncatedInRow: cut.inRow,
          textCallsInRow: state.textCallsInRow,
          note: TRUNCATED_TEXT_NOTE,
        };
      const textCall =
        state.config.textToolCalls === 'correct' ? detectTextToolCall(outcome.response.content) : undefined;
      if (textCall && state.textCallsInRow === 0)
        return { next: 'continue', truncatedInRow: 0, textCallsInRow: 1, note: TEXT_TOOL_CALL_NOTE };
      return stop({ reason: 'final_answer' }, { finalAnswer: content });
    }
    case 'tools': {
      const cut = truncation(state, outcome.response, 'turns');
      if (cut.stop) return stop(cut.stop);
      if (!outcome.stop) return { next: 'continue', truncatedInRow: cut.inRow, textCallsInRow: 0 };
      const { reason, detail, budget } = outcome.stop;
      if (!budget) return stop({ reason, detail });
      return stop({ reason, detail }, { budget, wrapUp: limits.wrapUpTurn && !outcome.aborted });
    }
  }
}

/**
 * The replies cut off by the output token limit in a row, this one counted (0 when it was not
 * cut off), and the `output_truncated` stop once they reach `limits.maxConsecutiveTruncations`.
 */
function truncation(
  state: StepState,
  response: ModelResponse,
  what: 'replies' | 'turns',
): { inRow: number; stop?: RunStop } {
  if (response.finishReason !== 'length') return { inRow: 0 };
  const inRow = state.truncatedInRow + 1;
  if (inRow < state.config.limits.maxConsecutiveTruncations) return { inRow };
  return {
    inRow,
    stop: {
      reason: 'output_truncated',
      detail: `${inRow} ${what} in a row cut off by the output token limit`,
    },
  };
}

function stop(s: RunStop, extra: Partial<Extract<Step, { next: 'stop' }>> = {}): Step {
  return { next: 'stop', stop: s, wrapUp: false, ...extra };
}

/**
 * Writes `step` into `state`: the counters and the note of a continue; the final answer, the
 * `budget_exhausted` event and the stop of a stop. The only writer of `state.stop`.
 */
export function applyStep(state: RunState, step: Step, emit: (event: UnstampedEvent) => void): void {
  if (step.next === 'continue') {
    state.truncatedInRow = step.truncatedInRow;
    state.textCallsInRow = step.textCallsInRow;
    if (step.note !== undefined) state.messages.push({ role: 'user', content: step.note });
    return;
  }
  if (step.budget)
    emit({
      type: 'budget_exhausted',
      budget: step.budget.budget,
      used: step.budget.used,
      limit: step.budget.limit,
    });
  if (step.finalAnswer !== undefined) state.finalAnswer = step.finalAnswer;
  state.stop = step.stop;
}
