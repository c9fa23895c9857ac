/**
 * `run --shard i/n` and `merge` through the CLI: the shards' files merge into the unsharded
 * results and reports; bad shards and bad inputs are exit 2 with the file and the reason, and
 * nothing is written.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../eval/config-load.ts';
import { main } from './main.ts';

const run = async (...args: string[]) => {
  let out = '';
  let err = '';
  const code = await main(['node', 'harness-bench', ...args], {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    cwd: PACKAGE_ROOT,
    env: { NO_COLOR: '1' },
    isTTY: false,
  });
  return { code, out, err };
};

const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const blank = (text: string) =>
  text.replace(/"startedAt": "[^"]*"/g, '"startedAt": ""').replace(/"(\w*Ms)": \d+/g, '"$1": 0');
const junitBlank = (text: string) => text.replace(/time="[\d.]+"/g, 'time=""');

describe('run --shard and merge', () => {
  it('two shards merged write the results, report.md and junit.xml of the unsharded run', async () => {
    const dir = tempDir('hb-merge-');
    const suite = ['-s', 'scenarios/bad-json', '-s', 'scenarios/hallucinated-tool', '-r', 'recordings/real'];
    const whole = await run('run', ...suite, '--out', path.join(dir, 'whole'));
    expect(whole.code).toBe(0);
    for (const i of [1, 2]) {
      const shard = await run('run', ...suite, '--shard', `${i}/2`, '--out', path.join(dir, `s${i}`));
      expect(shard.code).toBe(0);
      expect(shard.err).toMatch(new RegExp(`shard ${i}/2: \\d+ of \\d+ cases`));
    }
    const merged = await run(
      'merge',
      path.join(dir, 's2', 'results.json'),
      path.join(dir, 's1', 'results.json'),
      '--out',
      path.join(dir, 'merged'),
    );
    expect(merged.err).toBe('');
    expect(merged.code).toBe(0);
    expect(merged.out).toMatch(/merged 2 shards: \d+ cases/);
    const read = (folder: string, file: string) => readFileSync(path.join(dir, folder, file), 'utf8');
    expect(blank(read('merged', 'results.json'))).toBe(blank(read('whole', 'results.json')));
    // The shards' case sidecars join the merged folder: every link of the merged results resolves.
    const links = (JSON.parse(read('merged', 'results.json')) as { cases: { transcript?: string }[] }).cases;
    expect(
      links.every((c) => c.transcript && read('merged', c.transcript) === read('whole', c.transcript)),
    ).toBe(true);
    expect(read('merged', 'report.md')).toBe(read('whole', 'report.md'));
    expect(junitBlank(read('merged', 'junit.xml'))).toBe(junitBlank(read('whole', 'junit.xml')));
  });

  it('a bad --shard is exit 2 before anything runs', async () => {
    const result = await run(
      'run',
      '-s',
      'scenarios/bad-json',
      '--shard',
      '3/2',
      '--json',
      '/nonexistent/x.json',
    );
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/--shard 3\/2: the shard index i must be between 1 and 2/);
  });

  it('merge of files that are not shards, unreadable or not results is exit 2 and writes nothing', async () => {
    const dir = tempDir('hb-merge-bad-');
    writeFileSync(path.join(dir, 'not-json.json'), '{ "format": ');
    writeFileSync(path.join(dir, 'other.json'), '{ "format": "harness-bench.cassette" }');
    const result = await run(
      'merge',
      path.join(dir, 'not-json.json'),
      path.join(dir, 'other.json'),
      path.join(dir, 'missing.json'),
      '--out',
      path.join(dir, 'out'),
    );
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/not-json\.json: JSON syntax error/);
    expect(result.err).toMatch(/other\.json: \/format: not a harness-bench results file/);
    expect(result.err).toMatch(/missing\.json: cannot read the results file: ENOENT/);
    expect(existsSync(path.join(dir, 'out'))).toBe(false);
    const noOut = await run('merge', path.join(dir, 'other.json'));
    expect(noOut.code).toBe(2);
    expect(noOut.err).toMatch(/say where to write: --out DIR and\/or --json FILE/);
  });
});

describe('merge --help', () => {
  it('names every report merge writes, report.html included', async () => {
    let out = '';
    const code = await main(['node', 'harness-bench', 'merge', '--help'], {
      stdout: (t) => (out += t),
      stderr: (t) => (out += t),
      cwd: PACKAGE_ROOT,
      env: { NO_COLOR: '1' },
      isTTY: false,
    });
    expect(code).toBe(0);
    expect(out.replace(/\s+/g, ' ')).toContain('re-render report.md, junit.xml and report.html');
    expect(out.replace(/\s+/g, ' ')).toContain('write results.json, report.md, junit.xml, report.html');
  });
});
