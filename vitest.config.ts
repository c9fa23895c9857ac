import { readdirSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// The fault library's per-tag tests (eval/faults/<tag>.test.ts) apply every catalogued harness fault to
// temporary copies of the repository and run each tag's scenarios on every one: about 7 CPU
// minutes. They run in CI as their own step (`npm run test:faults`, .ci/run), so `npm test` stays
// well under its time budget; catalogue.test.ts (every patch still applies) and library.test.ts
// (which cases a fault runs) stay in `npm test`.
const faultTagTests = readdirSync(new URL('./eval/faults/', import.meta.url))
  .filter((f) => f.endsWith('.test.ts') && f !== 'catalogue.test.ts' && f !== 'library.test.ts')
  .map((f) => `eval/faults/${f}`);
const withFaults = process.env.HARNESS_BENCH_FAULTS === '1';

// Slow suites, in CI as their own step (`npm run test:slow`, .ci/run) so that `npm test` answers in
// about 3 minutes on 2 cores: the fuzzers (thousands of generated runs each), the calibration of
// the black-box scorer (every scenario twice), and the end-to-end CLI runs that start the whole
// bench several times over. Everything else, the CLI's own tests included, stays in `npm test`.
const SLOW_TESTS = [
  'eval/fuzz/**/*.test.ts',
  'eval/adapters/calibration.test.ts',
  'eval/vitest-shard.test.ts',
  'cli/run-without-bwrap.test.ts',
  'cli/two-runs.test.ts',
  'cli/compare-run.test.ts',
  'cli/record-command.test.ts',
  'cli/record-batch.test.ts',
  'cli/merge-command.test.ts',
  'cli/your-harness.test.ts',
];
const slowOnly = process.env.HARNESS_BENCH_SLOW === '1';

// Test files that replace a module (vi.mock) need a module registry of their own; every other
// file of `npm test` shares its worker's registry (isolate: false), which takes the suite from
// about 4 minutes to under 2 on 2 cores: most of the time was each of ~750 files importing the
// harness again. A test that changes process-wide state restores it (cli/main.ts clears its
// --max-file-size when main() returns); `--sequence.shuffle` runs find one that does not.
const OWN_MODULES = ['harness/tools/path-cache.turn.test.ts', 'cli/fuzz-counterexample.test.ts'];

const exclude = [
  'node_modules/**',
  'reports/latest/**',
  // .stryker-tmp: StrykerJS's sandbox copies while `npm run mutate` runs.
  '.stryker-tmp/**',
  ...(withFaults ? [] : faultTagTests),
  ...(slowOnly || withFaults ? [] : SLOW_TESTS),
];
const common = {
  setupFiles: ['./test-setup.ts'],
  testTimeout: 90_000,
  // Hooks clean up temp trees (afterAll rmSync); on a loaded machine they need the same room.
  hookTimeout: 90_000,
  pool: 'forks' as const,
  // vitest's default on 2 cores is one worker; two halve the wall time here (npm test 116 → 82 s,
  // the slow suites' files are mostly child processes that wait).
  maxWorkers: 2,
};

// The fault library's tag files run two at a time too (`common.maxWorkers`): a fault's child waits
// on its cases' commands and sandboxes part of the time, and with the copy bundled once per fault
// (eval/faults/workbench.ts) the run took 6.4 minutes instead of 7.7 with one worker, on a machine
// busy with other work besides.

export default defineConfig({
  test:
    slowOnly || withFaults
      ? { ...common, include: slowOnly ? SLOW_TESTS : ['**/*.test.ts'], exclude }
      : {
          ...common,
          projects: [
            { test: { ...common, name: 'own-modules', include: OWN_MODULES, exclude } },
            {
              test: {
                ...common,
                name: 'shared',
                include: ['**/*.test.ts'],
                exclude: [...exclude, ...OWN_MODULES],
                isolate: false,
              },
            },
          ],
        },
});
