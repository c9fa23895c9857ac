// StrykerJS over the harness and the replay, import and record code with the *main job* as the
// only test (`npm run mutate`; every scenario and bundled recording under configs/default.json,
// the approved-behaviour gate included; not part of `npm test`: a full run takes hours on 2
// cores). The score says how much of that code the main job alone protects. docs/mutation.md has
// the figures; `npm run mutate:scores` prints them per folder from the JSON report.
//
// Test runner: scripts/stryker-scenario-runner.mjs (in-process, per-test coverage; why not the
// command runner is written there). Equivalent-mutant rules (what we exclude, and why):
// - string literals that are only prose: error messages, doc text, log lines, tool-result text a
//   model reads (StringLiteral stays on: strings that are data — tool names, verdicts, stop
//   reasons, paths, command words — must be protected; mark prose with
//   `// Stryker disable next-line StringLiteral: prose` only where a survivor shows up);
// - static mutants (reached only while modules load: constant tables, regexes built once) cannot
//   be switched at run time in one process: `ignoreStatic`;
// - a mutant whose change no caller can observe (e.g. a `>=` vs `>` on a value that never ties,
//   a defensive default the types make unreachable) is marked in place with
//   `// Stryker disable next-line <mutator>: <reason>`.
// Incremental: `reports/mutation/incremental.json` is git-ignored, a local cache only. Stryker
// diffs the mutated files and the scenario files, but not what else decides a kill (eval/
// expectation handlers, configs/), so a committed file would hand stale verdicts to the next
// branch; `npm run mutate -- --force` recomputes everything (do it for the figures of
// docs/mutation.md).

import { readFileSync } from 'node:fs';
import { globSync } from 'tinyglobby';

// What the issue of record asks Stryker to cover: all of harness/ and the replay, import and record
// code of eval/. Left out: tests and test helpers; harness/sandbox/ (the box's construction: a
// mutant there can let an escape scenario write to the host, so it is not mutated in place; its
// faults are in the fault library, `sandbox` tag, which runs them in a workbench copy); the
// testing helpers users import (harness/testing.ts, harness/testing/), which no case runs.
const INCLUDE = ['harness/**/*.ts', 'eval/replay/**/*.ts', 'eval/import/**/*.ts', 'eval/record/**/*.ts'];
const EXCLUDE = [
  '**/*.test.ts',
  '**/*.test-helpers.ts',
  'harness/sandbox/**',
  'harness/testing.ts',
  'harness/testing/**',
];
const MUTATE = [...INCLUDE, ...EXCLUDE.map((glob) => `!${glob}`)];
const BLOCK_LINES = 40;

/**
 * `MUTATE_SAMPLE=n npm run mutate`: a deterministic systematic sample of about 1/n of the mutants
 * when a full run does not fit the time at hand: every file (sorted by path, index i), cut in
 * blocks of 40 lines, keeps blocks i mod n, i mod n + n, … , so the sample is spread over every
 * folder and every part of a file alike, and two runs of one commit mutate the same code. n = 1 (or unset) mutates everything.
 * @param {number} n
 * @returns {string[]} Stryker `mutate` entries (`file:start-end` ranges, 1-based lines)
 */
function sample(n) {
  if (!(n > 1))
    return process.env.MUTATE_ONLY
      ? [`${process.env.MUTATE_ONLY}/**/*.ts`, ...EXCLUDE.map((glob) => `!${glob}`)]
      : MUTATE;
  const files = globSync(INCLUDE, { ignore: EXCLUDE }).sort();
  return files.flatMap((file, i) => {
    const lines = readFileSync(file, 'utf8').split('\n').length;
    const ranges = [];
    for (let block = i % n; block * BLOCK_LINES < lines; block += n)
      ranges.push(`${file}:${block * BLOCK_LINES + 1}-${Math.min(lines, (block + 1) * BLOCK_LINES)}`);
    return ranges;
  });
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  plugins: ['./scripts/stryker-scenario-runner.mjs'],
  testRunner: 'scenarios',
  coverageAnalysis: 'perTest',
  ignoreStatic: true,
  // `MUTATE_ONLY=harness/policy` keeps the entries under one folder (with `--force`: re-measure it).
  mutate: sample(Number(process.env.MUTATE_SAMPLE ?? 1)).filter(
    (entry) => !process.env.MUTATE_ONLY || entry.startsWith(process.env.MUTATE_ONLY) || entry.startsWith('!'),
  ),
  // The sandbox copy needs what a scenario run reads (scenarios, configs, eval/, cli/), not tests.
  ignorePatterns: ['reports', 'coverage', '.harness-bench', '.vitest-reports', 'docs', 'bench'],
  // Only the shared worker count this machine can spare; raise it on a free machine.
  concurrency: 1,
  timeoutMS: 10000,
  timeoutFactor: 2,
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  thresholds: { high: 90, low: 75, break: null },
  reporters: ['clear-text', 'json', 'progress'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0, reportScoreTable: true },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
