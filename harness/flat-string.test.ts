import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flatString } from './flat-string.ts';

describe('flatString', () => {
  it('returns the same value for any string, ropes and slices included', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 8 }), fc.nat(), (pieces, cut) => {
        let rope = '';
        for (const piece of pieces) rope += piece;
        const joined = pieces.join('');
        expect(flatString(rope)).toBe(joined);
        const at = joined.length === 0 ? 0 : cut % joined.length;
        expect(flatString(rope.slice(at))).toBe(joined.slice(at));
      }),
    );
  });

  it('keeps the empty string and lone surrogates as they are', () => {
    expect(flatString('')).toBe('');
    expect(flatString(`${'a'.repeat(20)}\ud800`)).toBe(`${'a'.repeat(20)}\ud800`);
  });
});
