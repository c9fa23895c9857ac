/**
 * The fault library's runner: which cases belong to a tag, how they fare on the harness as it
 * is (the baseline, in this process), and whether a fault is caught: some case of its tag that
 * passed on the baseline fails or errors on the patched copy. A case that did not pass on the
 * baseline can never count as catching anything, so a broken scenario cannot make a fault look
 * caught.
 */
import path from 'node:path';
import { loadConfig, PACKAGE_ROOT } from '../config-load.ts';
import { loadCassettes, loadScenarioFiles, runSuite } from '../suite.ts';
import { CATALOGUE, REPLAY_RECORDINGS } from './catalogue/index.ts';
import type { Fault, FaultTag } from './types.ts';
import { outcomeOf, runInCopy, WorkbenchRunError, type CaseOutcome, type Workbench } from './workbench.ts';

/** The cases of one tag: scenario files tagged with it (and, for `replay`, the cassettes listed). */
export interface TagInputs {
  tag: FaultTag;
  /** Absolute paths of the scenario files, sorted. */
  scenarios: string[];
  /** The case id of each scenario file, by absolute path. */
  scenarioIds: Map<string, string>;
  recordings: string[];
}

/** Every scenario under `scenarios/` of `root`, with its tags. */
async function allScenarios(root: string) {
  return loadScenarioFiles(['scenarios'], root);
}

/** The inputs of `tag` in the repository at `root` (default: this package). */
export async function inputsForTag(tag: FaultTag, root: string = PACKAGE_ROOT): Promise<TagInputs> {
  const tagged = (await allScenarios(root)).filter(({ scenario }) => scenario.tags?.includes(tag));
  const scenarios = tagged.map((s) => s.absolutePath).sort();
  const scenarioIds = new Map(tagged.map((s) => [s.absolutePath, s.scenario.id]));
  const recordings = tag === 'replay' ? REPLAY_RECORDINGS.map((file) => path.join(root, file)) : [];
  return { tag, scenarios, scenarioIds, recordings };
}

/** Runs the inputs on the harness of this process under `configs/default.json`. */
export async function runBaseline(inputs: TagInputs, root: string = PACKAGE_ROOT): Promise<CaseOutcome[]> {
  const scenarios = inputs.scenarios.length > 0 ? await loadScenarioFiles(inputs.scenarios, root) : [];
  const recordings = inputs.recordings.length > 0 ? await loadCassettes(inputs.recordings, root) : [];
  const results = await runSuite({
    configs: [loadConfig()],
    scenarios,
    recordings,
    concurrency: 2,
    ...(process.env.CI && /^(1|true|yes)$/i.test(process.env.CI) ? { ci: true } : {}),
    version: 'baseline',
  });
  return results.cases.map(outcomeOf);
}

/** A fault's verdict: the cases that caught it, or why it could not be judged. */
export interface FaultVerdict {
  fault: Fault;
  /** Cases that passed on the baseline and fail with the fault (or end as the fault's `caughtAs` says), each with its `why`: the check that caught it. */
  caughtBy: CaseOutcome[];
  /** Cases that passed on the baseline and errored or were skipped with the fault, which its `caughtAs` does not count. */
  notCounted?: CaseOutcome[];
  /** No case of the tag passed on the baseline (all skipped here): nothing can be said. */
  unjudged?: string;
}

const key = (o: CaseOutcome) => `${o.id}\u0000${o.config}`;

/** Options of {@link judgeFault}. */
export interface JudgeOptions {
  /**
   * Run every case, to list every one that catches the fault (`npm run faults`). Otherwise the
   * child stops at the first case that fails or errors (`--bail`): when that case catches the
   * fault, the verdict holds the cases that ran by then; when it does not (an error the fault
   * does not declare, a cassette that failed on the baseline too), every case is run again.
   */
  allCatches?: boolean;
}

/**
 * Applies `fault` to the workbench, runs the tag's cases there and compares with `baseline`: the
 * fault is caught by every case that passed in `baseline` and does not pass patched (with
 * `allCatches` unset, by those among the cases that ran until the first catch).
 * @throws PatchDoesNotApplyError (stale fault), WorkbenchRunError (the patched harness cannot run)
 */
export async function judgeFault(
  bench: Workbench,
  fault: Fault,
  inputs: TagInputs,
  baseline: readonly CaseOutcome[],
  options: JudgeOptions = {},
): Promise<FaultVerdict> {
  const passed = new Set(baseline.filter((o) => o.status === 'pass').map(key));
  if (passed.size === 0)
    return { fault, caughtBy: [], unjudged: `no ${fault.tag} case passed here (all skipped?)` };
  // Only the scenarios that passed on the baseline run patched. One skipped there (its sandbox
  // missing on this machine) could not catch the fault anyway, and patched it could run what its
  // prerequisite guards: with `sandbox/missing-runs-unboxed` on a machine without bubblewrap,
  // the patched probe succeeds and the escape scenarios' scripts would write to /etc and $HOME.
  const scenarios = scenariosToJudge(inputs, baseline);
  bench.apply(fault);
  try {
    await bench.bundle();
    const run = async (bail: boolean) => {
      const outcomes = await runInCopy(bench.root, {
        scenarios,
        recordings: inputs.recordings,
        ...(bail ? { bail } : {}),
      });
      if (outcomes.length === 0) throw new WorkbenchRunError('the patched run reported no case');
      return {
        stopped: bail && outcomes.some((o) => o.status === 'fail' || o.status === 'error'),
        sorted: sortOutcomes(
          fault,
          outcomes.filter((o) => passed.has(key(o)) && o.status !== 'pass'),
        ),
      };
    };
    let { stopped, sorted } = await run(options.allCatches !== true);
    // --bail stopped on a case that does not count: the cases it did not start may still catch.
    if (stopped && sorted.caughtBy.length === 0) ({ sorted } = await run(false));
    return { fault, ...sorted };
  } finally {
    bench.reset();
  }
}

/**
 * Which of the cases that stopped passing under `fault` caught it: a failed check always; an
 * error or a skip (the patched harness made a prerequisite look missing, such as a box its own
 * probe refuses; under CI=true that skip is an error, eval/requirements.ts) only where the
 * fault's `caughtAs` declares it. The rest are `notCounted`. Pure.
 */
export function sortOutcomes(
  fault: Pick<Fault, 'caughtAs'>,
  changed: readonly CaseOutcome[],
): { caughtBy: CaseOutcome[]; notCounted?: CaseOutcome[] } {
  const counts = (o: CaseOutcome) =>
    o.status === 'fail' || (o.status !== 'pass' && (fault.caughtAs ?? []).includes(o.status));
  const notCounted = changed.filter((o) => !counts(o));
  return { caughtBy: changed.filter(counts), ...(notCounted.length > 0 ? { notCounted } : {}) };
}

/**
 * The scenario files of `inputs` to run on a patched copy: those whose case passed on `baseline`
 * (in any configuration), in their order. A skipped, failed or errored case is left out.
 */
export function scenariosToJudge(inputs: TagInputs, baseline: readonly CaseOutcome[]): string[] {
  const passedIds = new Set(baseline.filter((o) => o.status === 'pass').map((o) => o.id));
  return inputs.scenarios.filter((file) => passedIds.has(inputs.scenarioIds.get(file) ?? ''));
}

/** The faults of `tag`. */
export function faultsOf(tag: FaultTag): Fault[] {
  return CATALOGUE.filter((f) => f.tag === tag);
}
