import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.ts';
import { summarise, type CaseResult, type ResultsFile } from '../results.ts';
import { assertComparable, checkBaseline, parseTolerance } from './baseline.ts';
import { failing, result } from './fixtures.test-helpers.ts';

function file(cases: CaseResult[], version = '1.0.0'): ResultsFile {
  return {
    format: 'harness-bench.results',
    version: 1,
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    tool: { name: 'harness-bench', version },
    configs: [...new Set(cases.map((c) => c.config))].map((name) => ({ name, file: `${name}.json` })),
    cases,
    summary: summarise(cases),
  };
}

const tokens = (id: string, n: number) =>
  result(id, 'default', { usage: { ...result(id, 'default').usage, totalTokens: n } });

describe('parseTolerance', () => {
  it('reads numbers and percentages and refuses anything else', () => {
    expect(parseTolerance(0)).toBe(0);
    expect(parseTolerance('5%')).toBe('5%');
    expect(parseTolerance('0.5')).toBe(0.5);
    expect(() => parseTolerance(-1)).toThrow(/number ≥ 0/);
    expect(() => parseTolerance('five')).toThrow(/"five"/);
  });
});

describe('checkBaseline', () => {
  const base = file([result('a', 'default'), result('b', 'default'), failing('c', 'default')]);

  it('names a case that passed and now fails, with the check that failed', () => {
    const now = file([
      result('a', 'default'),
      failing('b', 'default', 'stopReason: expected x'),
      failing('c', 'default'),
    ]);
    const v = checkBaseline(base, now, {}, 'base.json');
    expect(v.regressions[0]).toMatchObject({
      id: 'b',
      config: 'default',
      check: 'stopReason: expected x',
      message: 'b × default: passed in the baseline, now fail: stopReason: expected x',
    });
    // the pass rate fell too, beyond the default tolerance 0
    expect(v.regressions[1]).toMatchObject({
      metric: 'passRate',
      baseline: 0.666667,
      current: 0.333333,
      tolerance: '0',
    });
  });

  it('lists improvements without failing', () => {
    const now = file([result('a', 'default'), result('b', 'default'), result('c', 'default')]);
    const v = checkBaseline(base, now, {}, 'base.json');
    expect(v.regressions).toEqual([]);
    expect(v.improvements.map((i) => i.id ?? i.metric)).toEqual(['c', 'passRate']);
  });

  it('gates a metric by its tolerance, absolute or relative', () => {
    const before = file([tokens('a', 1000), tokens('b', 1000)]);
    const after = file([tokens('a', 1000), tokens('b', 1120)]); // +6% tokens per case
    expect(checkBaseline(before, after, { default: { tokensPerCase: '5%' } }, 'b.json').regressions).toEqual([
      expect.objectContaining({
        metric: 'tokensPerCase',
        baseline: 1000,
        current: 1060,
        tolerance: '5%',
        message: 'tokensPerCase × default: baseline 1000, now 1060 (tolerance 5%, lower is better)',
      }),
    ]);
    expect(checkBaseline(before, after, { default: { tokensPerCase: '10%' } }, 'b.json').regressions).toEqual(
      [],
    );
    expect(checkBaseline(before, after, { default: { tokensPerCase: 60 } }, 'b.json').regressions).toEqual(
      [],
    );
    expect(
      checkBaseline(before, after, { default: { tokensPerCase: 59 } }, 'b.json').regressions,
    ).toHaveLength(1);
  });

  it('counts cases the baseline lacks as new, never as regressions', () => {
    const v = checkBaseline(
      base,
      file([...base.cases, failing('d', 'default')]),
      { default: { passRate: 1 } },
      'b',
    );
    expect(v.newCases).toEqual(['d × default']);
    expect(v.regressions).toEqual([]);
  });

  it('lists the cases that passed in the baseline and did not run now (left out or skipped), not gated', () => {
    const wider = file([...base.cases, result('d', 'default')]);
    const now = file([
      result('a', 'default'),
      {
        ...result('b', 'default'),
        status: 'skipped',
        skip: {
          requires: ['bwrap'],
          reason: 'no bwrap',
          fix: 'apt-get install -y bubblewrap',
          declared: true,
        },
      } as CaseResult,
    ]);
    const v = checkBaseline(wider, now, {}, 'b');
    // b skipped now, d left out; c failed in the baseline, so its absence hides nothing
    expect(v.notRun).toEqual(['b × default', 'd × default']);
    expect(v.regressions.filter((r) => r.id)).toEqual([]);
    expect(checkBaseline(base, base, {}, 'b').notRun).toEqual([]);
  });
});

describe('assertComparable', () => {
  const now = file([result('a', 'default'), result('b', 'default')]);
  const refused = (baseline: unknown) => {
    try {
      assertComparable(baseline, now, 'base.json');
      return undefined;
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      return (error as InputError).problems[0]!;
    }
  };

  it('accepts a baseline of this version and suite', () => {
    expect(refused(file([result('a', 'default'), failing('b', 'default')]))).toBeUndefined();
  });

  it('refuses another format, version, configuration or suite, saying which', () => {
    expect(refused({ format: 'x' })?.reason).toMatch(/not a harness-bench results file/);
    expect(refused(file(now.cases, '0.9.0'))?.reason).toMatch(
      /written by harness-bench 0.9.0, this is 1.0.0/,
    );
    expect(refused(file([result('a', 'strict'), result('b', 'strict')]))?.reason).toMatch(
      /has no configuration "default" \(it has strict\)/,
    );
    expect(refused(file([result('x', 'default'), result('y', 'default')]))).toMatchObject({
      file: 'base.json',
      path: '/cases',
      reason: expect.stringMatching(/another suite: only 0 of this run's 2 cases/),
    });
  });
});
