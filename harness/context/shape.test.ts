import { describe, expect, it } from 'vitest';
import { capOutput } from './shape.ts';

describe('capOutput', () => {
  it('leaves text within the cap alone', () => {
    expect(capOutput('abc', 3)).toEqual({ text: 'abc', cut: 0 });
    expect(capOutput('', 1)).toEqual({ text: '', cut: 0 });
  });

  it('keeps 70% head and 30% tail with a marker saying how much was cut', () => {
    const text = Array.from({ length: 1000 }, (_, i) => String(i % 10)).join('');
    const { text: capped, cut } = capOutput(text, 100);
    expect(cut).toBe(900);
    expect(capped.startsWith(text.slice(0, 70))).toBe(true);
    expect(capped.endsWith(text.slice(-30))).toBe(true);
    expect(capped).toContain(
      '[… 900 characters elided of 1000; narrow the request (offset/limit, a pattern) to see them …]',
    );
    const marker =
      '\n[… 900 characters elided of 1000; narrow the request (offset/limit, a pattern) to see them …]\n';
    expect(capped.length).toBe(100 + marker.length);
    expect(capped.replace(/\n\[…[^\]]*\]\n/, '')).toBe(text.slice(0, 70) + text.slice(-30));
  });

  it('keeps the FAIL line at the end of a long test log', () => {
    const log = `${'ok\n'.repeat(5000)}FAIL src/a.test.ts > adds`;
    const { text } = capOutput(log, 200);
    expect(text).toContain('FAIL src/a.test.ts > adds');
    expect(text.length).toBeLessThan(400);
  });
});
