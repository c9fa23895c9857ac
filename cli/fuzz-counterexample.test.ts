/**
 * The counterexample writer end to end, on a deliberately broken harness: the budget check is
 * patched (in this test only) to let one turn more through than `limits.maxTurns` allows.
 * `harness-bench fuzz --save-counterexample` must find it, shrink it, and write a scenario
 * that `harness-bench validate` accepts and `harness-bench run` fails — and that passes again
 * once the patch is off, so the file names exactly that bug. `HB_FUZZ_SAVE` does the same for
 * the vitest fuzz files.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { HarnessConfig } from '../harness/config.ts';
import type { BudgetUsage } from '../harness/loop/budgets.ts';
import type { CliIo } from './io.ts';
import { main } from './main.ts';
import type { Scenario } from '../eval/scenario/types.ts';
import { expectFamilyHolds } from '../eval/fuzz/fuzz.test-helpers.ts';

const planted = vi.hoisted(() => ({ broken: true }));

vi.mock('../harness/loop/budgets.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../harness/loop/budgets.ts')>();
  return {
    ...real,
    checkBudgets: (config: HarnessConfig, usage: BudgetUsage) => {
      const stop = real.checkBudgets(config, usage);
      // The planted bug: the turn budget compared with `>` instead of `>=`.
      const late = planted.broken && stop?.reason === 'max_turns' && usage.turns === config.limits.maxTurns;
      return late ? undefined : stop;
    },
  };
});

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'hb-fuzz-cx-'));
  dirs.push(dir);
  return dir;
}

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    cwd: process.cwd(),
    env: {},
    isTTY: false,
  };
  const code = await main(['node', 'harness-bench', ...args], io);
  return { code, out, err };
}

const scenarioFiles = (dir: string) =>
  readdirSync(dir).filter((f) => f.endsWith('.json') && !f.endsWith('.case.json'));

describe('fuzz counterexamples', () => {
  it('harness-bench fuzz finds a planted off-by-one turn budget and writes a scenario that validates, fails, and passes once fixed', async () => {
    planted.broken = true;
    const dir = tempDir();
    const fuzz = await cli(
      'fuzz',
      '--family',
      'budgets',
      '--runs',
      '300',
      '--seed',
      '11',
      '--save-counterexample',
      dir,
    );
    expect(fuzz.code, fuzz.out + fuzz.err).toBe(1);
    expect(fuzz.out).toMatch(/budgets: .*FAILED/);
    expect(fuzz.out).toMatch(/turn \d+ started with the budget spent \(\d+ turns of \d+\)/);
    expect(fuzz.out).toMatch(/fails under harness-bench run/);
    const [name] = scenarioFiles(dir);
    const file = path.join(dir, name!);
    const scenario = JSON.parse(readFileSync(file, 'utf8')) as Scenario;
    expect(scenario).toMatchObject({
      source: 'ours (fuzzing)',
      tags: expect.arrayContaining(['fuzz', 'budgets']),
    });
    expect(scenario.expect.modelCalls).toBeGreaterThanOrEqual(1);
    expect(scenario.model.length).toBeLessThanOrEqual(4);

    expect((await cli('validate', file)).code).toBe(0);
    const failing = await cli('run', '-s', file);
    expect(failing.code, failing.out).toBe(1);
    expect(failing.out).toMatch(/stopReason: expected max_turns|modelCalls|budgets\.turns/);

    const replay = await cli('fuzz', '--replay', file.replace(/\.json$/, '.case.json'));
    expect(replay.code).toBe(1);

    planted.broken = false;
    const fixed = await cli('run', '-s', file);
    expect(fixed.code, fixed.out).toBe(0);
    expect((await cli('fuzz', '--replay', file.replace(/\.json$/, '.case.json'))).code).toBe(0);
  });

  it('the vitest fuzz files save the counterexample where HB_FUZZ_SAVE points and fail with it', async () => {
    planted.broken = true;
    const dir = tempDir();
    vi.stubEnv('HB_FUZZ_SAVE', dir);
    try {
      await expect(expectFamilyHolds('budgets', 300)).rejects.toThrow(/budgets: .*FAILED[\s\S]*scenario: /);
    } finally {
      vi.unstubAllEnvs();
      planted.broken = false;
    }
    expect(scenarioFiles(dir)).toHaveLength(1);
  });
});
