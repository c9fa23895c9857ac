/**
 * Injected determinism: everything in `harness/` that needs time, ids or randomness takes it
 * from here, so a replay is byte-identical. Nothing in `harness/` calls `Date.now()` or
 * `Math.random()` directly (`harness/determinism.test.ts` greps for it). The deps are split in
 * two: {@link Determinism} (clock, ids, random, sleep; declared in `harness/types.ts`, which
 * imports nothing, so tools can take it without a cycle) and {@link HarnessHooks} (event sink,
 * approver).
 */
import type { HarnessEvent } from './events.ts';
import type { ApprovalAnswer, ApprovalRequest } from './policy/types.ts';
import type { Determinism } from './types.ts';

/** What the caller of a run hears and answers: the event sink and the approver. */
export interface HarnessHooks {
  /** Receives every event as it happens. Contract: must not throw. */
  onEvent?(event: HarnessEvent): void;
  /**
   * Answers an `ask` in `interactive` mode. Absent means nobody can answer: the ask is denied
   * (as in `headless`). Contract: resolves; a rejection counts as a denial.
   */
  approver?(request: ApprovalRequest): Promise<ApprovalAnswer>;
}

/** Everything a run is given from outside: {@link Determinism} (clock, ids, random, sleep) and {@link HarnessHooks}. */
export interface HarnessDeps extends Determinism, HarnessHooks {}

/**
 * Deterministic deps for tests, scenarios and replays: the clock starts at `startMs` and
 * advances `stepMs` on every read; ids count up from 1; randomness is a seeded
 * mulberry32 stream (https://gist.github.com/tommyettinger/46a874533244883189143505d203312c).
 */
export function deterministicDeps(
  options: { startMs?: number; stepMs?: number; seed?: number } = {},
): HarnessDeps {
  let clock = options.startMs ?? 1_764_400_000_000;
  const step = options.stepMs ?? 1;
  const counters = new Map<string, number>();
  let state = (options.seed ?? 1) >>> 0;
  return {
    now: () => {
      const value = clock;
      clock += step;
      return value;
    },
    newId: (prefix) => {
      const next = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, next);
      return `${prefix}${String(next).padStart(4, '0')}`;
    },
    random: () => {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
    sleep: async (ms) => {
      clock += ms;
    },
  };
}

/** Real deps for live use: wall clock, random ids, `Math.random`, real timers. */
export function liveDeps(): HarnessDeps {
  return {
    // eslint-disable-next-line no-restricted-properties -- the one place real time enters
    now: () => Date.now(),
    newId: (prefix) => `${prefix}${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`,
    random: () => globalThis.crypto.getRandomValues(new Uint32Array(1))[0]! / 4294967296,
    // The abort listener goes when the sleep ends: a run's signal outlives many retry waits.
    sleep: (ms, signal) =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        if (signal?.aborted) done();
        else signal?.addEventListener('abort', done, { once: true });
      }),
  };
}
