/**
 * `run` with several configurations and with `--baseline`: the matrix, the comparisons block in
 * results.json, and the gate catching a deliberately worse configuration (loop detection off,
 * `configs/naive.json`, run under the baseline's name) with a message naming the case, the
 * configuration and the check.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../eval/config-load.ts';
import { RESULTS_SCHEMA } from '../eval/results-schema.ts';
import type { ResultsFile } from '../eval/results.ts';
import { main } from './main.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function run(...args: string[]) {
  let out = '';
  let err = '';
  const io = {
    stdout: (t: string) => (out += t),
    stderr: (t: string) => (err += t),
    cwd: PACKAGE_ROOT,
    env: { NO_COLOR: '1' },
    isTTY: false,
  };
  const code = await main(['node', 'harness-bench', 'run', '-s', 'scenarios/loop', ...args], io);
  return { code, out, err };
}

const temp = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hb-compare-'));
  dirs.push(dir);
  return dir;
};

describe('run -c A -c B', () => {
  it('prints one matrix with the transitions and writes the comparisons block', async () => {
    const json = path.join(temp(), 'r.json');
    const r = await run('-c', 'configs/default.json', '-c', 'configs/naive.json', '--json', json);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toMatch(/│ case\s+│ default \(ref\)\s+│ naive\s+│/);
    expect(r.out).toMatch(/loop\/same-call-until-a-budget\s+│\s+pass loop\s+│ ~ pass turns/);
    expect(r.out).toMatch(
      /default → naive: \d+ paired; 0 regressions, 0 fixes, [1-9]\d* behaviour changes; McNemar exact p = 1/,
    );
    expect(r.out).toContain('no model noise');
    const results = JSON.parse(readFileSync(json, 'utf8')) as ResultsFile;
    const pair = results.comparisons!.pairs[0]!;
    expect(pair.transitions.find((t) => t.id === 'loop/same-call-until-a-budget')).toMatchObject({
      kind: 'behaviour',
      changes: expect.arrayContaining([
        { field: 'stopReason', reference: 'repeated_tool_call', candidate: 'max_turns' },
      ]),
    });
  });

  it('--repeat K on frozen models: pass^k equals pass^1 and nothing flips; the file validates', async () => {
    const json = path.join(temp(), 'r.json');
    const r = await run(
      '-f',
      'identical',
      '-c',
      'configs/default.json',
      '-c',
      'configs/naive.json',
      '--repeat',
      '3',
      '--json',
      json,
    );
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toMatch(/default\s+pass\^1 100\.0% · pass\^3 100\.0% · 0 cases flipped/);
    expect(r.out).toContain('zero flips: the models are frozen and the harness is deterministic');
    const results = JSON.parse(readFileSync(json, 'utf8')) as ResultsFile;
    expect(results.repeats).toMatchObject({
      k: 3,
      byConfig: { default: { flipped: [] }, naive: { flipped: [] } },
    });
    const validate = new Ajv({ strict: false }).compile(RESULTS_SCHEMA);
    expect(validate(results), JSON.stringify(validate.errors)).toBe(true);
  });

  it('refuses an unknown --reference before running anything', async () => {
    const r = await run('-c', 'configs/default.json', '-c', 'configs/naive.json', '--reference', 'nope');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--reference nope: no configuration of this run has that name \(default, naive\)/);
  });
});

describe('run --baseline', () => {
  it('catches a worse configuration: the case, the configuration and the failed check; exit 1', async () => {
    const dir = temp();
    const base = path.join(dir, 'base.json');
    expect((await run('--json', base)).code).toBe(0);
    const same = await run('--baseline', base);
    expect(same.code, same.out).toBe(0);
    expect(same.out).toContain('baseline gate passed: nothing regressed');

    const worse = await run(
      '-c',
      'default=configs/naive.json',
      '--baseline',
      base,
      '--tolerance',
      'turnsPerCase=1%',
    );
    expect(worse.code).toBe(1);
    expect(worse.out).toMatch(
      /REGRESSION loop\/same-call-until-a-budget × default: passed in the baseline, now fail: stopReason: expected repeated_tool_call, observed max_turns/,
    );
    expect(worse.out).toMatch(
      /REGRESSION passRate × default: baseline 1, now 0\.\d+ \(tolerance 0, higher is better\)/,
    );
    expect(worse.out).toMatch(
      /REGRESSION turnsPerCase × default: baseline [\d.]+, now [\d.]+ \(tolerance 1%, lower is better\)/,
    );
    expect(worse.out).toContain('BASELINE GATE FAILED');
  });

  it('refuses a baseline of another version, and bad tolerances, with exit 2', async () => {
    const dir = temp();
    const base = path.join(dir, 'base.json');
    await run('--json', base);
    const old = JSON.parse(readFileSync(base, 'utf8')) as ResultsFile;
    old.tool.version = '0.0.1';
    writeFileSync(base, JSON.stringify(old));
    const r = await run('--baseline', base);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/\/tool\/version: cannot serve as a baseline: written by harness-bench 0\.0\.1/);
    const bad = await run('--baseline', base, '--tolerance', 'tokensPerCase=lots');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--tolerance tokensPerCase=lots: a tolerance is a number/);
    const missing = await run('--baseline', path.join(dir, 'none.json'));
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/cannot read the baseline: ENOENT/);
  });

  it('refuses a damaged baseline before any case runs, with each schema problem named', async () => {
    const dir = temp();
    const base = path.join(dir, 'base.json');
    await run('--json', base);
    const damaged = JSON.parse(readFileSync(base, 'utf8')) as Record<string, unknown>;
    (damaged.cases as Record<string, unknown>[])[0]!.usage = null;
    delete damaged.summary;
    writeFileSync(base, JSON.stringify(damaged));
    const r = await run('--baseline', base);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${base}: /cases/0/usage: must be object`);
    expect(r.err).toContain("must have required property 'summary'");
    // Refused up front: no case ran (a run prints [i/n] per case).
    expect(r.err).not.toMatch(/\[1\/\d+\]/);
  });

  it('leaves no out folder behind when the gate refuses after the run (nothing written half-way)', async () => {
    const dir = temp();
    const base = path.join(dir, 'base.json');
    await run('--json', base);
    const out = path.join(dir, 'out');
    const r = await run('--baseline', base, '--tolerance', 'nosuch=5', '--out', out);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/no metric is named "nosuch"/);
    expect(existsSync(out)).toBe(false);
    // An out folder that existed keeps what it held and gets no staging folder.
    const kept = path.join(dir, 'kept');
    await run('--out', kept);
    const before = readFileSync(path.join(kept, 'results.json'), 'utf8');
    expect((await run('--baseline', base, '--tolerance', 'nosuch=5', '--out', kept)).code).toBe(2);
    expect(readFileSync(path.join(kept, 'results.json'), 'utf8')).toBe(before);
    expect(readdirSync(kept).filter((f) => f.startsWith('.cases-'))).toEqual([]);
  });
});

describe('run --harness A --harness B', () => {
  it('benches harnesses side by side: one column each, the pair statistics, each column naming its harness', async () => {
    const json = path.join(temp(), 'r.json');
    let out = '';
    const io = {
      stdout: (t: string) => (out += t),
      stderr: () => undefined,
      cwd: PACKAGE_ROOT,
      env: { NO_COLOR: '1' },
      isTTY: false,
    };
    const args = [
      'run',
      '-s',
      'scenarios/transcript',
      '--harness',
      'ours',
      '--harness',
      'minimal-loop',
      '--json',
      json,
    ];
    const code = await main(['node', 'harness-bench', ...args], io);
    expect(code).toBe(1); // the minimal loop re-sends blank and repeated call ids
    expect(out).toMatch(/│ case\s+│ ours \(ref\)\s+│ minimal-loop\s+│/);
    expect(out).toMatch(/transcript\/duplicate-ids\s+│\s+pass final\s+│ ▼ FAIL/);
    expect(out).toMatch(/ours → minimal-loop: \d+ paired; [1-9]\d* regressions/);
    const results = JSON.parse(readFileSync(json, 'utf8')) as ResultsFile;
    expect(results.configs.map((c) => [c.name, c.harness?.name])).toEqual([
      ['ours', 'ours'],
      ['minimal-loop', 'minimal-loop'],
    ]);
    expect(results.harness).toBeUndefined();
    expect(new Ajv({ strict: false }).validate(RESULTS_SCHEMA, results)).toBe(true);
  });
});
