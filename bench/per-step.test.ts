import { describe, expect, it } from 'vitest';
import { measurePerStep, runsPerSample } from './per-step.ts';

describe('measurePerStep', () => {
  it('measures each contender in a process of its own, every one the same number of samples per step count and round', async () => {
    const progress: string[] = [];
    const rows = await measurePerStep({
      steps: [2, 3],
      rounds: 2,
      samplesPerRound: 3,
      warmupMs: 1,
      sampleSteps: 6,
      only: ['floor', 'floor + read', 'harness-bench (default)'],
      onProgress: (m) => progress.push(m),
    });
    expect(rows.map((r) => [r.system, r.config, r.steps, r.runsPerSample])).toEqual([
      ['floor', undefined, 2, 3],
      ['floor', undefined, 3, 2],
      ['floor + read', undefined, 2, 3],
      ['floor + read', undefined, 3, 2],
      ['harness-bench', 'default', 2, 3],
      ['harness-bench', 'default', 3, 2],
    ]);
    for (const row of rows) {
      // Equal sample counts: rounds × samplesPerRound for every system and step count, each
      // round holding exactly samplesPerRound of them, wall and CPU alike.
      expect(row.sampleCount).toBe(6);
      expect(row.wallSamples.map((r) => r.length)).toEqual([3, 3]);
      expect(row.cpuSamples.map((r) => r.length)).toEqual([3, 3]);
      // One median per round, each a median of that round's samples.
      expect(row.roundMedians).toHaveLength(2);
      for (const [i, round] of row.wallSamples.entries())
        expect(row.roundMedians[i]).toBe([...round].sort((a, b) => a - b)[1]);
      expect(row.usPerStep).toBeGreaterThan(0);
      expect(row.minUsPerStep).toBe(Math.min(...row.wallSamples.flat()));
      expect(row.cpuUsPerStep).toBeGreaterThanOrEqual(0);
    }
    expect(progress).toContain('warmed up harness-bench (default)');
    // The last line says how much CPU each process used while another one was measured.
    expect(progress.at(-1)).toMatch(
      /^CPU used by the other processes during a system's samples: floor \d+ ms, floor \+ read \d+ ms, harness-bench \(default\) \d+ ms$/,
    );
  }, 120_000);

  it('refuses a sample count that is not a positive integer', async () => {
    await expect(measurePerStep({ steps: [2], rounds: 1, samplesPerRound: 0, warmupMs: 1 })).rejects.toThrow(
      /samplesPerRound \(0\)/,
    );
  });
});

describe('runsPerSample', () => {
  it('covers the sample steps with whole runs, at least one', () => {
    expect(runsPerSample(10, 1000)).toBe(100);
    expect(runsPerSample(300, 1000)).toBe(4);
    expect(runsPerSample(1000, 1000)).toBe(1);
    expect(runsPerSample(5000, 1000)).toBe(1);
  });
});
