/**
 * Runs one scenario under one configuration: builds the temp workspace and `$OUTSIDE`, runs the
 * harness with the scripted model and approver, checks every expectation, and returns a
 * {@link CaseResult}. A scenario whose expectations do not hold is `fail`; a harness or runner
 * exception is `error`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deterministicDeps, type HarnessDeps } from '../harness/deps.ts';
import { mergeConfig, type HarnessConfig } from '../harness/config.ts';
import type { RunResult } from '../harness/ledger.ts';
import { runHarness } from '../harness/loop/run.ts';
import { ScriptedModel } from '../harness/model/scripted-model.ts';
import { builtinTools } from '../harness/tools/builtin/index.ts';
import type { ToolDefinition } from '../harness/tools/types.ts';
import { scriptedApprover } from './scenario/approver.ts';
import { resolveScorers } from './expect/scorers.ts';
import { caseMetrics } from './metrics/case-facts.ts';
import { checkExpectations } from './scenario/check.ts';
import { fakeTools } from './scenario/fake-tools.ts';
import type { LoadedScenario, Scenario } from './scenario/types.ts';
import { buildWorkspace, diffSnapshots, snapshotTree } from './scenario/workspace.ts';
import { caseSandbox } from './unavailable-sandbox.ts';
import { roundTripChecks } from './record-round-trip.ts';
import type { BenchOptions } from './config-load.ts';
import { OUTSIDE_LABEL, runnerPathLabels } from './path-labels.ts';
import {
  checkRequirements,
  explainMissingSandbox,
  unmetCase,
  type PrerequisitePolicy,
  type SandboxProbe,
} from './requirements.ts';
import { caseFromRun, errorCase, scrubPaths, type CaseResult, type Check } from './results.ts';

/** A scenario run's full outcome: the case result plus the raw run (for tests and reports). */
export interface ScenarioRun {
  result: CaseResult;
  run?: RunResult;
}

/**
 * The configuration a scenario runs under: the one under test with the scenario's `config` merged
 * over it. A scenario may tune a defence's thresholds, never switch on one the configuration has
 * off: loop detection off (its `stopAt` past the configuration's tool-call budget, so it can never
 * fire, as in `configs/naive.json`) stays off, and so does each context layer set `false`. A
 * comparison then shows what turning a defence off costs. Pure.
 */
export function scenarioConfig(scenario: Scenario, base: HarnessConfig): HarnessConfig {
  const merged = mergeConfig(base, scenario.config ?? {});
  const loopOff = base.loop.stopAt > base.limits.maxToolCalls;
  const layers = Object.fromEntries(
    Object.entries(merged.context.layers).map(([name, on]) => [
      name,
      on && base.context.layers[name as keyof typeof base.context.layers] !== false,
    ]),
  ) as HarnessConfig['context']['layers'];
  return {
    ...merged,
    ...(loopOff ? { loop: base.loop } : {}),
    context: { ...merged.context, layers },
  };
}

/** The tools of a scenario: its built-ins (or the configuration's) plus its fake tools (a fake tool may stand in for a built-in name). */
export function scenarioTools(scenario: Scenario, config: HarnessConfig): ToolDefinition[] {
  const fakes = fakeTools(scenario.fakeTools ?? {});
  const fakeNames = new Set(fakes.map((t) => t.name));
  const names = (scenario.tools ?? config.tools).filter((name) => !fakeNames.has(name));
  return [...builtinTools(names), ...fakes];
}

/** Options of {@link runScenario}. */
export interface ScenarioRunOptions extends PrerequisitePolicy {
  deps?: HarnessDeps;
  /** Probes the sandboxes for `requires` (tests). @default probeSandbox, cached per process */
  probe?: SandboxProbe;
}

/**
 * `result` with the case's temp folders (the workspace, `$OUTSIDE`) replaced by their labels, when
 * they were built: a runner exception may name them. Shared by our runner and the adapter runner.
 */
export function scrubTempFolders<T>(result: T, built: { workspace: string; outside: string } | undefined): T {
  return built
    ? scrubPaths(result, [
        [built.workspace, '$WS'],
        [built.outside, OUTSIDE_LABEL],
      ])
    : result;
}

/**
 * The fields every result of `loaded` under the configuration `configName` starts with (id, kind,
 * config, file, title, tags, no divergences, and `expectFor` when the scenario has a block for
 * that configuration); shared by our runner and the adapter runner (`eval/adapters`). Pure.
 */
