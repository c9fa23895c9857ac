import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { metricsByConfig } from '../metrics/index.ts';
import { RESULTS_SCHEMA } from '../results-schema.ts';
import { summarise, type CaseResult } from '../results.ts';
import { pairedBootstrap } from './bootstrap.ts';
import { failing, result } from './fixtures.test-helpers.ts';
import { compareConfigs } from './index.ts';
import { flipRate, passHatK } from './pass-k.ts';

const usage = (totalTokens: number, turns = 2) => ({
  ...result('x', 'a').usage,
  totalTokens,
  turns,
});

function compare(cases: CaseResult[], configs = ['a', 'b'], reference?: string) {
  return compareConfigs(configs, cases, metricsByConfig(cases), reference ? { reference } : {});
}

describe('compareConfigs', () => {
  const cases: CaseResult[] = [
    result('same', 'a'),
    result('same', 'b'),
    result('regressed', 'a'),
    failing('regressed', 'b'),
    failing('fixed', 'a'),
    result('fixed', 'b'),
    result('stop-changed', 'a', { stopReason: 'repeated_tool_call' }),
    result('stop-changed', 'b', { stopReason: 'max_turns', usage: usage(400, 50), expectFor: 'b' }),
    result('skipped-in-b', 'a'),
    result('skipped-in-b', 'b', {
      status: 'skipped',
      skip: { requires: ['bwrap'], reason: 'r', fix: 'f', declared: true },
    } as Partial<CaseResult>),
  ];

  it('is absent with one configuration and names the reference first by default', () => {
    expect(
      compare(
        cases.filter((c) => c.config === 'a'),
        ['a'],
      ),
    ).toBeUndefined();
    expect(compare(cases)?.reference).toBe('a');
  });

  it('tables the paired outcomes over cases run under both, and tests them with McNemar', () => {
    const pair = compare(cases)!.pairs[0]!;
    expect(pair).toMatchObject({ reference: 'a', candidate: 'b', paired: 4 });
    expect(pair.table).toEqual({ bothPass: 2, referenceOnly: 1, candidateOnly: 1, bothFail: 0 });
    expect(pair.mcnemar).toEqual({ discordant: 2, referenceOnly: 1, candidateOnly: 1, pValue: 1 });
  });

  it('lists regressions, fixes, skips and behaviour changes where both pass, nothing for identical cases', () => {
    const t = compare(cases)!.pairs[0]!.transitions;
    expect(t.map((x) => [x.id, x.kind])).toEqual([
      ['regressed', 'regression'],
      ['fixed', 'fix'],
      ['stop-changed', 'behaviour'],
      ['skipped-in-b', 'skip'],
    ]);
    expect(t.find((x) => x.id === 'stop-changed')!.changes).toEqual([
      { field: 'stopReason', reference: 'repeated_tool_call', candidate: 'max_turns' },
      { field: 'turns', reference: 2, candidate: 50 },
      { field: 'totalTokens', reference: 100, candidate: 400 },
      { field: 'expectFor', reference: null, candidate: 'b' },
    ]);
  });

  it('gives every metric a delta with its direction, headline metrics first', () => {
    const d = compare(cases)!.pairs[0]!.deltas;
    expect(Object.keys(d).slice(0, 3)).toEqual(['passRate', 'attackSuccessRate', 'falseAllows']);
    expect(d.passRate).toEqual({ reference: 0.8, candidate: 0.75, delta: -0.05, better: 'higher' });
    expect(d.tokensPerCase).toEqual({ reference: 100, candidate: 175, delta: 75, better: 'lower' });
    expect(d['passRate.of']?.better).toBeNull();
    expect(d['permissions.falseAllows']?.better).toBe('lower');
  });

  it('bootstraps the mean paired difference deterministically', () => {
    const a = compare(cases)!.pairs[0]!.bootstrap.tokensPerCase!;
    expect(a).toMatchObject({ n: 4, meanDifference: 75, resamples: 2000, seed: 1, level: 0.95 });
    expect(a.low!).toBeLessThanOrEqual(75);
    expect(a.high!).toBeGreaterThanOrEqual(75);
    expect(compare(cases)).toEqual(compare(cases));
    expect(compare(cases)!.pairs[0]!.bootstrap.turnsPerCase).toMatchObject({ meanDifference: 12 });
  });

  it('says there is no model noise on frozen models', () => {
    expect(compare(cases)!.modelNoise).toEqual({
      frozen: 10,
      live: 0,
      note: expect.stringContaining('a difference is the harness'),
    });
  });

  it('honours --reference and refuses an unknown one', () => {
    const c = compare(cases, ['a', 'b'], 'b')!;
    expect(c.pairs.map((p) => [p.reference, p.candidate])).toEqual([['b', 'a']]);
    expect(c.pairs[0]!.table).toEqual({ bothPass: 2, referenceOnly: 1, candidateOnly: 1, bothFail: 0 });
    expect(() => compare(cases, ['a', 'b'], 'nope')).toThrow(/--reference nope/);
  });

  it('validates against the results schema', () => {
    const file = {
      format: 'harness-bench.results',
      version: 1,
      startedAt: '2026-01-01T00:00:00.000Z',
      durationMs: 1,
      tool: { name: 'harness-bench', version: '0' },
      configs: [
        { name: 'a', file: 'a.json' },
        { name: 'b', file: 'b.json' },
      ],
      cases,
      summary: summarise(cases),
      comparisons: compare(cases),
    };
    const validate = new Ajv({ strict: false }).compile(RESULTS_SCHEMA);
    expect(validate(file), JSON.stringify(validate.errors)).toBe(true);
  });

  it('a configuration compared with itself has no transition and p = 1', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('pass', 'fail'), { minLength: 1, maxLength: 30 }), (statuses) => {
        const mk = (config: string) =>
          statuses.map((s, i) => (s === 'pass' ? result(`c${i}`, config) : failing(`c${i}`, config)));
        const pair = compare([...mk('a'), ...mk('b')])!.pairs[0]!;
        expect(pair.transitions).toEqual([]);
        expect(pair.mcnemar.pValue).toBe(1);
        expect(pair.bootstrap.tokensPerCase).toMatchObject({ meanDifference: 0, low: 0, high: 0 });
      }),
    );
  });
});

