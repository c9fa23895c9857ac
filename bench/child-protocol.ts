/** The messages between `per-step.ts` and the process of one contender (`per-step-child.ts`). */

/**
 * What the parent asks: warm up for `warmupMs` (runs of 50 steps, at least 5), or take one sample
 * of N steps: `runs` back-to-back runs of `steps` steps, timed together.
 */
export type ChildRequest =
  | { kind: 'warmup'; warmupMs: number }
  | { kind: 'measure'; steps: number; runs: number };

/**
 * The answer: one sample in µs per step (its time divided by runs × N), wall (`performance.now`)
 * and CPU (`process.cpuUsage`, user + system, every thread), sent once the process's background
 * threads are quiet; `idleCpuMs`, the CPU it used between its last reply and this request (while
 * another system was measured), ms; or the error that ended the work.
 */
export type ChildReply =
  | { kind: 'warm'; runs: number }
  | { kind: 'sample'; wallUs: number; cpuUs: number; idleCpuMs: number }
  | { kind: 'error'; message: string };
