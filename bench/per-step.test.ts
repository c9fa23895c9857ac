import { describe, expect, it } from 'vitest';
import { measurePerStep, runsPerSample } from './per-step.ts';

describe('measurePerStep', () => {
  it('measures each contender in a process of its own and returns one row per system and step count', async () => {
    const progress: string[] = [];
    const rows = await measurePerStep({
      steps: [2, 3],
      rounds: 1,
      budgetMs: 1,
      passes: 2,
      warmupMs: 1,
      sampleSteps: 6,
      only: ['floor', 'harness-bench (default)'],
      onProgress: (m) => progress.push(m),
    });
    expect(rows.map((r) => [r.system, r.config, r.steps, r.runsPerSample])).toEqual([
      ['floor', undefined, 2, 3],
      ['floor', undefined, 3, 2],
      ['harness-bench', 'default', 2, 3],
      ['harness-bench', 'default', 3, 2],
    ]);
    for (const row of rows) {
      expect(row.samples).toBeGreaterThan(0);
      // One median per round, each a median of that round's samples.
      expect(row.roundMedians).toHaveLength(1);
      expect(row.roundMedians[0]).toBeGreaterThan(0);
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

describe('runsPerSample', () => {
  it('covers the sample steps with whole runs, at least one', () => {
    expect(runsPerSample(10, 1000)).toBe(100);
    expect(runsPerSample(300, 1000)).toBe(4);
    expect(runsPerSample(1000, 1000)).toBe(1);
    expect(runsPerSample(5000, 1000)).toBe(1);
  });
});
