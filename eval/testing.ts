/**
 * `harness-bench/testing`: run scenarios inside your own vitest suite.
 *
 * ```ts
 * import { runScenario } from 'harness-bench/testing';
 * const { result } = await runScenario('scenarios/bad-json/missing-colon.json');
 * expect(result.status).toBe('pass');
 * ```
 */
import path from 'node:path';
import { DEFAULT_CONFIG_FILE, loadConfig, type NamedConfig } from './config-load.ts';
import { InputError } from './errors.ts';
import { runScenario as runLoadedScenario, type ScenarioRun } from './run-scenario.ts';
import { loadScenarios, validateScenario } from './scenario/load.ts';
import type { LoadedScenario, Scenario } from './scenario/types.ts';

export { ScriptedModel } from '../harness/model/scripted-model.ts';
export { deterministicDeps } from '../harness/deps.ts';
export type { Scenario } from './scenario/types.ts';
export type { CaseResult, Check } from './results.ts';
export type { ScenarioRun } from './run-scenario.ts';

/**
 * Runs one scenario, given as a file path (JSON or YAML) or as an object, under a configuration
 * file (default `configs/default.json`). Resolves with the case result (`status`, `checks`) and
 * the raw run (transcript, events, ledger).
 * @throws InputError when the scenario or the configuration is invalid.
 */
export async function runScenario(scenario: string | Scenario, options: { config?: string; cwd?: string } = {}): Promise<ScenarioRun> {
  const cwd = options.cwd ?? process.cwd();
  const config: NamedConfig = loadConfig(options.config ? path.resolve(cwd, options.config) : DEFAULT_CONFIG_FILE);
  let loaded: LoadedScenario;
  if (typeof scenario === 'string') {
    const { scenarios } = await loadScenarios([scenario], cwd);
    if (scenarios.length !== 1) throw new InputError([{ file: scenario, path: '', reason: `expected one scenario, found ${scenarios.length}` }]);
    loaded = scenarios[0]!;
  } else {
    const problems = validateScenario(scenario, '(inline scenario)');
    if (problems.length > 0) throw new InputError(problems);
    loaded = { file: '(inline scenario)', absolutePath: '', scenario };
  }
  return runLoadedScenario(loaded, config);
}
