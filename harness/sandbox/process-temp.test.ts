import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { processTempDir, sweepStale } from './process-temp.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'hb-proc-temp-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('per-process temporary folders', () => {
  it('sweeps the folders of processes that are gone, keeps live ones and other names', () => {
    // A pid that exited: a finished child's.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    }).stdout;
    for (const name of [`hb-x-${gone}-aaa`, `hb-x-${process.pid}-bbb`, 'hb-x-notapid', 'other-1-c'])
      mkdirSync(path.join(dir, name));
    expect(sweepStale('hb-x-', dir)).toBe(1);
    expect(readdirSync(dir).sort()).toEqual([`hb-x-${process.pid}-bbb`, 'hb-x-notapid', 'other-1-c'].sort());
  });

  it('a process that made one leaves nothing behind when it exits, normally or by an exception', () => {
    const module = path.resolve(import.meta.dirname, 'process-temp.ts');
    for (const ending of ['', "throw new Error('crash')"]) {
      const code = `import { processTempDir } from ${JSON.stringify(module)}; const d = processTempDir('hb-proc-temp-probe-'); console.log(d); ${ending}`;
      const done = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
        encoding: 'utf8',
      });
      const made = done.stdout.trim();
      expect(made).toContain('hb-proc-temp-probe-');
      expect(existsSync(made)).toBe(false);
    }
  });

  it('names a folder after this process and keeps it while the process lives', () => {
    const made = processTempDir('hb-proc-temp-live-');
    expect(path.basename(made)).toMatch(new RegExp(`^hb-proc-temp-live-${process.pid}-`));
    expect(existsSync(made)).toBe(true);
  });
});
