// A StrykerJS test-runner plugin ("scenarios") that runs the scenario suite in-process, so the
// mutation score says how much of harness/ the scenarios alone protect (not the unit tests).
//
// Why not the command runner (`testRunner: "command"` with `node bin/harness-bench.js run -s
// scenarios/`): one such run costs ~33 s wall on this shared 2-core machine (≈20 s of it is
// starting Node and compiling the TypeScript through tsx), and it runs every scenario for every
// mutant: a few thousand mutants × 33 s is more than a day. This runner loads the harness and the
// scenarios once per worker (from Stryker's sandbox copy, through tsx), switches mutants at run
// time through `globalThis.__stryker__.activeMutant` (as Stryker's own vitest and mocha runners
// do), and records per-test coverage in the dry run (`__stryker__.currentTestId` = the case id,
// cases run one at a time), so a mutant run replays only the scenarios that reach the mutant.
//
// A "test" is one planned case of the main job under configs/default.json: every scenario and
// every bundled recording (an imported one re-imported from its source file: the importers' round
// trip), each through the approved-behaviour gate as in `npm start` (approved/: every request, tool
// result, verdict and event must equal the approved copy). A case that passed in the dry run and
// fails or errors under a mutant kills it; "behaviour changed" is such a failure. Mutants reached only while modules load (static
// mutants) cannot be switched at run time; the config sets `ignoreStatic`.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { commonTokens, declareClassPlugin, PluginKind, tokens } from '@stryker-mutator/api/plugin';
import { DryRunStatus, MutantRunStatus, TestStatus } from '@stryker-mutator/api/test-runner';

/** Runs the bundled scenarios (scenarios/ under the default configuration) as Stryker tests. */
class ScenarioTestRunner {
  static inject = tokens(commonTokens.logger, commonTokens.options);

  /** @param {import('@stryker-mutator/api/logging').Logger} logger */
  constructor(logger, options) {
    this.logger = logger;
    this.scenarioGlobs = options.scenarioRunner?.scenarios ?? ['scenarios'];
    this.withRecordings = options.scenarioRunner?.recordings ?? true;
    this.cases = [];
  }

  capabilities() {
    // ESM modules cannot be unloaded: a static mutant needs a fresh worker, which Stryker starts.
    return { reloadEnvironment: false };
  }

  async init() {
    const { register } = await import('tsx/esm/api');
    register();
    const root = process.cwd(); // Stryker's sandbox copy, with the instrumented harness/
    const load = (file) => import(pathToFileURL(path.join(root, file)).href);
    const suite = await load('eval/suite.ts');
    const configLoad = await load('eval/config-load.ts');
    const scorers = await load('eval/expect/scorers.ts');
    const configs = [configLoad.loadConfig()]; // configs/default.json of the sandbox
    const scenarios = await suite.loadScenarioFiles(this.scenarioGlobs, root);
    const recordings = this.withRecordings ? await suite.loadCassettes(['recordings'], root) : [];
    const { approvalGate } = await load('eval/approved/gate.ts');
    const { boxUsable } = await load('eval/adapters/box.ts');
    const gate = approvalGate({ dir: path.join(root, 'approved'), mode: 'check', sandbox: boxUsable() });
    const problems = await scorers.prepareScorers(configs, scenarios);
    if (problems.length > 0) throw new Error(`scenario scorers: ${JSON.stringify(problems)}`);
    const shell = await load('harness/policy/shell-analysis.ts');
    // Caches that outlive a case would hide mutants: the dry run fills them and a mutant's run
    // reads the verdict computed before the mutant was switched on. Each case therefore starts
    // cold: the shell-analysis cache is emptied and the case gets its own copy of the
    // configuration (the policy's verdict cache is keyed by the configuration's rule list).
    // Left warm, by design: compiled glob and command patterns (policy.ts, pattern.ts,
    // sensitive-paths.ts), keyed by pattern text — a mutant inside those compile steps is seen
    // only by the first case that compiles the pattern.
    this.runCase = async (planned) => {
      shell.clearAnalysisCache();
      const { result, run } = await suite.runCaseWithRun({
        ...planned,
        config: structuredClone(planned.config),
      });
      return gate.apply(result, run);
    };
    this.cases = suite.planCases({ configs, scenarios, recordings });
    this.logger.info(
      `scenario runner: ${this.cases.length} cases (${recordings.length} recordings) from ${this.scenarioGlobs.join(', ')}, approved behaviour checked`,
    );
  }

  /** @param {import('@stryker-mutator/api/test-runner').DryRunOptions} options */
  async dryRun(options) {
    const ns = stryker();
    ns.activeMutant = undefined;
    const tests = [];
    for (const planned of this.cases) {
      ns.currentTestId = options.coverageAnalysis === 'perTest' ? planned.id : undefined;
      const started = performance.now();
      const result = await this.runCase(planned);
      ns.currentTestId = undefined;
      tests.push(toTestResult(planned, result, performance.now() - started));
    }
    return { status: DryRunStatus.Complete, tests, mutantCoverage: ns.mutantCoverage };
  }

  /** @param {import('@stryker-mutator/api/test-runner').MutantRunOptions} options */
  async mutantRun(options) {
    const ns = stryker();
    const filter = options.testFilter ? new Set(options.testFilter) : undefined;
    const cases = filter ? this.cases.filter((c) => filter.has(c.id)) : this.cases;
    ns.activeMutant = options.activeMutant.id;
    ns.hitLimit = options.hitLimit;
    ns.hitCount = options.hitLimit === undefined ? undefined : 0;
    const killedBy = [];
    let failureMessage = '';
    let ran = 0;
    try {
      for (const planned of cases) {
        ran++;
        const result = await this.runCase(planned);
        if (ns.hitLimit !== undefined && ns.hitCount > ns.hitLimit)
          return { status: MutantRunStatus.Timeout, reason: `hit limit ${ns.hitLimit} reached` };
        if (result.status === 'fail' || result.status === 'error') {
          killedBy.push(planned.id);
          failureMessage ||= `${planned.id}: ${describe(result)}`;
          if (!options.disableBail) break;
        }
      }
    } finally {
      ns.activeMutant = undefined;
      ns.hitCount = undefined;
      ns.hitLimit = undefined;
    }
    return killedBy.length > 0
      ? { status: MutantRunStatus.Killed, killedBy, failureMessage, nrOfTests: ran }
      : { status: MutantRunStatus.Survived, nrOfTests: ran };
  }
}

function stryker() {
  globalThis.__stryker__ ??= {};
  return globalThis.__stryker__;
}

function describe(result) {
  return `${result.status}: ${result.firstFailure ?? ''}`.slice(0, 500);
}

function toTestResult(planned, result, timeSpentMs) {
  const base = {
    id: planned.id,
    name: planned.id,
    timeSpentMs: Math.round(timeSpentMs),
    ...(planned.kind === 'scenario' ? { fileName: planned.scenario.file } : {}),
  };
  if (result.status === 'pass') return { ...base, status: TestStatus.Success };
  if (result.status === 'skipped') return { ...base, status: TestStatus.Skipped };
  return { ...base, status: TestStatus.Failed, failureMessage: describe(result) };
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'scenarios', ScenarioTestRunner)];
