/**
 * Counting by chunks (`chunkEnd`, remembered chunk counts in `countText`) gives the tokenizer's
 * numbers: every chunk end is a boundary of the o200k split pattern that leaves the pieces on
 * both sides as they are, on arbitrary text (full Unicode, lone surrogates) and on code-like
 * text made of the characters around line ends (newlines, CRLF, slashes, spaces, tabs); and
 * text with long runs is counted with the same slices as before the chunks.
 */
import fc from 'fast-check';
import { countTokens, encode } from 'gpt-tokenizer/encoding/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { describe, expect, it } from 'vitest';
import { chunkEnd, countText, isSpaceOrSlash, LONG_RUN_CHARS } from './tokens.ts';

/** As `countText` encodes: special-token text is text. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };
const split = (text: string) => Array.from(text.matchAll(O200K_TOKEN_SPLIT_REGEX), (m) => m[0]);

/** Any UTF-16 code unit (lone surrogates included) or any code point. */
const anyUnit = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
  fc.integer({ min: 0, max: 0x10ffff }).map((point) => String.fromCodePoint(point)),
);
/** The characters where the pattern's alternatives meet at a line end, and some code. */
const codeUnit = fc.constantFrom(
  '\n',
  '\n',
  '\r\n',
  '\r',
  ' ',
  '  ',
  '\t',
  '/',
  '//',
  '\n/',
  '\n ',
  ' \n',
  '\u00a0',
  '\u2028',
  '\ufeff',
  'a',
  'Ab',
  'x',
  '1',
  '123',
  "'s",
  "'",
  '.',
  ';',
  '{',
  '}',
  '(',
  ')',
  '=',
  '"',
  '*',
  '#',
  'é',
  'e\u0301',
  '\u0301',
  '中',
  '😀',
  '\ud800',
  '\udc00',
  '<|endoftext|>',
);
const arbitraryText = fc.array(anyUnit, { maxLength: 80 }).map((units) => units.join(''));
const codeText = fc
  .array(fc.oneof({ weight: 4, arbitrary: codeUnit }, { weight: 1, arbitrary: anyUnit }), { maxLength: 120 })
  .map((units) => units.join(''));
const text = fc.oneof(arbitraryText, codeText);

const chunkStarts = (text: string): number[] => {
  const starts: number[] = [];
  for (let start = 0; start < text.length; start = chunkEnd(text, start)) starts.push(start);
  return starts;
};

describe('token counting by chunks', () => {
  it('matches the split pattern\'s \\s and "/" on every UTF-16 code unit', () => {
    const pattern = /^[\s/]$/u;
    for (let unit = 0; unit <= 0xffff; unit += 1)
      expect([unit, isSpaceOrSlash(unit)]).toEqual([unit, pattern.test(String.fromCharCode(unit))]);
  });

  it('ends chunks only after a line feed, before a character that is neither whitespace nor "/", or at the end', () => {
    fc.assert(
      fc.property(text, (text) => {
        for (const start of chunkStarts(text).slice(1)) {
          expect(text[start - 1]).toBe('\n');
          expect(isSpaceOrSlash(text.charCodeAt(start))).toBe(false);
        }
        // No boundary of that kind is skipped.
        for (let p = 1; p < text.length; p += 1)
          if (text[p - 1] === '\n' && !/[\s/]/u.test(text[p]!)) expect(chunkStarts(text)).toContain(p);
      }),
      { numRuns: 500 },
    );
  });

  it('splits at a chunk end exactly as the pattern splits the whole text (a piece boundary; pieces on both sides unchanged)', () => {
    fc.assert(
      fc.property(text, (text) => {
        const starts = [...chunkStarts(text), text.length];
        const pieces: string[] = [];
        for (let i = 0; i + 1 < starts.length; i += 1)
          pieces.push(...split(text.slice(starts[i], starts[i + 1])));
        expect(pieces).toEqual(split(text));
      }),
      { numRuns: 1000 },
    );
  });

  it("equals the tokenizer's count on arbitrary text, counted fresh and again from remembered chunks", () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), (parts) => {
        const whole = parts.join('\n');
        const expected = countTokens(whole, AS_TEXT);
        expect(countText(whole)).toBe(expected);
        expect(countText(whole)).toBe(expected);
        for (const part of parts) expect(countText(part)).toBe(encode(part, AS_TEXT).length);
      }),
      { numRuns: 300 },
    );
  });

  it('counts tool output that repeats lines (overlapping reads of one file) as the tokenizer does', () => {
    const lines = Array.from(
      { length: 30 },
      (_, i) => `  ${i + 1}\tconst value${i} = compute(${i}); // ${'x'.repeat(i)}`,
    );
    for (let first = 0; first < 28; first += 1) {
      const output = `${lines.slice(first, first + 3).join('\n')}\n[${27 - first} more lines: call read_file with offset ${first + 4}]`;
      expect(countText(output)).toBe(encode(output, AS_TEXT).length);
    }
  });
});

/** Today's rule for text with long runs, on the tokenizer itself: runs cut into slices of LONG_RUN_CHARS code points. */
function sliced(text: string): number {
  if (text.length === 0) return 0;
  const run = new RegExp(`\\S{${LONG_RUN_CHARS},}|\\s{${LONG_RUN_CHARS},}`, 'g');
  let tokens = 0;
  let last = 0;
  for (const match of text.matchAll(run)) {
    if (match.index > last) tokens += countTokens(text.slice(last, match.index), AS_TEXT);
    const chars = Array.from(match[0]);
    for (let i = 0; i < chars.length; i += LONG_RUN_CHARS)
      tokens += countTokens(chars.slice(i, i + LONG_RUN_CHARS).join(''), AS_TEXT);
    last = match.index + match[0].length;
  }
  if (last < text.length) tokens += countTokens(text.slice(last), AS_TEXT);
  return tokens;
}

describe('token counting of long runs by chunks', () => {
  it('cuts long runs into the same slices as before, with lines of code around them', () => {
    const long = fc
      .tuple(
        fc.constantFrom('a', '/', '\n', ' ', '\n/', 'x\n', '😀', '=', '\r\n', 'ab '),
        fc.integer({ min: LONG_RUN_CHARS - 2, max: 2 * LONG_RUN_CHARS + 3 }),
      )
      .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n));
    fc.assert(
      fc.property(codeText, long, codeText, long, (a, run, b, run2) => {
        const whole = `${a}${run}${b}\n${run2}`;
        expect(countText(whole)).toBe(sliced(whole));
      }),
      { numRuns: 60 },
    );
  });
});
