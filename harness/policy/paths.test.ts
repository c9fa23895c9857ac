import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePath } from './paths.ts';

let root: string;
let ws: string;
let out: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-paths-')));
  ws = path.join(root, 'ws');
  out = path.join(root, 'outside');
  mkdirSync(path.join(ws, 'docs', 'deep'), { recursive: true });
  mkdirSync(path.join(ws, 'output'));
  mkdirSync(out);
  writeFileSync(path.join(out, 'victim.txt'), 'original');
  writeFileSync(path.join(ws, 'docs', 'a.md'), 'a');
  symlinkSync(out, path.join(ws, 'outbox'));
  symlinkSync(path.join(out, 'victim.txt'), path.join(ws, 'notes.md'));
  symlinkSync(path.join(out, 'not-yet.txt'), path.join(ws, 'draft.txt'));
  symlinkSync(path.join(ws, 'docs'), path.join(ws, 'docs-link'));
  symlinkSync('deep', path.join(ws, 'docs', 'deep-link'));
  symlinkSync('../docs-link/deep-link', path.join(ws, 'output', 'chain'));
  symlinkSync('../../outside', path.join(ws, 'docs', 'up-and-out'));
  symlinkSync('loop-b', path.join(ws, 'loop-a'));
  symlinkSync('loop-a', path.join(ws, 'loop-b'));
  symlinkSync('nope/../outbox', path.join(ws, 'sneaky'));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('resolvePath', () => {
  it('applies `..` after the link it follows, as the kernel does (`outbox/../x` is beside the link target, outside)', async () => {
    const resolved = await resolvePath(ws, 'outbox/../escaped.txt');
    expect(resolved).toMatchObject({ inside: false, absolute: path.join(root, 'escaped.txt') });
    expect(await resolvePath(ws, 'docs/../docs/a.md')).toMatchObject({ inside: true, relative: 'docs/a.md' });
  });

  it('resolves a plain relative path inside, POSIX-style relative', async () => {
    expect(await resolvePath(ws, 'docs/a.md')).toEqual({
      requested: 'docs/a.md',
      absolute: path.join(ws, 'docs', 'a.md'),
      inside: true,
      relative: 'docs/a.md',
      links: 1,
    });
    expect(await resolvePath(ws, '.')).toMatchObject({ absolute: ws, inside: true, relative: '.' });
    expect(await resolvePath(ws, 'new/dir/file.txt')).toMatchObject({
      absolute: path.join(ws, 'new', 'dir', 'file.txt'),
      inside: true,
      relative: 'new/dir/file.txt',
    });
  });

  it('a symlinked directory pointing outside is outside', async () => {
    const r = await resolvePath(ws, 'outbox/escaped.txt');
    expect(r).toMatchObject({ inside: false, absolute: path.join(out, 'escaped.txt') });
    expect(r.relative).toBe(r.absolute);
  });

  it('a link as the last component is followed', async () => {
    expect(await resolvePath(ws, 'notes.md')).toMatchObject({
      inside: false,
      absolute: path.join(out, 'victim.txt'),
    });
  });

  it('a dangling link to outside resolves to the file it would create', async () => {
    expect(await resolvePath(ws, 'draft.txt')).toMatchObject({
      inside: false,
      absolute: path.join(out, 'not-yet.txt'),
    });
  });

  it('.. that climbs out is outside, whether or not the first part exists', async () => {
    expect(await resolvePath(ws, 'a/../../x')).toMatchObject({
      inside: false,
      absolute: path.join(root, 'x'),
    });
    expect(await resolvePath(ws, 'docs/../../outside/victim.txt')).toMatchObject({
      inside: false,
      absolute: path.join(out, 'victim.txt'),
    });
    expect(await resolvePath(ws, '..')).toMatchObject({ inside: false });
  });

  it('.. that stays inside is inside', async () => {
    expect(await resolvePath(ws, 'output/../escape.txt')).toMatchObject({
      inside: true,
      relative: 'escape.txt',
    });
    expect(await resolvePath(ws, 'output/./ok.txt')).toMatchObject({
      inside: true,
      relative: 'output/ok.txt',
    });
  });

  it('absolute paths are taken as they are', async () => {
    expect(await resolvePath(ws, path.join(out, 'victim.txt'))).toMatchObject({
      inside: false,
      absolute: path.join(out, 'victim.txt'),
    });
    expect(await resolvePath(ws, path.join(ws, 'docs', 'a.md'))).toMatchObject({
      inside: true,
      relative: 'docs/a.md',
    });
    expect(await resolvePath(ws, '/etc/passwd')).toMatchObject({ inside: false, absolute: '/etc/passwd' });
  });

  it('links to places inside (nested, relative, chained) stay inside at their real location', async () => {
    expect(await resolvePath(ws, 'docs-link/ok.md')).toMatchObject({ inside: true, relative: 'docs/ok.md' });
    expect(await resolvePath(ws, 'docs-link/deep-link/x.txt')).toMatchObject({
      inside: true,
      relative: 'docs/deep/x.txt',
    });
    expect(await resolvePath(ws, 'output/chain/y.txt')).toMatchObject({
      inside: true,
      relative: 'docs/deep/y.txt',
    });
  });

  it('a relative link that climbs out is outside', async () => {
    expect(await resolvePath(ws, 'docs/up-and-out/victim.txt')).toMatchObject({
      inside: false,
      absolute: path.join(out, 'victim.txt'),
    });
  });

  it('a link loop is reported outside (denied), without hanging', async () => {
    const r = await resolvePath(ws, 'loop-a/file');
    expect(r.inside).toBe(false);
  });

  it('a missing component followed by .. does not skip the links after it', async () => {
    // On disk, /ws/nope/../outbox/x.txt is /ws/outbox/x.txt, and outbox is a link to outside.
    expect(await resolvePath(ws, `${ws}/nope/../outbox/x.txt`)).toMatchObject({
      inside: false,
      absolute: path.join(out, 'x.txt'),
    });
    expect(await resolvePath(ws, 'sneaky/x.txt')).toMatchObject({
      inside: false,
      absolute: path.join(out, 'x.txt'),
    });
  });

  it('a file name starting with .. is inside', async () => {
    expect(await resolvePath(ws, '..hidden')).toMatchObject({ inside: true, relative: '..hidden' });
  });

  it('a path through a regular file is treated as not existing yet, inside', async () => {
    expect(await resolvePath(ws, 'docs/a.md/x')).toMatchObject({ inside: true, relative: 'docs/a.md/x' });
  });
});
