import { describe, expect, it } from 'vitest';
import { failing, result } from './fixtures.test-helpers.ts';
import { repeatSummary } from './repeat.ts';

describe('repeatSummary', () => {
  it('counts passes, pass^1, pass^k and flips per case and configuration', () => {
    const s = repeatSummary([
      [result('steady', 'a'), result('flaky', 'a')],
      [result('steady', 'a'), failing('flaky', 'a')],
      [result('steady', 'a'), result('flaky', 'a')],
      [result('steady', 'a'), result('flaky', 'a')],
    ]);
    expect(s.k).toBe(4);
    expect(s.cases).toEqual([
      { id: 'steady', config: 'a', trials: 4, passes: 4, passHat1: 1, passHatK: 1, flipRate: 0 },
      { id: 'flaky', config: 'a', trials: 4, passes: 3, passHat1: 0.75, passHatK: 0, flipRate: 0.666667 },
    ]);
    expect(s.byConfig.a).toMatchObject({ passHat1: 0.875, passHatK: 0.5, flipped: ['flaky'] });
    expect(s.byConfig.a!.flipRate).toBeCloseTo(1 / 3, 5);
  });

  it('leaves skipped trials out and refuses zero trials', () => {
    const skipped = result('s', 'a', {
      status: 'skipped',
      skip: { requires: ['bwrap'], reason: 'r', fix: 'f', declared: true },
    } as never);
    expect(repeatSummary([[skipped], [skipped]]).cases).toEqual([]);
    expect(() => repeatSummary([])).toThrow(RangeError);
  });
});
