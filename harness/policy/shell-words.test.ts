import { describe, expect, it } from 'vitest';
import {
  decodeAnsiC,
  normaliseProgram,
  quoteWord,
  unescapeDoubleQuoted,
  unescapeUnquoted,
} from './shell-words.ts';

describe('shell words', () => {
  it('removes escapes as bash does', () => {
    expect(unescapeUnquoted('\\r\\m')).toBe('rm');
    expect(unescapeUnquoted('a\\\nb')).toBe('ab');
    expect(unescapeDoubleQuoted('a\\"b\\$c\\d')).toBe('a"b$c\\d');
  });

  it('decodes ANSI-C strings', () => {
    expect(decodeAnsiC('\\x72m')).toBe('rm');
    expect(decodeAnsiC('\\162\\155')).toBe('rm');
    expect(decodeAnsiC("\\u0072m\\n\\t\\\\\\'")).toBe("rm\n\t\\'");
    expect(decodeAnsiC('\\cA')).toBe('\x01');
  });

  it('quotes only what needs quoting, so the display parses back to the same value', () => {
    expect(quoteWord('README.md')).toBe('README.md');
    expect(quoteWord('a b')).toBe("'a b'");
    expect(quoteWord("it's")).toBe("'it'\\''s'");
    expect(quoteWord('')).toBe("''");
  });

  it('reduces absolute paths of system folders to the base name and flags other folders', () => {
    expect(normaliseProgram('/usr/bin/rm')).toEqual({ name: 'rm' });
    expect(normaliseProgram('/bin/')).toEqual({ name: 'bin', nonstandardPath: '/bin/' });
    expect(normaliseProgram('/home/u/bin/rm')).toEqual({ name: 'rm', nonstandardPath: '/home/u/bin/rm' });
    expect(normaliseProgram('./rm')).toEqual({ name: './rm' });
    expect(normaliseProgram('rm')).toEqual({ name: 'rm' });
  });
});
