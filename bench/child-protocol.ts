/** The messages between `per-step.ts` and the process of one contender (`per-step-child.ts`). */

/**
 * What the parent asks: warm up for `warmupMs` (runs of 50 steps, at least 5), or measure N steps
 * for `budgetMs` (at least one sample), each sample `runs` back-to-back runs of N steps.
 */
export type ChildRequest =
  | { kind: 'warmup'; warmupMs: number }
  | { kind: 'measure'; steps: number; runs: number; budgetMs: number };

/**
 * The answer: samples in µs per step (each sample's time divided by its runs × N) (wall from tinybench's latency, CPU from `process.cpuUsage`),
 * sent once the process's background threads are quiet; `idleCpuMs`, the CPU it used between its last reply and this request (while another system was
 * measured); or the error that ended the work.
 */
export type ChildReply =
  | { kind: 'warm'; runs: number }
  | { kind: 'samples'; wall: number[]; cpu: number[]; idleCpuMs: number }
  | { kind: 'error'; message: string };
