/**
 * Token counting slices long runs without whitespace (`countText`, `LONG_RUN_CHARS`): identical
 * to the tokenizer on text of normal word lengths, within a token per cut on pathological text.
 */
import fc from 'fast-check';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { countText, LONG_RUN_CHARS } from './tokens.ts';

/** As `countText` encodes: special-token text is text. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/** A word: 1 to 40 non-whitespace characters of prose, code, digits, CJK or emoji. */
const word = fc
  .array(
    fc.constantFrom(
      ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split(''),
      ...'.,;:!?()[]{}<>"\'`/\\-_=+*&^%$#@~|'.split(''),
      'é',
      'ß',
      'ありがとう',
      '中文',
      '😀',
      'ö',
    ),
    { minLength: 1, maxLength: 40 },
  )
  .map((chars) => chars.join('').slice(0, 40));
const space = fc.constantFrom(' ', ' ', ' ', '\n', '\t', '  ', '\r\n', '\n\n');

/** Text of normal word lengths, often longer than one chunk. */
const prose = fc
  .array(fc.tuple(word, space), { minLength: 1, maxLength: 400 })
  .map((parts) => parts.map(([w, s]) => w + s).join(''));

describe('token counting with long runs chunked', () => {
  it('equals the tokenizer exactly on text with normal word lengths', () => {
    fc.assert(
      fc.property(prose, (text) => {
        expect(countText(text)).toBe(encode(text, AS_TEXT).length);
      }),
      { numRuns: 150 },
    );
  });

  it('equals the tokenizer exactly on any text without long runs (pieces are counted and remembered one by one)', () => {
    // Characters where the tokenizer's split pattern has its edges: spaces before words and
    // newlines, contractions, digit runs, combining marks, case changes, lone surrogates, special-token text.
    const tricky = fc
      .array(
        fc.constantFrom(
          ' ',
          '  ',
          '\n',
          '\r\n',
          '\t',
          '\u00a0',
          "'s",
          "'LL",
          "'",
          'a',
          'A',
          'aB',
          'Ab',
          '1',
          '1234',
          'é',
          'e\u0301',
          '\u0301',
          'ǅ',
          'ʰ',
          '中',
          '😀',
          '\ud800',
          '/',
          '\n/',
          '.;',
          '<|endoftext|>',
          '<|im_start|>',
        ),
        { maxLength: 60 },
      )
      .map((parts) => parts.join(''));
    const anyText = fc.string({ unit: 'binary', maxLength: 120 });
    fc.assert(
      fc.property(fc.oneof(tricky, anyText), (text) => {
        expect(countText(text)).toBe(encode(text, AS_TEXT).length);
        // Counted again, twice over, from the remembered pieces: the same.
        expect(countText(text + text)).toBe(encode(text + text, AS_TEXT).length);
      }),
      { numRuns: 400 },
    );
  });

  it('stays within one token per cut of the tokenizer on runs longer than a chunk', () => {
    const run = fc
      .tuple(
        fc.constantFrom('a', 'ab', 'ありがとう', 'QmFzZTY0', '😀x', '0123456789', 'x=1;', 'AbCd'),
        fc.integer({ min: LONG_RUN_CHARS + 1, max: 3 * LONG_RUN_CHARS }),
      )
      .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n));
    fc.assert(
      fc.property(prose, run, prose, (before, long, after) => {
        const text = `${before} ${long} ${after}`;
        const cuts = 2 + Math.ceil(long.length / LONG_RUN_CHARS);
        expect(Math.abs(countText(text) - encode(text, AS_TEXT).length)).toBeLessThanOrEqual(cuts);
      }),
      { numRuns: 25 },
    );
  });

  it('never splits a surrogate pair and counts a 1 MB text without spaces', () => {
    // Pairs start at odd offsets, so a cut every LONG_RUN_CHARS code units would fall inside one
    // (each half then counts as a replacement character).
    const emoji = `x${'😀'.repeat(3 * LONG_RUN_CHARS)}`;
    expect(countText(emoji)).toBe(encode(emoji, AS_TEXT).length);
    const huge = 'a'.repeat(1024 * 1024);
    expect(countText(huge)).toBe(Math.ceil(huge.length / 8)); // o200k: "aaaaaaaa" is one token
  });
});
