/**
 * Per-step overhead of every system of `systems.ts` on the workload of `workload.ts`, in
 * interleaved rounds: each round runs every step count (their order rotating by round), and
 * within a step count every system in turn (the order rotates by round; a round's budget per system is spent in `passes` slices that
 * alternate between the systems), so a busy machine slows them all alike and the ratios hold.
 * Each system runs in a process of its own (`per-step-child.ts`, forked once and warmed up), and
 * only one system runs at a time: a system's samples never include collecting another system's
 * garbage. (In one shared process they did: the AI SDK's ~900 MB of garbage at N = 1,000 was
 * collected during whoever ran next, and even the bare floor loop grew 1.55× from N = 10 to
 * N = 1,000; JMH forks a JVM per benchmark for the same reason.) Each sample is as many whole
 * runs (N tool steps and the final answer) as cover {@link SAMPLE_STEPS} steps, back to back,
 * divided by their steps, in µs per step, as wall time (tinybench's
 * latency, in the child) and as the child's CPU time (user + system, all its threads: on a
 * machine other work keeps busy, wall time is mostly waiting for a core, CPU time is the work); a
 * system's figure is the median of its samples over all rounds. No collection is forced: a full
 * GC before a run made the run after it several times slower (a shrunk heap, code discarded),
 * which measured the GC, not the loop.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  aiSdk,
  floor,
  HARNESS_CONFIGS,
  harness,
  openaiAgents,
  type System,
  type SystemName,
} from './systems.ts';
import type { ChildReply, ChildRequest } from './child-protocol.ts';
import { SAMPLE_STEPS } from './workload.ts';

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
  /** Back-to-back runs of N steps in each sample ({@link runsPerSample}). */
  runsPerSample: number;
  /** Median over every sample of every round. */
  usPerStep: number;
  /** The fastest sample (the least disturbed by other work on the machine). */
  minUsPerStep: number;
  /** Median CPU time of the process per step (user + system, every thread). */
  cpuUsPerStep: number;
  samples: number;
  /**
   * The median of each round's samples, round by round (wall, µs per step): ratios of two rows
   * taken round by round compare measurements made minutes apart at most, so a machine that
   * slows down or speeds up during the run moves both sides of each ratio alike.
   */
  roundMedians: number[];
}

/** Options of {@link measurePerStep}. */
export interface PerStepOptions {
  steps: readonly number[];
  rounds: number;
  /** Time budget per system, step count and round, ms (at least one run each). */
  budgetMs: number;
  /** Slices each round's budget is spent in, alternating between the systems (default 1). */
  passes?: number;
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
  ask(request: ChildRequest): Promise<ChildReply & { kind: 'warm' | 'samples' }>;
  close(): void;
}

function forkChild(index: number, name: string): Child {
  const child: ChildProcess = fork(
    fileURLToPath(new URL('./per-step-child.ts', import.meta.url)),
    [String(index)],
    {
      // No memory reducer: it starts a full collection on a timer some 8 s after a process goes
      // quiet, that is during another system's slice. Each system's garbage is then collected
      // in its own slices, on its own clock.
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
 * and step count. @throws when a contender fails (wrong step count, a stop other than the final
 * answer) or its process dies.
 */
export async function measurePerStep(options: PerStepOptions): Promise<PerStepRow[]> {
  const samples = new Map<string, number[]>();
  const cpu = new Map<string, number[]>();
  /** Per key, the samples of each round. */
  const byRound = new Map<string, number[][]>();
  const measured = CONTENDERS.map((c, index) => ({ c, index })).filter(
    ({ c }) => !options.only || options.only.includes(label(c)) || options.only.includes(c.system),
  );
  const children = measured.map(({ c, index }) => forkChild(index, label(c)));
  try {
    // Unmeasured runs of each until the JIT has optimised its code (a first run is many times slower).
    for (const [i, { c }] of measured.entries()) {
      await children[i]!.ask({ kind: 'warmup', warmupMs: options.warmupMs });
      options.onProgress?.(`warmed up ${label(c)}`);
    }
    const passes = options.passes ?? 1;
    /** CPU each process used while another system was measured (ms): how well the slices were kept apart. */
    const idle = measured.map(() => 0);
    for (let round = 0; round < options.rounds; round += 1) {
      // The step counts in an order that rotates by round, like the systems: a system's process
      // would otherwise always come to N = 1,000 after the same N = 200 slices, at the same
      // point of the round.
      const shift = round % options.steps.length;
      for (const steps of [...options.steps.slice(shift), ...options.steps.slice(0, shift)]) {
        const runs = runsPerSample(steps, options.sampleSteps ?? SAMPLE_STEPS);
        // The round's budget per system, spent in `passes` slices that alternate between the
        // systems: a burst of other work on the machine then falls on all of them alike. A
        // system whose one run outlasts its slices (a peer at N = 1,000) runs in the first pass
        // only, once its budget is spent.
        const usedMs = measured.map(() => 0);
        for (let pass = 0; pass < passes; pass += 1)
          for (let k = 0; k < measured.length; k += 1) {
            const i = (k + round + pass) % measured.length;
            if (usedMs[i]! >= options.budgetMs) continue;
            const key = `${label(measured[i]!.c)} ${steps}`;
            const reply = await children[i]!.ask({
              kind: 'measure',
              steps,
              runs,
              budgetMs: options.budgetMs / passes,
            });
            if (reply.kind !== 'samples') throw new Error(`${key}: no samples`);
            for (const us of reply.wall) usedMs[i]! += (us * steps * runs) / 1000;
            append(samples, key, reply.wall);
            let rounds = byRound.get(key);
            if (!rounds) byRound.set(key, (rounds = []));
            const inRound = (rounds[round] ??= []);
            for (const us of reply.wall) inRound.push(us);
            append(cpu, key, reply.cpu);
            idle[i]! += reply.idleCpuMs;
          }
        options.onProgress?.(`round ${round + 1}/${options.rounds}, ${steps} steps`);
      }
    }
    options.onProgress?.(
      `CPU used by the other processes during a system's slices: ${measured.map(({ c }, i) => `${label(c)} ${Math.round(idle[i]!)} ms`).join(', ')}`,
    );
  } finally {
    for (const child of children) child.close();
  }
  const rows: PerStepRow[] = [];
  for (const { c } of measured)
    for (const steps of options.steps) {
      const key = `${label(c)} ${steps}`;
      const list = [...(samples.get(key) ?? [])].sort((a, b) => a - b);
      const cpuList = [...(cpu.get(key) ?? [])].sort((a, b) => a - b);
      rows.push({
        system: c.system,
        ...(c.config ? { config: c.config } : {}),
        steps,
        runsPerSample: runsPerSample(steps, options.sampleSteps ?? SAMPLE_STEPS),
        usPerStep: round1(median(list)),
        minUsPerStep: round1(list[0] ?? Number.NaN),
        cpuUsPerStep: round1(median(cpuList)),
        samples: list.length,
        roundMedians: (byRound.get(key) ?? []).map((r) => round1(median([...r].sort((a, b) => a - b)))),
      });
    }
  return rows;
}

/** Appends `values` to the list of `key` (created empty), without copying the list. */
function append(lists: Map<string, number[]>, key: string, values: readonly number[]): void {
  let list = lists.get(key);
  if (!list) lists.set(key, (list = []));
  for (const v of values) list.push(v);
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
