import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canWriteIn, outputProblems } from './output-paths.ts';
import { cli, put, scenario, STACK_LINE, tempDir } from './cli.test-helpers.ts';

describe('outputProblems', () => {
  it('accepts a new file or folder under a writable folder', () => {
    const dir = tempDir();
    expect(outputProblems({ flag: '--json', value: 'a/b/r.json', kind: 'file' }, dir)).toEqual([]);
    expect(outputProblems({ flag: '--out', value: 'a/b', kind: 'dir' }, dir)).toEqual([]);
    put(dir, { 'old.json': '{}', 'reports/results.json': '{}' });
    expect(outputProblems({ flag: '--json', value: 'old.json', kind: 'file' }, dir)).toEqual([]);
    expect(
      outputProblems({ flag: '--out', value: 'reports', kind: 'dir', children: ['results.json'] }, dir),
    ).toEqual([]);
  });

  it('names a folder where a file is needed, a file where a folder is needed, and a file above the path', () => {
    const dir = tempDir();
    put(dir, { 'file.txt': 'x', 'folder/keep': '' });
    expect(outputProblems({ flag: '--json', value: 'folder', kind: 'file' }, dir)[0]?.reason).toBe(
      '"folder" is a folder; --json takes a file name',
    );
    expect(outputProblems({ flag: '--out', value: 'file.txt', kind: 'dir' }, dir)[0]?.reason).toBe(
      '"file.txt" is a file; --out takes a folder',
    );
    expect(outputProblems({ flag: '--out', value: 'file.txt/sub/deeper', kind: 'dir' }, dir)[0]?.reason).toBe(
      '"file.txt" is a file, so nothing can be written under it',
    );
    mkdirSync(path.join(dir, 'out/results.json'), { recursive: true });
    expect(
      outputProblems({ flag: '--out', value: 'out', kind: 'dir', children: ['results.json'] }, dir)[0]
        ?.reason,
    ).toBe('"out/results.json" is a folder, so results.json cannot be written there');
  });

  it('names the nearest existing folder that cannot be written', () => {
    const dir = tempDir();
    const problems = outputProblems({ flag: '--out', value: 'x/y', kind: 'dir' }, dir, (d) => d !== dir);
    expect(problems).toEqual([
      {
        file: '--out x/y',
        path: '',
        reason: `cannot write in "${dir}" (permission denied or a read-only file system)`,
      },
    ]);
  });
});

/** A folder this process cannot write in: a read-only one when not root, else one the kernel refuses. */
function unwritableFolder(): string | undefined {
  if (process.getuid?.() !== 0) {
    const dir = tempDir();
    chmodSync(dir, 0o555);
    return dir;
  }
  return ['/proc/1', '/sys/kernel'].find((d) => existsSync(d) && !canWriteIn(d));
}

describe('canWriteIn', () => {
  it('creates nothing that stays, and refuses what the kernel refuses even to root (/proc, /sys)', () => {
    const dir = tempDir();
    expect(canWriteIn(dir)).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
    for (const special of ['/proc', '/sys'])
      if (existsSync(special)) expect(canWriteIn(special), special).toBe(false);
  });
});

describe('run checks every output path before any case runs (exit 2, nothing written, no stack trace)', () => {
  const cases: [string, (dir: string) => string[]][] = [
    ['--out names a file', () => ['--out', 'taken.txt']],
    ['--json names a folder', () => ['--json', 'folder']],
    ['--out is under a file', () => ['--out', 'taken.txt/reports']],
    ['--json is under a file', () => ['--json', 'taken.txt/r.json']],
    ['--trace-file names a folder', () => ['--trace-file', 'folder']],
    ['--out holds a folder named report.html', () => ['--out', 'o']],
  ];
  for (const [name, flags] of cases)
    it(name, async () => {
      const dir = tempDir();
      put(dir, { 's.json': scenario('a'), 'taken.txt': 'x', 'folder/keep': '', 'o/report.html/keep': '' });
      const before = readdirSync(dir).sort();
      const result = await cli(dir, ['run', '-s', 's.json', ...flags(dir)]);
      expect(result.code).toBe(2);
      expect(result.err).toMatch(/invalid input \(nothing was written\)/);
      expect(result.err).not.toMatch(/\[1\/1\]/); // no case ran
      expect(result.err).not.toMatch(STACK_LINE);
      expect(readdirSync(dir).sort()).toEqual(before);
      expect(readdirSync(path.join(dir, 'folder'))).toEqual(['keep']);
    });

  it('an unwritable place', async (context) => {
    const folder = unwritableFolder();
    if (!folder) context.skip();
    const dir = tempDir();
    put(dir, { 's.json': scenario('a') });
    const result = await cli(dir, ['run', '-s', 's.json', '--out', path.join(folder!, 'reports')]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/cannot write in/);
    expect(result.err).not.toMatch(STACK_LINE);
    expect(existsSync(path.join(folder!, 'reports'))).toBe(false);
  });

  it('merge, import, export and record check theirs too', async () => {
    const dir = tempDir();
    put(dir, { 'taken.txt': 'x', 'r.json': '{}' });
    const merge = await cli(dir, ['merge', 'r.json', '--out', 'taken.txt']);
    expect(merge.code).toBe(2);
    expect(merge.err).toMatch(/"taken\.txt" is a file; --out takes a folder/);
    const imported = await cli(dir, ['import', 'r.json', '--out', 'taken.txt']);
    expect(imported.code).toBe(2);
    expect(imported.err).toMatch(/"taken\.txt" is a file; --out takes a folder/);
    writeFileSync(path.join(dir, 'c.json'), '{}');
    mkdirSync(path.join(dir, 'folder'));
    const exported = await cli(dir, ['export', '--nock', 'c.json', '--out', 'folder']);
    expect(exported.code).toBe(2);
    expect(exported.err).toMatch(/"folder" is a folder; --out takes a file name/);
    const recorded = await cli(dir, [
      'record',
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--model',
      'm',
      '--task',
      't',
      '-o',
      'taken.txt/c.json',
    ]);
    expect(recorded.code).toBe(2);
    expect(recorded.err).toMatch(
      /--out taken\.txt\/c\.json: "taken\.txt" is a file, so nothing can be written under it/,
    );
  });
});
