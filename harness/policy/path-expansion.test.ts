import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandBraces, expandGlob, hasGlob } from './path-expansion.ts';

describe('expandBraces (bash §3.5.1)', () => {
  it.each([
    ['{outlink,docs}/secret', ['outlink/secret', 'docs/secret']],
    ['a{b,c{d,e}}f', ['abf', 'acdf', 'acef']],
    ['{a,b}{1,2}', ['a1', 'a2', 'b1', 'b2']],
    ['x{1..3}', ['x1', 'x2', 'x3']],
    ['{3..1}', ['3', '2', '1']],
    ['{01..03}', ['01', '02', '03']],
    ['{a..e..2}', ['a', 'c', 'e']],
    ['{}', ['{}']],
    ['{x}', ['{x}']],
    ['{a..3}', ['{a..3}']],
    ['{a,b', ['{a,b']],
    ['${x,y}', ['${x,y}']],
    ['{a}{b,c}', ['{a}b', '{a}c']],
  ])('%s → %j', (word, expected) => {
    expect(expandBraces(word)).toEqual(expected);
  });

  it('gives up beyond the limit', () => {
    expect(expandBraces('{1..5000}')).toBeUndefined();
    expect(expandBraces('{a,b}{a,b}{a,b}', 4)).toBeUndefined();
    expect(expandBraces('{1..4}', 4)).toHaveLength(4);
  });

  it('hasGlob', () => {
    expect(['*', 'a?', 'x[ab]'].map(hasGlob)).toEqual([true, true, true]);
    expect(hasGlob('{a,b}')).toBe(false);
  });
});

describe('expandGlob (real folders, links listed as entries)', () => {
  let root: string;
  let ws: string;
  beforeAll(() => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-glob-')));
    ws = path.join(root, 'ws');
    mkdirSync(path.join(ws, 'docs', 'deep'), { recursive: true });
    mkdirSync(path.join(root, 'outside'));
    writeFileSync(path.join(root, 'outside', 'secret'), 's');
    writeFileSync(path.join(ws, 'docs', 'secret'), 'd');
    writeFileSync(path.join(ws, '.hidden'), 'h');
    symlinkSync(path.join(root, 'outside'), path.join(ws, 'outlink'));
    symlinkSync('/nonexistent/target', path.join(ws, 'dangling'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('matches through links to folders, lists links (dangling ones too) and dot files', async () => {
    expect(await expandGlob('out*/secret', ws)).toEqual([`${ws}/outlink/secret`]);
    expect((await expandGlob('*/secret', ws))!.sort()).toEqual([`${ws}/docs/secret`, `${ws}/outlink/secret`]);
    expect((await expandGlob('*', ws))!.sort()).toEqual(
      ['.hidden', 'dangling', 'docs', 'outlink'].map((n) => `${ws}/${n}`),
    );
    expect(await expandGlob('dang?ing', ws)).toEqual([`${ws}/dangling`]);
    expect(await expandGlob('out[l]ink', ws)).toEqual([`${ws}/outlink`]);
  });

  it('absolute patterns, ** as * (globstar off), no match, and the limit', async () => {
    expect(await expandGlob(`${root}/outs*/secret`, ws)).toEqual([`${root}/outside/secret`]);
    expect((await expandGlob('**/secret', ws))!.sort()).toEqual([
      `${ws}/docs/secret`,
      `${ws}/outlink/secret`,
    ]);
    expect(await expandGlob('*/nothing', ws)).toEqual([]);
    expect(await expandGlob('**/deep', ws)).toEqual([`${ws}/docs/deep`]);
    expect(await expandGlob('nothing*', ws)).toEqual([]);
    expect(await expandGlob('*', ws, 2)).toBeUndefined();
  });
});
