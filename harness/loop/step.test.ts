import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, mergeConfig } from '../config.ts';
import { ModelError, type ModelResponse } from '../model/types.ts';
import { type BudgetStop, toolBudgetStop } from './budgets.ts';
import { TEXT_TOOL_CALL_NOTE, TRUNCATED_TEXT_NOTE } from './notes.ts';
import { createRunState } from './state.ts';
import { applyStep, nextStep, type Step, type TurnOutcome } from './step.ts';
import { STOP_REASONS } from './stop-reasons.ts';

const config = mergeConfig(DEFAULT_CONFIG, {
  limits: { maxConsecutiveTruncations: 3, maxToolCalls: 7, wrapUpTurn: true },
});
const state = (over: { truncatedInRow?: number; textCallsInRow?: number } = {}) => ({
  config,
  truncatedInRow: over.truncatedInRow ?? 0,
  textCallsInRow: over.textCallsInRow ?? 0,
});
const reply = (content: string | null, finishReason = 'stop', tools = 0): ModelResponse => ({
  content,
  finishReason,
  toolCalls: Array.from({ length: tools }, (_, i) => ({
    id: `c${i}`,
    type: 'function',
    function: { name: 'read_file', arguments: '{}' },
  })),
});
const turnsBudget: BudgetStop = {
  reason: 'max_turns',
  budget: 'turns',
  used: 5,
  limit: 5,
  detail: '5 turns of 5',
};

describe('nextStep', () => {
  it('a plain text reply is the final answer', () => {
    expect(nextStep(state(), { kind: 'answer', response: reply('done') })).toEqual({
      next: 'stop',
      stop: { reason: 'final_answer' },
      finalAnswer: 'done',
      wrapUp: false,
    });
  });

  it('a reply cut off by the output limit gets a note, until maxConsecutiveTruncations in a row stop the run', () => {
    const cut = { kind: 'answer' as const, response: reply('part', 'length') };
    expect(nextStep(state({ truncatedInRow: 1 }), cut)).toEqual({
      next: 'continue',
      truncatedInRow: 2,
      textCallsInRow: 0,
      note: TRUNCATED_TEXT_NOTE,
    });
    expect(nextStep(state({ truncatedInRow: 2 }), cut)).toMatchObject({
      next: 'stop',
      stop: { reason: 'output_truncated', detail: '3 replies in a row cut off by the output token limit' },
      finalAnswer: 'part',
    });
  });

  it('a tool call written as text is corrected once, then taken as the answer', () => {
    const text = { kind: 'answer' as const, response: reply('{"name":"read_file","arguments":{}}') };
    expect(nextStep(state(), text)).toEqual({
      next: 'continue',
      truncatedInRow: 0,
      textCallsInRow: 1,
      note: TEXT_TOOL_CALL_NOTE,
    });
    expect(nextStep(state({ textCallsInRow: 1 }), text)).toMatchObject({ stop: { reason: 'final_answer' } });
  });

  it('a dispatched turn continues and resets the counters; a call that stops the run stops it', () => {
    const tools: TurnOutcome = { kind: 'tools', response: reply(null, 'tool_calls', 1), aborted: false };
    expect(nextStep(state({ truncatedInRow: 2, textCallsInRow: 1 }), tools)).toEqual({
      next: 'continue',
      truncatedInRow: 0,
      textCallsInRow: 0,
    });
    expect(
      nextStep(state(), {
        ...tools,
        stop: { reason: 'repeated_tool_call', detail: 'read_file repeated 5 times' },
      }),
    ).toEqual({
      next: 'stop',
      stop: { reason: 'repeated_tool_call', detail: 'read_file repeated 5 times' },
      wrapUp: false,
    });
  });

  it('the tool-call budget is a budget: reported, and the wrap-up turn follows unless cancelled', () => {
    const budget = toolBudgetStop(config, 7, 'call')!;
    const stop = { reason: 'tool_budget_exceeded' as const, detail: 'limit 7 tool calls' };
    const tools: TurnOutcome = {
      kind: 'tools',
      response: reply(null, 'tool_calls', 1),
      stop: { ...stop, budget },
      aborted: false,
    };
    expect(nextStep(state(), tools)).toEqual({
      next: 'stop',
      stop,
      budget: { reason: 'tool_budget_exceeded', budget: 'toolCalls', used: 7, limit: 7, detail: stop.detail },
      wrapUp: true,
    });
    expect(nextStep(state(), { ...tools, aborted: true })).toMatchObject({ wrapUp: false });
  });

  it('budgets, cancellation, model errors and overflow map to their stop reasons', () => {
    expect(nextStep(state(), { kind: 'budget', budget: turnsBudget, aborted: false })).toEqual({
      next: 'stop',
      stop: { reason: 'max_turns', detail: '5 turns of 5' },
      budget: turnsBudget,
      wrapUp: true,
    });
    expect(nextStep(state(), { kind: 'cancelled' })).toMatchObject({ stop: { reason: 'human_cancelled' } });
    const error = new ModelError('http_error', 'HTTP 500');
    expect(nextStep(state(), { kind: 'model_error', error, aborted: false })).toMatchObject({
      stop: { reason: 'model_error', detail: 'http_error: HTTP 500' },
    });
    expect(nextStep(state(), { kind: 'model_error', error, aborted: true })).toMatchObject({
      stop: { reason: 'human_cancelled', detail: 'cancelled during a model call' },
    });
    expect(nextStep(state(), { kind: 'context_overflow', detail: 'too big' })).toMatchObject({
      stop: { reason: 'context_overflow', detail: 'too big' },
    });
    expect(nextStep(state(), { kind: 'content_filter', detail: 'the model refused' })).toEqual({
      next: 'stop',
      stop: { reason: 'content_filter', detail: 'the model refused' },
      wrapUp: false,
    });
  });
});

