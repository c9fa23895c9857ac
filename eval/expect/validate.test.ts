import { describe, expect, it } from 'vitest';
import { validateScenario } from '../scenario/load.ts';

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
