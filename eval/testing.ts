/**
 * `harness-bench/testing`: run scenarios and replay cassettes inside your own vitest suite.
 *
 * ```ts
 * import { replayCassette, runScenario } from 'harness-bench/testing';
 * const { result } = await runScenario('scenarios/bad-json/missing-colon.json');
 * expect(result.status).toBe('pass');
 *
 * const replay = await replayCassette('recordings/mine.json', { config: 'configs/strict.json' });
 * expect(replay).toReplayClean();
 *
 * describeScenarios('scenarios/**\/*.yaml'); // one vitest test per scenario
 * ```
 *
 * Importing this module registers the matchers `toPassScenario` and `toReplayClean` with
 * vitest's `expect` (`eval/testing-vitest.ts`); it needs vitest in your project.
 */
import path from 'node:path';
import { DEFAULT_CONFIG_FILE, loadConfig, type NamedConfig } from './config-load.ts';
import { InputError } from './errors.ts';
import { resolveHarness } from './adapters/load.ts';
import { assertLaunchable } from './adapters/requires.ts';
import { runAdapterScenario } from './adapters/run-adapter.ts';
import { runScenario as runLoadedScenario, type ScenarioRun } from './run-scenario.ts';
import { loadCassette } from './cassette/load.ts';
import { runRecording, type RecordingRun } from './run-recording.ts';
import type { MatchMode } from './replay/http-replay.ts';
import type { LedgerDifference } from './replay/ledger-diff.ts';
import { formatDivergence } from './replay/request-diff.ts';
import { ScriptedModel, type ScriptedTurn } from '../harness/model/scripted-model.ts';
import type { Model } from '../harness/model/types.ts';
import { loadScenarios } from './scenario/load.ts';
import { validateScenario } from './scenario/validate.ts';
import type { LoadedScenario, Scenario } from './scenario/types.ts';

import { describeScenariosWith, type DescribeScenariosOptions } from './testing-vitest.ts';

export { describeFailedChecks, matchers, type DescribeScenariosOptions } from './testing-vitest.ts';
export { ScriptedModel } from '../harness/model/scripted-model.ts';
export { deterministicDeps } from '../harness/deps.ts';
export type { Scenario } from './scenario/types.ts';
export type { CaseResult, Check } from './results.ts';
export type { Scorer, ScorerInput } from './expect/context.ts';
export type { ScenarioRun } from './run-scenario.ts';
export type { RecordingRun } from './run-recording.ts';
export type { LedgerDifference } from './replay/ledger-diff.ts';

/** Options of {@link runScenario}. Paths are relative to `cwd`. */
export interface RunScenarioOptions {
  /** Configuration file. @default configs/default.json of the package */
  config?: string;
  /** @default process.cwd() */
  cwd?: string;
  /**
   * The harness under test: `ours` (in-process, the default), an adapter file's path, or the
   * name of a shipped adapter (`docs/adapters.md`). A foreign harness is scored as a black box
   * and its run is the run seen from outside.
   */
  harness?: string;
}

/**
 * Runs one scenario, given as a file path (JSON or YAML) or as an object, under a configuration
 * file (default `configs/default.json`). Resolves with the case result (`status`, `checks`) and
 * the raw run (transcript, events, ledger), against our harness or `options.harness`.
 * @throws InputError when the scenario, the configuration or the adapter file is invalid.
 * @throws HarnessBenchError `ADAPTER_COMMAND_MISSING` (environment) when an adapter's program is missing.
 */
export async function runScenario(
  scenario: string | Scenario,
  options: RunScenarioOptions = {},
): Promise<ScenarioRun> {
  const cwd = options.cwd ?? process.cwd();
  const config: NamedConfig = loadConfig(
    options.config ? path.resolve(cwd, options.config) : DEFAULT_CONFIG_FILE,
  );
  let loaded: LoadedScenario;
  if (typeof scenario === 'string') {
    const { scenarios } = await loadScenarios([scenario], cwd);
    if (scenarios.length !== 1)
      throw new InputError([
        { file: scenario, path: '', reason: `expected one scenario, found ${scenarios.length}` },
      ]);
    loaded = scenarios[0]!;
  } else {
    const problems = validateScenario(scenario, '(inline scenario)');
    if (problems.length > 0) throw new InputError(problems);
    loaded = { file: '(inline scenario)', absolutePath: '', scenario };
  }
  const harness = resolveHarness(options.harness, cwd);
  if (harness.kind === 'ours') return runLoadedScenario(loaded, config);
  assertLaunchable(harness);
  return runAdapterScenario(loaded, config, harness);
}

/** Options of {@link replayCassette}. Paths are relative to `cwd`. */
export interface ReplayCassetteOptions {
  /** Configuration file. @default configs/default.json of the package */
  config?: string;
  /** @default process.cwd() */
  cwd?: string;
  /** @default strict for cassettes recorded by harness-bench, sequential for imported ones */
  match?: MatchMode;
  /** A real folder to use as the workspace instead of a fresh copy of the fixture. */
  workspace?: string;
  /** Counterfactual replays: scripted turns (or any model) that take over at the first divergence. */
  then?: ScriptedTurn[] | Model;
}

/** A replay with the two facts a test asserts on. */
export interface CassetteReplay extends RecordingRun {
  /** The replay passed: for our cassettes, the ledger, every request and every exchange matched. */
  passed: boolean;
  /** The first divergence as one line (decision, recorded vs now, and its cause); absent when none. */
  firstDivergence?: string;
  /** Every step whose decisions differ from the recorded ledger (our cassettes only). */
  differences: LedgerDifference[];
}

/**
 * Replays a cassette with the model frozen and the harness live, offline, under a configuration.
 * Never reaches the network: recorded exchanges are served in memory.
 * @throws InputError when the cassette or the configuration is invalid.
 */
export async function replayCassette(
  file: string,
  options: ReplayCassetteOptions = {},
): Promise<CassetteReplay> {
  const cwd = options.cwd ?? process.cwd();
  const config: NamedConfig = loadConfig(
    options.config ? path.resolve(cwd, options.config) : DEFAULT_CONFIG_FILE,
  );
  const cassette = loadCassette(path.resolve(cwd, file));
  const then = Array.isArray(options.then)
    ? new ScriptedModel(options.then, { name: 'counterfactual' })
    : options.then;
  const replay = await runRecording(cassette, file, config, {
    ...(options.match ? { match: options.match } : {}),
    ...(options.workspace ? { workspace: path.resolve(cwd, options.workspace) } : {}),
    ...(then ? { then } : {}),
  });
  const firstRequest = replay.result.divergences[0];
  const firstDivergence = replay.comparison
    ? replay.comparison.headline
    : firstRequest
      ? `request ${firstRequest.exchange}: ${formatDivergence(firstRequest)}`
      : undefined;
  return {
    ...replay,
    passed: replay.result.status === 'pass',
    ...(firstDivergence ? { firstDivergence } : {}),
    differences: replay.comparison?.ledgerDifferences ?? [],
  };
}

/**
 * One vitest test per scenario file matched by `patterns` (files, folders or globs, relative to
 * `options.cwd`), each asserting {@link runScenario}'s run with `toPassScenario`; skipped cases
 * are reported as skipped with their fix. See `eval/testing-vitest.ts`.
 */
export function describeScenarios(
  patterns: string | readonly string[],
  options: DescribeScenariosOptions = {},
): void {
  describeScenariosWith((file, o) => runScenario(file, o), patterns, options);
}