const outcomeArb: fc.Arbitrary<TurnOutcome> = fc.oneof(
  fc.constant<TurnOutcome>({ kind: 'cancelled' }),
  fc.boolean().map((aborted): TurnOutcome => ({ kind: 'budget', budget: turnsBudget, aborted })),
  fc.constant<TurnOutcome>({ kind: 'context_overflow', detail: 'x' }),
  fc.constant<TurnOutcome>({ kind: 'content_filter', detail: 'x' }),
  fc
    .record({ text: fc.constantFrom('done', '{"name":"x","arguments":{}}', ''), cut: fc.boolean() })
    .map(
      ({ text, cut }): TurnOutcome => ({ kind: 'answer', response: reply(text, cut ? 'length' : 'stop') }),
    ),
  fc.record({ cut: fc.boolean(), stops: fc.boolean(), aborted: fc.boolean() }).map(
    ({ cut, stops, aborted }): TurnOutcome => ({
      kind: 'tools',
      response: reply(null, cut ? 'length' : 'tool_calls', 1),
      aborted,
      ...(stops ? { stop: { reason: 'policy_violation', detail: 'denied' } } : {}),
    }),
  ),
);

describe('nextStep and applyStep (property)', () => {
  it('a run of turns sets exactly one stop reason of the fixed list, and nothing after it', () => {
    fc.assert(
      fc.property(fc.array(outcomeArb, { minLength: 1, maxLength: 30 }), (outcomes) => {
        const run = createRunState({ runId: 'r', config, startedMs: 0, messages: [], events: [] });
        const emitted: string[] = [];
        let last: Step | undefined;
        let turns = 0;
        for (const outcome of outcomes) {
          if (run.stop) break;
          turns += 1;
          last = nextStep(run, outcome);
          applyStep(run, last, (e) => emitted.push(e.type));
          // Nothing but the stop step writes the stop; a continue never leaves more in a row than the limit allows.
          if (last.next === 'continue') {
            expect(run.stop).toBeUndefined();
            expect(run.truncatedInRow).toBeLessThan(config.limits.maxConsecutiveTruncations);
            expect(run.textCallsInRow).toBeLessThanOrEqual(1);
          }
        }
        if (last?.next === 'stop') {
          expect(run.stop).toBe(last.stop);
          expect(STOP_REASONS).toContain(run.stop?.reason);
          expect(emitted.filter((t) => t === 'budget_exhausted')).toHaveLength(last.budget ? 1 : 0);
        } else expect(run.stop).toBeUndefined();
        // Notes are the only messages a step adds: one per continue with a note.
        expect(run.messages.length).toBeLessThanOrEqual(turns);
      }),
    );
  });
});
