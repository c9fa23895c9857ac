import { describe, expect, it } from 'vitest';
import { validateScenario } from './validate.ts';
import { expectationsFor } from './check.ts';
import type { Scenario } from './types.ts';

const scenario: Pick<Scenario, 'expect' | 'expectFor'> = {
  expect: {
    stopReason: 'final_answer',
    executed: ['w1', 'r1'],
    permissions: { w1: 'ask:approved', r1: 'allow' },
    finalAnswer: { includes: ['wrote'] },
  },
  expectFor: { strict: { executed: ['r1'], permissions: { w1: 'ask:denied' } } },
};

describe('expectationsFor', () => {
  it('merges the block of the configuration under test over expect: maps key by key, lists replace', () => {
    expect(expectationsFor(scenario, 'strict')).toEqual({
      stopReason: 'final_answer',
      executed: ['r1'],
      permissions: { w1: 'ask:denied', r1: 'allow' },
      finalAnswer: { includes: ['wrote'] },
    });
  });

  it('a null in the block removes what expect says there, at any depth', () => {
    const withNulls: Pick<Scenario, 'expect' | 'expectFor'> = {
      expect: {
        stopReason: 'final_answer',
        results: {
          w1: { ok: false, errorType: 'approval_denied', includes: ['not approved'] },
          r1: { ok: true },
        },
        finalAnswer: { includes: ['wrote'] },
      },
      expectFor: {
        permissive: {
          results: { w1: { ok: true, errorType: null, includes: ['created'] }, r1: null },
          finalAnswer: { absent: true, includes: null },
        } as unknown as Partial<Scenario['expect']>,
      },
    };
    expect(expectationsFor(withNulls, 'permissive')).toEqual({
      stopReason: 'final_answer',
      results: { w1: { ok: true, includes: ['created'] } },
      finalAnswer: { absent: true },
    });
  });

  it('another configuration gets expect as it is; a name like a prototype key is no block', () => {
    expect(expectationsFor(scenario, 'default')).toBe(scenario.expect);
    expect(expectationsFor(scenario, 'constructor')).toBe(scenario.expect);
  });
});

describe('expectFor in a scenario file', () => {
  const base = {
    id: 'p/q',
    task: 't',
    model: [{ tool_calls: [{ id: 'w1', name: 'write_file', arguments: {} }] }, { content: 'done' }],
    expect: { stopReason: 'final_answer' },
  };
  it('blocks need no stopReason, and are checked like expect (keys, call ids, regexes)', () => {
    expect(
      validateScenario({ ...base, expectFor: { strict: { permissions: { w1: 'ask:denied' } } } }, 'f.json'),
    ).toEqual([]);
    const problems = validateScenario(
      {
        ...base,
        expectFor: {
          strict: { permisions: {}, executed: ['w2'], finalAnswer: { matches: ['('] } },
        },
      },
      'f.json',
    ).map((p) => `${p.path}: ${p.reason}`);
    expect(problems).toEqual([
      '/expectFor/strict/permisions: unknown key "permisions" (did you mean "permissions"?)',
      '/expectFor/strict/executed/0: no call with id "w2" in the model script (nor one the harness assigns: call_0001…, <id>~2); is it a typo?',
      '/expectFor/strict/finalAnswer/matches/0: not a valid regular expression: Invalid regular expression: /(/: Unterminated group',
    ]);
  });

  it('a null must remove something expect says; a null elsewhere is reported, not ignored', () => {
    const model = [{ tool_calls: [{ id: 'w1', name: 'write_file', arguments: {} }] }, { content: 'done' }];
    const scenario = {
      ...base,
      model,
      expect: { stopReason: 'final_answer', results: { w1: { ok: false, errorType: 'approval_denied' } } },
    };
    expect(
      validateScenario(
        { ...scenario, expectFor: { permissive: { results: { w1: { ok: true, errorType: null } } } } },
        'f.json',
      ),
    ).toEqual([]);
    const problems = validateScenario(
      { ...scenario, expectFor: { permissive: { results: { w1: { retryable: null } }, modelCalls: null } } },
      'f.json',
    ).map((p) => `${p.path}: ${p.reason}`);
    expect(problems).toEqual([
      '/expectFor/permissive/results/w1/retryable: null removes what expect says here, and /expect/results/w1/retryable says nothing',
      '/expectFor/permissive/modelCalls: null removes what expect says here, and /expect/modelCalls says nothing',
    ]);
  });
});
