import { describe, expect, it } from 'vitest';
import { flagVariants, splitNormalised } from './flag-variants.ts';

describe('splitNormalised', () => {
  it('splits on spaces and keeps single-quoted stretches whole', () => {
    expect(splitNormalised("git commit -m 'a b' x")).toEqual(['git', 'commit', '-m', "'a b'", 'x']);
    expect(splitNormalised("echo 'it'\\''s'")).toEqual(['echo', "'it'\\''s'"]);
    expect(splitNormalised('')).toEqual([]);
  });
});

describe('flagVariants', () => {
  it('rewrites a cluster as single options and moves each letter to the front', () => {
    expect(flagVariants('rm -fr dist').sort()).toEqual(
      ['rm -f -r dist', 'rm -r -f dist', 'rm -rf dist'].sort(),
    );
  });

  it('joins separate short options into one cluster', () => {
    expect(flagVariants('rm -r -f dist')).toContain('rm -rf dist');
    expect(flagVariants('rm -r -f dist')).toContain('rm -fr dist');
  });

  it('adds the lower-case program name, with its own flag spellings', () => {
    expect(flagVariants('RM -fr x')).toEqual(expect.arrayContaining(['rm -fr x', 'rm -rf x']));
  });

  it('leaves long options, quoted words and operands alone, and never returns the command itself', () => {
    expect(flagVariants('rm --recursive dist')).toEqual([]);
    expect(flagVariants("echo '-fr'")).toEqual([]);
    expect(flagVariants('ls')).toEqual([]);
  });

  it('is bounded', () => {
    expect(
      flagVariants(
        `x ${Array.from({ length: 30 }, (_, i) => `-${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(65 + (i % 26))}`).join(' ')} y`,
      ).length,
    ).toBeLessThanOrEqual(64);
  });
});
