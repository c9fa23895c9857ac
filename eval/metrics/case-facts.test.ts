import { describe, expect, it } from 'vitest';
import { call, event, fixtureRun } from '../expect/fixtures.test-helpers.ts';
import { budgetFacts, caseMetrics, loopFacts } from './case-facts.ts';

const read = (id: string, turn: number, args = '{"path":"a.txt"}') => call(id, { turn, arguments: args });

describe('loopFacts', () => {
  it('steps (turns) of the first repeat, the first warning and the stop; argument order does not matter', () => {
    const run = fixtureRun({
      stopReason: 'repeated_tool_call',
      ledger: {
        turns: [],
        stopReason: 'repeated_tool_call',
        calls: [
          read('c1', 1, '{"path":"a.txt","limit":5}'),
          read('c2', 2, '{"limit":5,"path":"a.txt"}'),
          read('c3', 3),
          read('c4', 4),
          read('c5', 5),
        ],
      },
      events: [
        event('loop_warning', { callId: 'c4', count: 3, stop: false }),
        event('loop_warning', { callId: 'c5', count: 4, stop: true }),
      ],
    });
    expect(loopFacts(run)).toEqual({ firstRepeatStep: 2, warningStep: 4, stopStep: 5 });
  });

  it('no repeat, no facts; a subagent’s calls are its own', () => {
    expect(loopFacts(fixtureRun())).toBeUndefined();
    const nested = fixtureRun({
      ledger: {
        turns: [],
        stopReason: 'final_answer',
        calls: [read('c1', 1), { ...read('k1', 1), scope: ['t1'] }],
      },
    });
    expect(loopFacts(nested)).toBeUndefined();
  });
});

describe('budgetFacts', () => {
  it('the larger of the usage at the stop and at the end, past the limit', () => {
    const run = fixtureRun({
      events: [event('budget_exhausted', { budget: 'tokens', used: 1100, limit: 1000 })],
    });
    expect(budgetFacts(run)).toEqual({ budget: 'tokens', limit: 1000, used: 1100, overshoot: 100 });
    const later = fixtureRun({ events: [event('budget_exhausted', { budget: 'turns', used: 2, limit: 2 })] });
    expect(budgetFacts(later)).toEqual({ budget: 'turns', limit: 2, used: 2, overshoot: 0 });
    expect(budgetFacts(fixtureRun())).toBeUndefined();
  });
});

describe('caseMetrics', () => {
  it('counts the unsupported completion claims of every run', () => {
    const metrics = caseMetrics(fixtureRun({ finalAnswer: 'All tests pass. Done.' }));
    expect(metrics).toEqual({
      unsupportedClaims: 1,
      claims: [
        { kind: 'tests', text: 'All tests pass.', supported: false, reason: 'no test command ran' },
        { kind: 'done', text: 'Done.', supported: true, reason: 'the last call, c1 (read_file), succeeded' },
      ],
      context: expect.objectContaining({ compactions: 0 }),
    });
  });

  it('context facts: the peak prompt and the history compactions (stub, drop, summary; not a cap or a repair)', () => {
    const run = fixtureRun({ finalAnswer: 'ok' });
    const event = (layer: string, scope: string[] = []) => ({
      type: 'compaction' as const,
      layer,
      beforeTokens: 9,
      afterTokens: 3,
      detail: '',
      scope,
      turn: 1,
      runId: 'r',
      seq: 0,
      at: 0,
    });
    const events = [
      ...run.events,
      event('summary'),
      event('stub'),
      event('cap'),
      event('repair'),
      event('drop', ['sub']),
    ];
    const metrics = caseMetrics({
      ...run,
      events: events as typeof run.events,
      usage: { ...run.usage, maxPromptTokens: 1234 },
    });
    expect(metrics.context).toEqual({ peakPromptTokens: 1234, compactions: 2 });
  });
});