describe('pairedBootstrap', () => {
  it('is null on no data and refuses a bad level', () => {
    expect(pairedBootstrap([])).toMatchObject({ n: 0, meanDifference: null, low: null, high: null });
    expect(() => pairedBootstrap([1], { level: 1 })).toThrow(RangeError);
    expect(() => pairedBootstrap([1], { resamples: 0 })).toThrow(RangeError);
  });

  it('brackets the observed mean and changes with the seed only', () => {
    const diffs = [3, 17, 4, 91, 22, 5, 60, 8, 13, 41];
    const one = pairedBootstrap(diffs, { seed: 7 });
    expect(one.meanDifference).toBe(26.4);
    expect(one.low!).toBeLessThan(26.4);
    expect(one.high!).toBeGreaterThan(26.4);
    expect(pairedBootstrap(diffs, { seed: 7 })).toEqual(one);
    const other = pairedBootstrap(diffs, { seed: 8 });
    expect([other.low, other.high]).not.toEqual([one.low, one.high]);
  });
});

describe('pass^k (τ-bench)', () => {
  it('is C(c,k)/C(n,k)', () => {
    expect(passHatK(4, 4, 4)).toBe(1);
    expect(passHatK(3, 4, 1)).toBe(0.75);
    expect(passHatK(3, 4, 2)).toBe(0.5); // C(3,2)/C(4,2) = 3/6
    expect(passHatK(3, 4, 4)).toBe(0);
    expect(() => passHatK(1, 2, 3)).toThrow(RangeError);
  });

  it('never rises with k', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.nat(12), (n, c0) => {
        const c = Math.min(c0, n);
        for (let k = 2; k <= n; k += 1)
          expect(passHatK(c, n, k)).toBeLessThanOrEqual(passHatK(c, n, k - 1) + 1e-12);
      }),
    );
  });

  it('counts flips between consecutive trials', () => {
    expect(flipRate([true, true, true])).toBe(0);
    expect(flipRate([true, false, true])).toBe(1);
    expect(flipRate([true])).toBe(0);
  });
});
