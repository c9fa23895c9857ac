import { lstat, readFile, readlink, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildWorkspace, contentLength, diffSnapshots, expandContent } from './workspace.ts';

describe('expandContent', () => {
  it('expands repeat and lines (1-based {i}, every line ending in a newline)', () => {
    expect(expandContent('plain')).toBe('plain');
    expect(expandContent({ $gen: 'repeat', text: 'ab', count: 3 })).toBe('ababab');
    expect(expandContent({ $gen: 'lines', count: 3, pattern: 'line {i} of {i}' })).toBe(
      'line 1 of 1\nline 2 of 2\nline 3 of 3\n',
    );
    expect(expandContent({ $gen: 'lines', count: 0, pattern: 'x' })).toBe('');
  });

  it('contentLength bounds the expanded length from above', () => {
    for (const content of [
      { $gen: 'repeat' as const, text: 'xyz', count: 10 },
      { $gen: 'lines' as const, count: 120, pattern: 'n={i}' },
    ])
      expect(contentLength(content)).toBeGreaterThanOrEqual(expandContent(content).length);
  });
});

describe('buildWorkspace', () => {
  it('creates files, dirs, symlinks with $WS/$OUTSIDE and outside files; snapshots and cleans up', async () => {
    const built = await buildWorkspace({
      workspace: {
        files: { 'src/index.ts': 'export {};\n', 'big.log': { $gen: 'lines', count: 2, pattern: 'l{i}' } },
        dirs: ['docs/empty'],
        symlinks: { outbox: '$OUTSIDE', 'self/link': '$WS/src', rel: 'src/index.ts' },
        outside: { 'victim.txt': 'original' },
      },
    });
    try {
      expect(built.workspace).toBe(await realpath(built.workspace));
      expect(built.outside).not.toContain(built.workspace);
      expect(await readFile(join(built.workspace, 'src/index.ts'), 'utf8')).toBe('export {};\n');
      expect(await readFile(join(built.workspace, 'big.log'), 'utf8')).toBe('l1\nl2\n');
      expect((await lstat(join(built.workspace, 'docs/empty'))).isDirectory()).toBe(true);
      expect(await readlink(join(built.workspace, 'outbox'))).toBe(built.outside);
      expect(await readlink(join(built.workspace, 'self/link'))).toBe(join(built.workspace, 'src'));
      expect(await readlink(join(built.workspace, 'rel'))).toBe('src/index.ts');
      const before = await built.snapshotOutside();
      expect([...before]).toEqual([['victim.txt', 'file:original']]);
      await writeFile(join(built.workspace, 'outbox/new.txt'), 'x');
      await writeFile(join(built.outside, 'victim.txt'), 'changed');
      expect(diffSnapshots(before, await built.snapshotOutside())).toEqual([
        'added new.txt',
        'modified victim.txt',
      ]);
      expect(diffSnapshots(before, new Map())).toEqual(['removed victim.txt']);
    } finally {
      await built.cleanup();
    }
    await expect(lstat(built.workspace)).rejects.toThrow();
    await expect(lstat(built.outside)).rejects.toThrow();
  });
});
