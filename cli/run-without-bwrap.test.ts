/**
 * The main job on a machine without bubblewrap: the bundled suite runs with a `PATH` that holds
 * every program of this one except `bwrap` (links in a temp folder). The sandbox scenarios are
 * skipped with the install command, the run exits 0 and nothing counts them as passed; with
 * `CI=true` (CI promises the sandbox) the same cases are errors and the run exits 1.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../eval/config-load.ts';
import type { ResultsFile } from '../eval/results.ts';
import { loadScenarioFiles } from '../eval/suite.ts';

const root = mkdtempSync(path.join(tmpdir(), 'hb-no-bwrap-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A folder of links to every program on this `PATH` except `bwrap` (the first of each name wins). */
function pathWithoutBwrap(): string {
  const bin = path.join(root, 'bin');
  mkdirSync(bin);
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names)
      if (name !== 'bwrap' && !existsSync(path.join(bin, name)))
        try {
          symlinkSync(path.join(dir, name), path.join(bin, name));
        } catch {
          /* a name that cannot be linked is left out */
        }
  }
  return bin;
}

function run(args: string[], env: Record<string, string>) {
  const { CI: _ci, ...rest } = process.env;
  const result = spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin/harness-bench.js'), ...args], {
    cwd: PACKAGE_ROOT,
    env: { ...rest, NO_COLOR: '1', COLUMNS: '160', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/** The ids of the bundled scenarios that declare bubblewrap (or a sandbox), sorted; those whose id passes `keep`. */
async function needingBwrap(keep: (id: string) => boolean = () => true): Promise<string[]> {
  const scenarios = await loadScenarioFiles(['scenarios'], PACKAGE_ROOT);
  return scenarios
    .filter(({ scenario }) => (scenario.requires ?? []).some((r) => r === 'bwrap' || r === 'sandbox'))
    .map(({ scenario }) => scenario.id)
    .filter(keep)
    .sort();
}

describe.runIf(process.platform === 'linux')('npm start without bubblewrap', () => {
  const PATH = pathWithoutBwrap();
  const hint = 'apt-get install -y bubblewrap';

  it('skips the sandbox scenarios with the install command and exits 0', async () => {
    const expected = await needingBwrap();
    expect(expected).toContain('escape/bash-links-sandbox');
    const n = expected.length;
    const out = path.join(root, 'report');
    const result = run(['run', '-o', out], { PATH });
    expect(result.code, `${result.out}\n${result.err}`).toBe(0);
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as ResultsFile;
    const skipped = results.cases.filter((c) => c.status === 'skipped');
    expect(skipped.map((c) => c.id).sort()).toEqual(expected);
    for (const c of skipped) {
      expect(c.skip).toMatchObject({ requires: ['bwrap'], declared: true });
      expect(c.skip!.reason).toContain('bubblewrap is not installed');
      expect(c.skip!.fix).toContain(hint);
    }
    expect(results.summary.skipped).toBe(n);
    expect(results.summary.passed).toBe(results.summary.total - n);
    expect(result.out).toContain(`fix: install bubblewrap (Debian/Ubuntu: ${hint}`);
    expect(result.out).toMatch(
      new RegExp(`PASSED, ${n} SKIPPED: \\d+ passed, 0 failed, 0 errored, ${n} skipped of \\d+`),
    );
    expect(readFileSync(path.join(out, 'junit.xml'), 'utf8')).toContain(
      `<skipped message="bubblewrap is not installed`,
    );
    expect(readFileSync(path.join(out, 'report.md'), 'utf8')).toContain(
      '## Skipped: prerequisites missing on this machine',
    );
  }, 180_000);

  it('with CI=true the same cases are errors and the run exits 1 (CI promises the sandbox)', async () => {
    const expected = await needingBwrap((id) => id.includes('sandbox'));
    const json = path.join(root, 'ci.json');
    const result = run(['run', '--filter', 'sandbox', '--json', json], { PATH, CI: 'true' });
    expect(result.code, result.out).toBe(1);
    expect(result.out).toMatch(new RegExp(`0 FAILED, ${expected.length} ERRORED`));
    const results = JSON.parse(readFileSync(json, 'utf8')) as ResultsFile;
    const errored = results.cases.filter((c) => c.status === 'error');
    expect(errored.map((c) => c.id).sort()).toEqual(expected);
    expect(results.cases.filter((c) => c.status !== 'error' && c.status !== 'pass')).toEqual([]);
    for (const c of errored)
      expect(c.error?.message).toMatch(
        /^CI promises the sandbox, but bubblewrap is not installed .*; fix: install bubblewrap/,
      );
  }, 120_000);
});
