/**
 * Shared body of the `fuzz-*.prop.test.ts` files: fuzz one family under the default
 * configuration (`configs/default.json`, as `harness-bench run` uses it) and fail with the
 * shrunk counterexample. `HB_FUZZ_SAVE=dir` writes it as a scenario file; `HB_FUZZ_SCALE=k`
 * multiplies the runs (deeper local sessions); CI's fixed seed comes from `test-setup.ts`.
 */
import { expect } from 'vitest';
import { loadConfig } from '../config-load.ts';
import type { Family } from './case.ts';
import { describeReport, fuzzFamily } from './fuzz.ts';

/** Generous: a family's runs take a few seconds to a minute on a loaded 2-core machine. */
export const FUZZ_TEST_TIMEOUT_MS = 600_000;

/** `runs` times `HB_FUZZ_SCALE` (default 1). */
export function scaledRuns(runs: number, env: NodeJS.ProcessEnv = process.env): number {
  const scale = Number(env.HB_FUZZ_SCALE ?? '1');
  return Math.max(1, Math.round(runs * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
}

/** Fuzzes `family` for `runs` runs and asserts every invariant held on every one. */
export async function expectFamilyHolds(family: Family, runs: number): Promise<void> {
  const wanted = scaledRuns(runs);
  const save = process.env.HB_FUZZ_SAVE;
  const report = await fuzzFamily(family, { runs: wanted, base: loadConfig(), ...(save ? { save } : {}) });
  expect(report.failed, describeReport(report)).toBe(false);
  expect(report.runs).toBe(wanted);
}
