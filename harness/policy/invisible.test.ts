import { describe, expect, it } from 'vitest';
import { escapeInvisible } from './invisible.ts';

describe('escapeInvisible', () => {
  it('escapes control characters but keeps newline and tab', () => {
    expect(escapeInvisible('a\u0000b\u001bc\rd\u007fe\u0085')).toBe('a\\u{0}b\\u{1b}c\\u{d}d\\u{7f}e\\u{85}');
    expect(escapeInvisible('line1\n\tline2')).toBe('line1\n\tline2');
  });

  it('escapes zero-width, bidi and BOM characters that could hide text from the approver', () => {
    expect(escapeInvisible('rm\u200b -rf')).toBe('rm\\u{200b} -rf');
    expect(escapeInvisible('a\u202eb\u2066c\u2069d')).toBe('a\\u{202e}b\\u{2066}c\\u{2069}d');
    expect(escapeInvisible('\ufeffx\u2060')).toBe('\\u{feff}x\\u{2060}');
    expect(escapeInvisible('\u2028')).toBe('\\u{2028}');
    expect(escapeInvisible('x\u061cy')).toBe('x\\u{61c}y');
  });

  it('leaves ordinary text, accents and emoji alone', () => {
    const text = 'git commit -m "café ✓ 😀"';
    expect(escapeInvisible(text)).toBe(text);
  });
});
