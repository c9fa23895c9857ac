/**
 * The injected deps of a recorded session and of its replay (`CassetteDeps` in a cassette):
 * while recording, time comes from the real clock and every value `now()` returns is kept; ids
 * and randomness come from seeds drawn once per recording. A replay reads the same clock values
 * back in order and regrows the same ids and random numbers from the seeds, so it sends the
 * same requests (retry jitter and harness-assigned call ids included).
 */
import { randomBytes } from 'node:crypto';
import { deterministicDeps, type HarnessDeps } from '../../harness/deps.ts';
import type { CassetteDeps } from '../cassette/types.ts';

/** Fresh seeds for a recording: 8 hex characters of id seed, a 32-bit random seed. */
export function freshSeeds(): { idSeed: string; randomSeed: number } {
  const bytes = randomBytes(8);
  return { idSeed: bytes.subarray(0, 4).toString('hex'), randomSeed: bytes.readUInt32BE(4) };
}

/**
 * The id generator of a seed: `<prefix><idSeed>_<n>` with `n` counting up per prefix from 1,
 * zero-padded to 4 digits (`call_7f3a9c01_0001`).
 */
function seededIds(idSeed: string): (prefix: string) => string {
  const counters = new Map<string, number>();
  return (prefix) => {
    const next = (counters.get(prefix) ?? 0) + 1;
    counters.set(prefix, next);
    return `${prefix}${idSeed}_${String(next).padStart(4, '0')}`;
  };
}

/** Seeded randomness in [0, 1): the same mulberry32 stream as `deterministicDeps`. */
function seededRandom(seed: number): () => number {
  return deterministicDeps({ seed }).random;
}

/** Deps that record what the harness draws, and the record so far. */
export interface RecordingDeps {
  deps: HarnessDeps;
  /** What was drawn so far, as stored in a cassette (`clock` copied). */
  drawn(): CassetteDeps;
}

/**
 * Wraps `base` for recording: `now()` is `base.now()` with every value kept; ids and randomness
 * come from `seeds`; `sleep`, `onEvent` and `approver` are `base`'s.
 */
export function recordingDeps(
  base: HarnessDeps,
  seeds: { idSeed: string; randomSeed: number },
): RecordingDeps {
  const clock: number[] = [];
  const deps: HarnessDeps = {
    now: () => {
      const value = base.now();
      clock.push(value);
      return value;
    },
    newId: seededIds(seeds.idSeed),
    random: seededRandom(seeds.randomSeed),
    sleep: (ms, signal) => base.sleep(ms, signal),
    ...(base.onEvent ? { onEvent: base.onEvent } : {}),
    ...(base.approver ? { approver: base.approver } : {}),
  };
  return { deps, drawn: () => ({ clock: [...clock], idSeed: seeds.idSeed, randomSeed: seeds.randomSeed }) };
}

/**
 * Deps that replay a recording's draws: `now()` returns the recorded clock values in order, then
 * counts on from the last one in 1 ms steps (from `fallbackStartMs` when none was recorded);
 * ids and randomness grow from the recorded seeds (a cassette without seeds gets the
 * `deterministicDeps` ones); `sleep` resolves at once (the recorded clock already holds the wait).
 */
export function replayDeps(recorded: CassetteDeps, fallbackStartMs = 1_764_400_000_000): HarnessDeps {
  const clock = recorded.clock ?? [];
  let index = 0;
  let next = (clock.at(-1) ?? fallbackStartMs - 1) + 1;
  const fallback = deterministicDeps({
    startMs: fallbackStartMs,
    ...(typeof recorded.randomSeed === 'number' ? { seed: recorded.randomSeed } : {}),
  });
  return {
    now: () => (index < clock.length ? clock[index++]! : next++),
    newId: recorded.idSeed !== undefined ? seededIds(recorded.idSeed) : fallback.newId,
    random: fallback.random,
    sleep: async () => {},
  };
}
