/**
 * The fuzzing driver: for one generator family, runs `runs` generated cases through the harness
 * (fast-check 4, `fc.check`), checks every invariant on each run, and on a failure lets
 * fast-check shrink the case, replays the smallest one and (with `save`) writes it as a scenario
 * file. Used by `harness-bench fuzz` and by the `*.prop.test.ts` files (which honour
 * `HB_FUZZ_SAVE=dir`).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import type { HarnessConfig } from '../../harness/config.ts';
import { caseArb, type Family } from './case.ts';
import { saveCounterexample, type SavedCounterexample } from './counterexample.ts';
import { checkRun } from './oracles.ts';
import { minimizeCase } from './minimize.ts';
import { disposeFuzzWorkspace, runCase } from './runner.ts';
import type { FuzzCase, Observation, Violation } from './types.ts';

/** Options of {@link fuzzFamily}. */
export interface FuzzOptions {
  /** Generated runs. */
  runs: number;
  /** fast-check seed; absent: the global one (CI's fixed seed, `test-setup.ts`) or a random one. */
  seed?: number;
  /** The configuration the cases run under (as `harness-bench run` would use it). */
  base: { name: string; config: HarnessConfig };
  /** Folder to write the shrunk counterexample into, as a scenario file. */
  save?: string;
  /** Called after every run with the number of runs done so far. */
  onRun?: (done: number) => void;
}

/** The outcome for one family. */
export interface FamilyReport {
  family: Family;
  /** Runs made (generated cases plus shrinking attempts). */
  runs: number;
  seed: number;
  failed: boolean;
  /** Shrinking steps that kept the failure (fast-check's), plus the re-runs of the second pass (`minimize.ts`). */
  shrinks: number;
  /** The smallest failing case and what it broke. */
  counterexample?: FuzzCase;
  violations?: Violation[];
  /** `fc` replay path: with `seed`, replays the failing case directly. */
  path?: string;
  saved?: SavedCounterexample;
  ms: number;
}

/** Runs one case and checks it. */
export async function checkCase(
  fuzzCase: FuzzCase,
  base: HarnessConfig,
): Promise<{ observation: Observation; violations: Violation[] }> {
  const observation = await runCase(fuzzCase, base);
  return { observation, violations: checkRun(observation) };
}

/** Fuzzes one family. Never throws for a harness failure: it is reported. */
export async function fuzzFamily(family: Family, options: FuzzOptions): Promise<FamilyReport> {
  const started = performance.now();
  let done = 0;
  const property = fc.asyncProperty(caseArb(family), async (fuzzCase) => {
    const { violations } = await checkCase(fuzzCase, options.base.config);
    done += 1;
    options.onRun?.(done);
    return violations.length === 0;
  });
  const details = await fc.check(property, {
    numRuns: options.runs,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  });
  const report: FamilyReport = {
    family,
    runs: done,
    seed: details.seed,
    failed: details.failed,
    shrinks: details.numShrinks,
    ms: 0,
  };
  if (details.failed && details.counterexample) {
    const [shrunk] = details.counterexample;
    const first = await checkCase(shrunk, options.base.config);
    let fuzzCase = shrunk;
    let { violations } = first;
    if (violations.length > 0) {
      const smaller = await minimizeCase(shrunk, violations, options.base.config, checkCase);
      report.shrinks += smaller.runs;
      ({ fuzzCase, violations } = smaller);
    } else
      violations = [
        {
          invariant: 'never-throws',
          message: `the property failed but not on a re-run (flaky): ${String(details.errorInstance ?? '')}`,
        },
      ];
    const { observation } = await checkCase(fuzzCase, options.base.config);
    report.counterexample = fuzzCase;
    report.violations = violations;
    if (details.counterexamplePath) report.path = details.counterexamplePath;
    if (options.save)
      report.saved = await saveCounterexample(
        options.save,
        fuzzCase,
        violations,
        observation.result,
        options.base,
      );
  }
  disposeFuzzWorkspace();
  report.ms = Math.round(performance.now() - started);
  return report;
}

/** A report as lines for a person: the outcome, the seed to replay, the violations, the saved files. */
export function describeReport(report: FamilyReport): string {
  const head = `${report.family}: ${report.runs} runs in ${(report.ms / 1000).toFixed(1)} s, seed ${report.seed}`;
  if (!report.failed) return `${head}: every invariant held`;
  const lines = [`${head}: FAILED after ${report.shrinks} shrinks`];
  for (const v of report.violations ?? []) lines.push(`  ${v.invariant}: ${v.message.split('\n')[0]}`);
  if (report.path) lines.push(`  replay: --seed ${report.seed} (fast-check path ${report.path})`);
  if (report.saved) {
    lines.push(
      `  scenario: ${report.saved.file}${report.saved.reproduces ? ' (fails under harness-bench run)' : ''}`,
    );
    lines.push(`  case: ${report.saved.caseFile}`);
    for (const p of report.saved.problems) lines.push(`  invalid scenario: ${p}`);
    for (const n of report.saved.notes) lines.push(`  note: ${n}`);
  } else if (report.counterexample)
    lines.push(`  counterexample: ${JSON.stringify(report.counterexample).slice(0, 2000)}`);
  return lines.join('\n');
}

/**
 * Replays a `.case.json` file the writer saved: runs the case again and checks it.
 * @throws Error when the file is not a saved case
 */
export async function replayCaseFile(file: string, base: HarnessConfig): Promise<Violation[]> {
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { case?: FuzzCase };
  if (!saved.case?.scenario || !saved.case.transport) throw new Error(`${file} is not a saved fuzz case`);
  return (await checkCase(saved.case, base)).violations;
}
