/**
 * Per-step overhead of every system of `systems.ts` on the workload of `workload.ts`, in
 * interleaved rounds with EQUAL sample counts: every system takes `samplesPerRound` samples of
 * every step count in every round, so each system's figure at each N is the median of exactly
 * `rounds × samplesPerRound` samples. Within a round the step counts come in an order that
 * rotates by round, and within a step count the samples alternate between the systems (A B C …,
 * then A B C … again; the order rotating by round and by sample), so a busy machine slows them
 * all alike and the ratios hold.
 *
 * Each system runs in a process of its own (`per-step-child.ts`, forked once, set up once, warmed
 * up), and only one system runs at a time: a system's samples never include collecting another
 * system's garbage. (In one shared process they did: the AI SDK's garbage at N = 1,000 was
 * collected during whoever ran next, and even the bare floor loop grew 1.55× from N = 10 to
 * N = 1,000; JMH forks a JVM per benchmark for the same reason.) Each sample is as many whole
 * runs of N steps as cover {@link SAMPLE_STEPS} steps, back to back, divided by their steps: µs
 * per step, as wall time and as the child's CPU time (user + system, all its threads: on a
 * machine other work keeps busy, wall time is partly waiting for a core, CPU time is the work).
 * No collection is forced: a full GC before a run made the run after it several times slower (a
 * shrunk heap, code discarded), which measured the GC, not the loop.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChildReply, ChildRequest } from './child-protocol.ts';
import {
  aiSdk,
  floor,
  floorRead,
  HARNESS_CONFIGS,
  harness,
  openaiAgents,
  type System,
  type SystemName,
} from './systems.ts';
import { SAMPLE_STEPS } from './workload.ts';

/** One measured system (a harness configuration is a system of its own). */
export interface Contender {
  system: SystemName;
  /** `default` or `session` for harness-bench. */
  config?: string;
  /** Sets the system up for a workspace (once per process) and returns its runner. */
  setup: System;
}

/** The contenders of the table, in their base order. */
export const CONTENDERS: readonly Contender[] = [
  { system: 'floor', setup: floor },
  { system: 'floor + read', setup: floorRead },
  { system: 'harness-bench', config: 'default', setup: harness(HARNESS_CONFIGS.default) },
  { system: 'harness-bench', config: 'session', setup: harness(HARNESS_CONFIGS.session) },
  { system: 'ai-sdk', setup: aiSdk },
  { system: 'openai-agents', setup: openaiAgents },
];

/** One row of `perStep` in `bench/results/latest.json`. Every figure in µs per step. */
export interface PerStepRow {
  system: SystemName;
  config?: string;
  steps: number;
  /** Back-to-back runs of N steps in each sample ({@link runsPerSample}). */
  runsPerSample: number;
  /** Median wall time over every sample of every round. */
  usPerStep: number;
  /** The fastest sample (the least disturbed by other work on the machine), wall. */
  minUsPerStep: number;
  /** Median CPU time of the process (user + system, every thread). */
  cpuUsPerStep: number;
  /** Samples in all: `rounds × samplesPerRound`, the same for every row of a run. */
  sampleCount: number;
  /**
   * The median of each round's samples, round by round (wall): ratios of two rows taken round by
   * round compare measurements made minutes apart at most, so a machine that slows down or speeds
   * up during the run moves both sides of each ratio alike.
   */
  roundMedians: number[];
  /** Every sample, wall: `wallSamples[round][k]`, in the order taken. */
  wallSamples: number[][];
  /** Every sample, CPU, in the same shape as {@link wallSamples}. */
  cpuSamples: number[][];
}

/** Options of {@link measurePerStep}. */
export interface PerStepOptions {
  steps: readonly number[];
  rounds: number;
  /** Samples each system takes of each step count in each round (the same for all; at least 1). */
  samplesPerRound: number;
  /** Warm-up per system before the rounds (runs of 50 steps, at least 5), so every system is measured with its code optimised. ms. */
  warmupMs: number;
  /** The systems to measure (`label`s such as `floor` or `harness-bench (default)`); all of {@link CONTENDERS} when absent. */
  only?: readonly string[];
  /** Steps a sample covers at least (back-to-back runs of N steps); default {@link SAMPLE_STEPS}. */
  sampleSteps?: number;
  /** Called after each round of one step count. */
  onProgress?: (message: string) => void;
}

/** A contender's name in rows and progress: the system, and the configuration in parentheses. */
export const label = (c: Contender) => (c.config ? `${c.system} (${c.config})` : c.system);

/** A forked contender: one request at a time, the reply awaited. */
interface Child {
  ask(request: ChildRequest): Promise<ChildReply & { kind: 'warm' | 'sample' }>;
  close(): void;
}

