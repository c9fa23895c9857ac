import { describe, expect, it } from 'vitest';
import type { CliIo } from './io.ts';
import { main } from './main.ts';

const run = async (...args: string[]) => {
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
};

describe('harness-bench fuzz', () => {
  it('splits the runs over the families, prints the seed and exits 0 when every invariant held', async () => {
    const { code, out, err } = await run(
      'fuzz',
      '--runs',
      '12',
      '--seed',
      '5',
      '--family',
      'loops',
      '--family',
      'calls',
    );
    expect(code, out + err).toBe(0);
    expect(err).toContain('fuzzing loops, calls: 6 runs each, seed 5');
    expect(out).toMatch(/^loops: 6 runs in [\d.]+ s, seed 5: every invariant held$/m);
    expect(out).toContain('fuzz: 12 runs, seed 5: every invariant held');
  });

  it('exits 2 with the reason for an unknown family, a non-integer seed, a bad run count or a missing case file', async () => {
    const family = await run('fuzz', '--family', 'nope');
    expect(family.code).toBe(2);
    expect(family.err).toContain(
      'unknown family "nope"; the families are arguments, calls, budgets, loops, stream, mixed',
    );
    expect((await run('fuzz', '--seed', '1.5')).err).toContain('"1.5" is not an integer');
    expect((await run('fuzz', '--runs', '0')).code).toBe(2);
    const replay = await run('fuzz', '--replay', 'no/such.case.json');
    expect(replay.code).toBe(2);
    expect(replay.err).toContain('--replay');
  });
});
