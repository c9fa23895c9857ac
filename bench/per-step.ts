/**
 * Per-step overhead of every system of `systems.ts` on the workload of `workload.ts`, measured
 * with tinybench in interleaved rounds: each round runs every step count, and within a step
 * count every system in turn (the order rotates by round), so a busy machine slows them all
 * alike and the ratios hold. Each sample is one whole run (N tool steps and the final answer)
 * divided by N, in µs per step, as wall time (tinybench's latency) and as the process's CPU time
 * (user + system, all threads: on a machine other work keeps busy, wall time is mostly waiting
 * for a core, CPU time is the work); a system's figure is the median of its samples over all
 * rounds. No collection is forced between systems: a full GC before a run made the run after
 * it several times slower (a shrunk heap, code discarded), which measured the GC, not the loop.
 */
import { Bench } from 'tinybench';
import {
  aiSdk,
  floor,
  HARNESS_CONFIGS,
  harness,
  openaiAgents,
  type System,
  type SystemName,
} from './systems.ts';
import { benchWorkspace } from './workload.ts';

/** One measured system (a harness configuration is a system of its own). */
export interface Contender {
  system: SystemName;
  /** `default` or `session` for harness-bench. */
  config?: string;
  run: System;
}

/** The contenders of the table, in their base order. */
export const CONTENDERS: readonly Contender[] = [
  { system: 'floor', run: floor },
  { system: 'harness-bench', config: 'default', run: harness(HARNESS_CONFIGS.default) },
  { system: 'harness-bench', config: 'session', run: harness(HARNESS_CONFIGS.session) },
  { system: 'ai-sdk', run: aiSdk },
  { system: 'openai-agents', run: openaiAgents },
];

/** One row of `perStep` in `bench/results/latest.json`. µs per step. */
export interface PerStepRow {
  system: SystemName;
  config?: string;
  steps: number;
  /** Median over every sample of every round. */
  usPerStep: number;
  /** The fastest sample (the least disturbed by other work on the machine). */
  minUsPerStep: number;
  /** Median CPU time of the process per step (user + system, every thread). */
  cpuUsPerStep: number;
  samples: number;
}

/** Options of {@link measurePerStep}. */
export interface PerStepOptions {
  steps: readonly number[];
  rounds: number;
  /** Time budget per system, step count and round, ms (at least one run each). */
  budgetMs: number;
  /** Warm-up per system before the rounds (runs of 50 steps, at least 5), so every system is measured with its code optimised. ms. */
  warmupMs: number;
  /** Called after each round of one step count. */
  onProgress?: (message: string) => void;
}

const label = (c: Contender) => (c.config ? `${c.system} (${c.config})` : c.system);

/** Runs the interleaved rounds and returns one row per system and step count. */
export async function measurePerStep(options: PerStepOptions): Promise<PerStepRow[]> {
  const workspace = benchWorkspace();
  const samples = new Map<string, number[]>();
  const cpu = new Map<string, number[]>();
  try {
    // Unmeasured runs of each until the JIT has optimised its code (a first run is many times slower).
    for (const c of CONTENDERS) {
      const started = performance.now();
      for (let runs = 0; runs < 5 || performance.now() - started < options.warmupMs; runs += 1)
        await c.run(50, workspace.dir);
      options.onProgress?.(`warmed up ${label(c)}`);
    }
    for (let round = 0; round < options.rounds; round += 1) {
      for (const steps of options.steps) {
        const bench = new Bench({
          time: options.budgetMs,
          iterations: 1,
          warmup: false,
          retainSamples: true,
          throws: true,
        });
        const order = CONTENDERS.map((_, i) => CONTENDERS[(i + round) % CONTENDERS.length]!);
        for (const c of order) {
          const key = `${label(c)} ${steps}`;
          const list = cpu.get(key) ?? [];
          cpu.set(key, list);
          bench.add(key, async () => {
            const before = process.cpuUsage();
            await c.run(steps, workspace.dir);
            const used = process.cpuUsage(before);
            list.push((used.user + used.system) / steps);
          });
        }
        await bench.run();
        for (const task of bench.tasks) {
          const result = task.result;
          if (!result || !('latency' in result)) throw new Error(`${task.name}: no result`);
          const key = task.name;
          const list = samples.get(key) ?? [];
          for (const ms of result.latency.samples ?? []) list.push((ms * 1000) / steps);
          samples.set(key, list);
        }
        options.onProgress?.(`round ${round + 1}/${options.rounds}, ${steps} steps`);
      }
    }
  } finally {
    workspace.dispose();
  }
  const rows: PerStepRow[] = [];
  for (const c of CONTENDERS)
    for (const steps of options.steps) {
      const key = `${label(c)} ${steps}`;
      const list = [...(samples.get(key) ?? [])].sort((a, b) => a - b);
      const cpuList = [...(cpu.get(key) ?? [])].sort((a, b) => a - b);
      rows.push({
        system: c.system,
        ...(c.config ? { config: c.config } : {}),
        steps,
        usPerStep: round1(median(list)),
        minUsPerStep: round1(list[0] ?? Number.NaN),
        cpuUsPerStep: round1(median(cpuList)),
        samples: list.length,
      });
    }
  return rows;
}

/** The median of sorted numbers. */
export function median(sorted: readonly number[]): number {
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
