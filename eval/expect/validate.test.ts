import { describe, expect, it } from 'vitest';
import { validateScenario } from '../scenario/validate.ts';

const minimal = { id: 'x/y', task: 't', model: [{ content: 'done' }] };
const problemsOf = (expect_: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  validateScenario(
    { ...minimal, ...extra, expect: { stopReason: 'final_answer', ...expect_ } },
    'x.json',
  ).map((p) => `${p.path}: ${p.reason}`);

describe('expectation problems the loader reports', () => {
  it('a regular expression that does not compile, with its path', () => {
    expect(problemsOf({ finalAnswer: { matches: ['ok', '/(unclosed/'], excludes: ['[z-a]'] } })).toEqual([
      '/expect/finalAnswer/matches/1: not a valid regular expression: Invalid regular expression: /(unclosed/: Unterminated group',
      '/expect/finalAnswer/excludes/0: not a valid regular expression: Invalid regular expression: /[z-a]/: Range out of order in character class',
    ]);
  });

  it('calledBefore items say something', () => {
    expect(problemsOf({ calledBefore: [{}] })).toEqual([
      '/expect/calledBefore/0: must NOT have fewer than 1 properties',
    ]);
    expect(
      problemsOf({ calledBefore: [{ command: 'npm test*' }, { tool: 'read_file', args: { path: 'a' } }] }),
    ).toEqual([]);
  });
});

describe('events', () => {
  it('schema errors of either form name the key at fault, without anyOf noise', () => {
    expect(problemsOf({ events: ['loop_warned'] })).toEqual([
      expect.stringMatching(/^\/expect\/events\/0: must be one of "run_start"/),
    ]);
    expect(problemsOf({ events: { count: { run_end: -1 }, scop: 'each' } })).toEqual([
      '/expect/events/scop: unknown key "scop" (did you mean "scope"?)',
      '/expect/events/count/run_end: must be >= 0',
    ]);
    expect(problemsOf({ events: 'run_end' })).toEqual([
      '/expect/events: must be array or object, got string',
    ]);
  });

  it('a scope that is a call id must be one the script sends', () => {
    expect(problemsOf({ events: { count: { run_end: 1 }, scope: 'each' } })).toEqual([]);
    expect(problemsOf({ events: { present: ['run_end'], scope: 'task_9' } })).toEqual([
      '/expect/events/scope: no call with id "task_9" in the model script (nor one the harness assigns: call_0001…, <id>~2); is it a typo?',
    ]);
  });
});

describe('requests', () => {
  it('an item that checks nothing, a bad index, a bad regex', () => {
    expect(
      problemsOf({
        requests: [
          { at: 'last' },
          { at: 0, contains: ['x'] },
          { absent: [{ regex: '(' }] },
          { at: 'stored', contains: ['ok'] },
        ],
      }),
    ).toEqual([
      '/expect/requests/1/at: must be >= 1',
      '/expect/requests/0: this item checks nothing: give "contains", "absent" or "maxTokens"',
      '/expect/requests/2/absent/0/regex: not a valid regular expression: Invalid regular expression: /(/: Unterminated group',
    ]);
  });
});
