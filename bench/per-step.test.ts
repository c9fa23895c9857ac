import { describe, expect, it } from 'vitest';
import { measurePerStep } from './per-step.ts';

describe('measurePerStep', () => {
  it('measures each contender in a process of its own and returns one row per system and step count', async () => {
    const progress: string[] = [];
    const rows = await measurePerStep({
      steps: [2, 3],
      rounds: 1,
      budgetMs: 1,
      passes: 2,
      warmupMs: 1,
      only: ['floor', 'harness-bench (default)'],
      onProgress: (m) => progress.push(m),
    });
    expect(rows.map((r) => [r.system, r.config, r.steps])).toEqual([
      ['floor', undefined, 2],
      ['floor', undefined, 3],
      ['harness-bench', 'default', 2],
      ['harness-bench', 'default', 3],
    ]);
    for (const row of rows) {
      expect(row.samples).toBeGreaterThan(0);
      expect(row.usPerStep).toBeGreaterThan(0);
      expect(row.cpuUsPerStep).toBeGreaterThanOrEqual(0);
    }
    expect(progress).toContain('warmed up harness-bench (default)');
    // The last line says how much CPU each process used while another one was measured.
    expect(progress.at(-1)).toMatch(
      /^CPU used by the other processes during a system's slices: floor \d+ ms, harness-bench \(default\) \d+ ms$/,
    );
  }, 60_000);
});