export function scenarioCaseBase(loaded: LoadedScenario, configName: string, expectAs = configName) {
  const { scenario } = loaded;
  return {
    id: scenario.id,
    kind: 'scenario' as const,
    config: configName,
    file: loaded.file,
    ...(scenario.title ? { title: scenario.title } : {}),
    tags: scenario.tags ?? [],
    divergences: [],
    ...(scenario.expectFor && Object.hasOwn(scenario.expectFor, expectAs) ? { expectFor: expectAs } : {}),
  };
}

/**
 * Runs one loaded scenario. A scenario whose `requires` are missing here is not run: it is
 * `skipped` with the reason and the fix (under `ci`, a missing sandbox is an `error`); so is a
 * failed run that met a missing sandbox it did not declare (`requirements.ts`).
 * @param base the configuration and the name shown in results (`default`, `strict`, …)
 */
export async function runScenario(
  loaded: LoadedScenario,
  base: { name: string; config: HarnessConfig; bench?: BenchOptions; expectAs?: string },
  options: ScenarioRunOptions = {},
): Promise<ScenarioRun> {
  const { scenario } = loaded;
  const started = performance.now();
  const caseBase = scenarioCaseBase(loaded, base.name, base.expectAs);
  let built: Awaited<ReturnType<typeof buildWorkspace>> | undefined;
  let notesDir: string | undefined;
  /** A fresh notes database per scenario, outside `$WS` and `$OUTSIDE`. */
  const scenarioNotesPath = async () => {
    notesDir = await mkdtemp(path.join(tmpdir(), 'hb-notes-'));
    return path.join(notesDir, 'notes.db');
  };
  try {
    const config = scenarioConfig(scenario, base.config);
    // A sandbox made unavailable on purpose: a sandbox_unavailable result is the point, never a skip.
    const unavailable = scenario.sandbox === 'unavailable' || base.bench?.sandbox === 'unavailable';
    const prerequisites = {
      sandboxKind: config.sandbox.kind,
      ...(options.probe ? { probe: options.probe } : {}),
      ...(options.platform ? { platform: options.platform } : {}),
      ci: options.ci === true,
    };
    const unmet = await checkRequirements(scenario.requires ?? [], prerequisites);
    if (unmet.length > 0) return { result: unmetCase(caseBase, unmet, true, prerequisites, started) };
    const scorers = await resolveScorers(base, loaded);
    built = await buildWorkspace(scenario);
    const before = await built.snapshotOutside();
    const workspaceBefore = await snapshotTree(built.workspace, true);
    const deps = options.deps ?? deterministicDeps();
    deps.approver = scriptedApprover(scenario.approver, built.workspace);
    const notesPath = await scenarioNotesPath();
    deps.pathLabels = runnerPathLabels([
      { path: built.outside, label: OUTSIDE_LABEL },
      { path: notesDir!, label: '$NOTES' },
    ]);
    const model = new ScriptedModel(scenario.model);
    const run = await runHarness({
      task: scenario.task,
      config,
      model,
      tools: scenarioTools(scenario, config),
      sandbox: caseSandbox(config, built.workspace, unavailable),
      workspace: built.workspace,
      deps,
      notesPath,
    });
    const after = await built.snapshotOutside();
    const outsideChanges = diffSnapshots(before, after);
    const workspaceChanges = diffSnapshots(workspaceBefore, await snapshotTree(built.workspace, true));
    const checks: Check[] = await checkExpectations(
      scenario,
      run,
      { workspace: built.workspace, outside: built.outside, outsideChanges, workspaceChanges },
      base.expectAs ?? base.name,
      scorers,
    );
    // The recorder's round trip, for a scenario that plants secrets (`record-round-trip.ts`).
    if (scenario.roundTrip)
      checks.push(...(await roundTripChecks(loaded, config, scenarioTools(scenario, config))));
    const attackCheck = checks.find((c) => c.name === 'attack');
    const result: CaseResult = {
      ...caseFromRun(caseBase, run, checks, started),
      metrics: caseMetrics(run, workspaceChanges),
      ...(attackCheck
        ? {
            attack: {
              succeeded: Boolean((attackCheck.observed as { succeeded?: boolean } | undefined)?.succeeded),
            },
          }
        : {}),
    };
    // No scrubbing: the harness shows the model `$WS`/`$OUTSIDE` itself (deps.pathLabels), and the two-run test holds it to that.
    const declared = { ...prerequisites, declared: scenario.requires ?? [] };
    return {
      result: unavailable ? result : await explainMissingSandbox(result, run, declared, started),
      run,
    };
  } catch (error) {
    // A runner exception (file system, check) may name the temp folders: only here are they replaced.
    return { result: scrubTempFolders(errorCase(caseBase, error, started), built) };
  } finally {
    await built?.cleanup();
    if (notesDir) await rm(notesDir, { recursive: true, force: true }).catch(() => undefined);
  }
}
