/** A large suite's table lists only the cases that did not pass, at most `maxRows`; the summary counts every case. */
import { describe, expect, it } from 'vitest';
import { summarise, type CaseResult, type ResultsFile } from '../eval/results.ts';
import { renderTable } from './table.ts';

const usage = {
  modelCalls: 1,
  turns: 1,
  toolCalls: 0,
  promptTokens: 1,
  completionTokens: 1,
  totalTokens: 2,
  costUsd: 0,
  durationMs: 1,
};
const verdicts = { allow: 0, 'ask:approved': 0, 'ask:denied': 0, deny: 0, none: 0 };
const one = (i: number, status: 'pass' | 'fail'): CaseResult => ({
  id: `scale/case-${i}`,
  kind: 'scenario',
  config: 'default',
  stopReason: 'final_answer',
  file: `case-${i}.json`,
  tags: [],
  checks: [],
  usage,
  verdicts,
  divergences: [],
  ...(status === 'fail'
    ? { status, firstFailure: `check ${i}: expected a, observed b` }
    : { status: 'pass' as const }),
});
const file = (cases: CaseResult[]): ResultsFile => ({
  format: 'harness-bench.results',
  version: 1,
  startedAt: '',
  durationMs: 5,
  tool: { name: 'harness-bench', version: '0' },
  configs: [{ name: 'default', file: 'configs/default.json' }],
  cases,
  summary: summarise(cases),
});

describe('renderTable on a large suite', () => {
  it('lists every case up to maxRows', () => {
    const text = renderTable(file([one(1, 'pass'), one(2, 'fail')]), { color: false, maxRows: 2 });
    expect(text).toMatch(/scale\/case-1 /);
    expect(text).not.toMatch(/not listed/);
  });

  it('above maxRows lists only cases that did not pass, at most maxRows, and says how many it left out', () => {
    const cases = Array.from({ length: 50 }, (_, i) => one(i, i % 10 === 3 ? 'fail' : 'pass'));
    const text = renderTable(file(cases), { color: false, maxRows: 4 });
    expect(text.match(/scale\/case-\d+/g)).toEqual([
      'scale/case-3',
      'scale/case-13',
      'scale/case-23',
      'scale/case-33',
    ]);
    expect(text).toMatch(
      /46 of 50 cases not listed \(above 4 cases the table lists only cases that did not pass/,
    );
    expect(text).toMatch(/5 FAILED, 0 ERRORED: 45 passed, 5 failed, 0 errored of 50/);
  });

  it('all passing above maxRows: no table, only the count and the summary', () => {
    const text = renderTable(file(Array.from({ length: 10 }, (_, i) => one(i, 'pass'))), {
      color: false,
      maxRows: 4,
    });
    expect(text).not.toMatch(/┌/);
    expect(text).toMatch(/^10 of 10 cases not listed/);
    expect(text).toMatch(/ALL PASSED: 10 passed/);
  });
});