function forkChild(index: number, name: string): Child {
  const child: ChildProcess = fork(
    fileURLToPath(new URL('./per-step-child.ts', import.meta.url)),
    [String(index)],
    {
      // No memory reducer: it starts a full collection on a timer some 8 s after a process goes
      // quiet, that is during another system's sample. Each system's garbage is then collected
      // in its own samples, on its own clock.
      execArgv: ['--import', 'tsx', '--no-memory-reducer'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  return {
    ask: (request) =>
      new Promise((resolve, reject) => {
        const onExit = (code: number | null) =>
          reject(new Error(`${name}: the measuring process exited (${code})`));
        child.once('exit', onExit);
        child.once('message', (reply: ChildReply) => {
          child.off('exit', onExit);
          if (reply.kind === 'error') reject(new Error(`${name}: ${reply.message}`));
          else resolve(reply);
        });
        child.send(request);
      }),
    close: () => child.disconnect(),
  };
}

/**
 * Runs the interleaved rounds, each contender in its own process, and returns one row per system
 * and step count, each of `rounds × samplesPerRound` samples. @throws when a contender fails
 * (wrong number of tool calls, a stop other than the final answer) or its process dies, or when
 * `rounds` or `samplesPerRound` is not a positive integer.
 */
export async function measurePerStep(options: PerStepOptions): Promise<PerStepRow[]> {
  const { rounds, samplesPerRound } = options;
  if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(samplesPerRound) || samplesPerRound < 1)
    throw new Error(`rounds (${rounds}) and samplesPerRound (${samplesPerRound}) must be positive integers`);
  const measured = CONTENDERS.filter(
    (c) => !options.only || options.only.includes(label(c)) || options.only.includes(c.system),
  );
  /** wall[system][step count][round] → samples; cpu alike. */
  const wall = measured.map(() =>
    options.steps.map(() => Array.from({ length: rounds }, () => [] as number[])),
  );
  const cpu = measured.map(() =>
    options.steps.map(() => Array.from({ length: rounds }, () => [] as number[])),
  );
  const children = measured.map((c) => forkChild(CONTENDERS.indexOf(c), label(c)));
  try {
    // Unmeasured runs of each until the JIT has optimised its code (a first run is many times slower).
    for (const [i, c] of measured.entries()) {
      await children[i]!.ask({ kind: 'warmup', warmupMs: options.warmupMs });
      options.onProgress?.(`warmed up ${label(c)}`);
    }
    /** CPU each process used while another system was measured (ms): how well the samples were kept apart. */
    const idle = measured.map(() => 0);
    for (let round = 0; round < rounds; round += 1) {
      // The step counts in an order that rotates by round, like the systems: a system's process
      // would otherwise always come to N = 1,000 after the same N = 200 samples.
      const shift = round % options.steps.length;
      const order = [...options.steps.keys()].map((k) => (k + shift) % options.steps.length);
      for (const s of order) {
        const steps = options.steps[s]!;
        const runs = runsPerSample(steps, options.sampleSteps ?? SAMPLE_STEPS);
        for (let k = 0; k < samplesPerRound; k += 1)
          for (let j = 0; j < measured.length; j += 1) {
            const i = (j + round + k) % measured.length;
            const reply = await children[i]!.ask({ kind: 'measure', steps, runs });
            if (reply.kind !== 'sample') throw new Error(`${label(measured[i]!)} ${steps}: no sample`);
            wall[i]![s]![round]!.push(reply.wallUs);
            cpu[i]![s]![round]!.push(reply.cpuUs);
            idle[i]! += reply.idleCpuMs;
          }
        options.onProgress?.(`round ${round + 1}/${rounds}, ${steps} steps`);
      }
    }
    options.onProgress?.(
      `CPU used by the other processes during a system's samples: ${measured.map((c, i) => `${label(c)} ${Math.round(idle[i]!)} ms`).join(', ')}`,
    );
  } finally {
    for (const child of children) child.close();
  }
  const rows: PerStepRow[] = [];
  for (const [i, c] of measured.entries())
    for (const [s, steps] of options.steps.entries()) {
      const byRound = wall[i]![s]!;
      const all = byRound.flat().sort((a, b) => a - b);
      rows.push({
        system: c.system,
        ...(c.config ? { config: c.config } : {}),
        steps,
        runsPerSample: runsPerSample(steps, options.sampleSteps ?? SAMPLE_STEPS),
        usPerStep: round1(median(all)),
        minUsPerStep: round1(all[0] ?? Number.NaN),
        cpuUsPerStep: round1(median(cpu[i]![s]!.flat().sort((a, b) => a - b))),
        sampleCount: all.length,
        roundMedians: byRound.map((r) => round1(median([...r].sort((a, b) => a - b)))),
        wallSamples: byRound.map((r) => r.map(round1)),
        cpuSamples: cpu[i]![s]!.map((r) => r.map(round1)),
      });
    }
  return rows;
}

/** Runs of `steps` steps in one sample: enough to cover `sampleSteps` steps, at least one. */
export function runsPerSample(steps: number, sampleSteps: number): number {
  return Math.max(1, Math.ceil(sampleSteps / steps));
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
