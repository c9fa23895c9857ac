/**
 * `numberedLines` (read_file's view of a file, found with indexOf) equals the split-based view
 * it replaced: `text.split('\n')`, a final empty line dropped, the lines numbered and cut.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberedLines, READ_MAX_LINE_CHARS } from './files.ts';

function bySplit(text: string, first: number, limit: number) {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const slice = lines.slice(first, first + limit);
  const width = String(first + slice.length).length;
  const body = slice
    .map((line, i) => {
      const shown =
        line.length > READ_MAX_LINE_CHARS
          ? `${line.slice(0, READ_MAX_LINE_CHARS)}… [line cut: ${line.length} chars]`
          : line;
      return `${String(first + i + 1).padStart(width, ' ')}\t${shown}`;
    })
    .join('\n');
  return { totalLines: lines.length, shownLines: slice.length, body };
}

const line = fc.oneof(
  fc.constantFrom('', 'x', 'a b', '\r', 'é😀'),
  fc.string({ maxLength: 12 }),
  fc.nat({ max: 3 }).map((extra) => 'y'.repeat(READ_MAX_LINE_CHARS - 1 + extra)),
);
const text = fc
  .array(line, { maxLength: 30 })
  .chain((lines) => fc.constantFrom('', '\n', '\n\n').map((end) => lines.join('\n') + end));

describe('read_file lines', () => {
  it('shows the same lines, numbers and counts as splitting the text', () => {
    fc.assert(
      fc.property(text, fc.nat({ max: 35 }), fc.integer({ min: 1, max: 40 }), (t, first, limit) => {
        expect(numberedLines(t, first, limit)).toEqual(bySplit(t, first, limit));
      }),
      { numRuns: 3000 },
    );
  });
});
