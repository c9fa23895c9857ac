import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binomialHalfCdf, mcnemarExact } from './mcnemar.ts';

describe('mcnemarExact', () => {
  it('reproduces the worked example of Fagerland et al. 2013, Table 1 (b = 1, c = 7: exact p = 0.070)', () => {
    // 2 · (C(8,0) + C(8,1)) / 2^8 = 2 · 9 / 256 = 0.0703125
    expect(mcnemarExact(1, 7).pValue).toBe(0.0703125);
    expect(mcnemarExact(7, 1).pValue).toBe(0.0703125);
    expect(Number(mcnemarExact(1, 7).pValue.toFixed(3))).toBe(0.07);
  });

  it('matches binom.test on small tables worked by hand', () => {
    expect(mcnemarExact(0, 0).pValue).toBe(1);
    expect(mcnemarExact(0, 1).pValue).toBe(1);
    expect(mcnemarExact(0, 5).pValue).toBe(0.0625); // 2 / 32
    expect(mcnemarExact(3, 3).pValue).toBe(1);
    expect(mcnemarExact(2, 10).pValue).toBe(Number(((2 * (1 + 12 + 66)) / 4096).toPrecision(6)));
  });

  it('stays finite where 0.5^n underflows', () => {
    const p = mcnemarExact(600, 600).pValue;
    expect(p).toBeGreaterThan(0.9);
    expect(mcnemarExact(0, 2000).pValue).toBe(0);
  });

  it('refuses counts that are not counts', () => {
    expect(() => mcnemarExact(-1, 2)).toThrow(RangeError);
    expect(() => mcnemarExact(1.5, 2)).toThrow(/integers/);
  });

  it('is symmetric in b and c and a probability', () => {
    fc.assert(
      fc.property(fc.nat(200), fc.nat(200), (b, c) => {
        const p = mcnemarExact(b, c).pValue;
        expect(p).toBe(mcnemarExact(c, b).pValue);
        expect(p).toBeGreaterThan(-1e-12);
        expect(p).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('the cdf sums to 1 and is monotone', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), (n) => {
        let last = 0;
        for (let k = 0; k <= n; k += 1) {
          const v = binomialHalfCdf(k, n);
          expect(v).toBeGreaterThanOrEqual(last - 1e-12);
          last = v;
        }
        expect(last).toBe(1);
      }),
      { numRuns: 30 },
    );
  });
});
