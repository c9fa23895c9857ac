/**
 * The run planner and executor: cases (scenarios × configurations, recordings × configurations)
 * run through a concurrency pool, each result reported as it ends, the results file built at the
 * end with cases in a stable order (plan order), whatever the completion order.
 */
import path from 'node:path';
import { glob } from 'tinyglobby';
import { loadCassette } from './cassette/load.ts';
import type { Cassette } from './cassette/types.ts';
import type { NamedConfig } from './config-load.ts';
import { InputError, type InputProblem } from './errors.ts';
import { summarise, type CaseResult, type ResultsFile } from './results.ts';
import { runRecording } from './run-recording.ts';
import { loadSidecar, type ToolEffectRule } from './replay/tool-effects.ts';
import { runScenario } from './run-scenario.ts';
import { loadScenarios } from './scenario/load.ts';
import type { LoadedScenario } from './scenario/types.ts';

/** A recording to replay. */
export interface LoadedCassette {
  file: string;
  cassette: Cassette;
  /** Tool-effect rules of the cassette's sidecar `<cassette>.tools.json`, when it has one. */
  toolEffects?: ToolEffectRule[];
}

/** One planned case. */
export type PlannedCase =
  | { kind: 'scenario'; id: string; scenario: LoadedScenario; config: NamedConfig }
  | { kind: 'recording'; id: string; recording: LoadedCassette; config: NamedConfig };

/** Options of {@link runSuite}. */
export interface SuiteOptions {
  configs: NamedConfig[];
  scenarios: LoadedScenario[];
  recordings: LoadedCassette[];
  /** Keep only cases whose id contains this text (case-insensitive). */
  filter?: string;
  /** Cases at once. @default 2 */
  concurrency?: number;
  /** Stop starting new cases after the first failure or error. */
  bail?: boolean;
  /** Called as each case ends, with the count done and the total. */
  onCaseEnd?: (result: CaseResult, done: number, total: number) => void;
  version: string;
}

/**
 * Loads every cassette matched by the globs (a plain folder means every `.json` under it), with
 * its tool-effects sidecar (`<cassette>.tools.json`, never taken for a cassette itself).
 * @throws InputError listing every unreadable or invalid cassette or sidecar.
 */
export async function loadCassettes(patterns: readonly string[], cwd: string): Promise<LoadedCassette[]> {
  const files = new Set<string>();
  const problems: InputProblem[] = [];
  for (const pattern of patterns) {
    const expanded = /[*?{[]/.test(pattern)
      ? pattern
      : pattern.endsWith('.json')
        ? pattern
        : `${pattern.replace(/\/$/, '')}/**/*.json`;
    const matched = await glob(expanded, {
      cwd,
      absolute: true,
      ignore: ['**/node_modules/**', '**/schema/**', '**/*.tools.json'],
    });
    if (matched.length === 0)
      problems.push({ file: pattern, path: '', reason: 'no cassette matches this path or glob' });
    for (const file of matched) files.add(file);
  }
  const out: LoadedCassette[] = [];
  for (const file of [...files].sort()) {
    const shown = path.relative(cwd, file) || file;
    try {
      const toolEffects = loadSidecar(file);
      out.push({
        file: shown,
        cassette: loadCassette(file),
        ...(toolEffects.length > 0 ? { toolEffects } : {}),
      });
    } catch (error) {
      if (error instanceof InputError) problems.push(...error.problems.map((p) => ({ ...p, file: shown })));
      else throw error;
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  return out;
}

/** Loads scenarios from globs (see `loadScenarios`). @throws InputError */
export async function loadScenarioFiles(patterns: readonly string[], cwd: string): Promise<LoadedScenario[]> {
  return (await loadScenarios([...patterns], cwd)).scenarios;
}

/** The cases to run, in a stable order: scenarios then recordings, each by id, per configuration. */
export function planCases(
  options: Pick<SuiteOptions, 'configs' | 'scenarios' | 'recordings' | 'filter'>,
): PlannedCase[] {
  const filter = options.filter?.toLowerCase();
  const keep = (id: string) => !filter || id.toLowerCase().includes(filter);
  const cases: PlannedCase[] = [];
  for (const config of options.configs) {
    for (const scenario of [...options.scenarios].sort((a, b) => a.scenario.id.localeCompare(b.scenario.id)))
      if (keep(scenario.scenario.id))
        cases.push({ kind: 'scenario', id: scenario.scenario.id, scenario, config });
    for (const recording of [...options.recordings].sort((a, b) =>
      a.cassette.meta.id.localeCompare(b.cassette.meta.id),
    )) {
      const id = `recording/${recording.cassette.meta.id}`;
      if (keep(id)) cases.push({ kind: 'recording', id, recording, config });
    }
  }
  return cases;
}

/** Runs one planned case. Never throws. */
export async function runCase(planned: PlannedCase): Promise<CaseResult> {
  if (planned.kind === 'scenario') return (await runScenario(planned.scenario, planned.config)).result;
  const { cassette, file, toolEffects } = planned.recording;
  return (await runRecording(cassette, file, planned.config, toolEffects ? { toolEffects } : {})).result;
}

/** Runs the suite and builds the results file. */
export async function runSuite(options: SuiteOptions): Promise<ResultsFile> {
  const startedAt = new Date();
  const started = performance.now();
  const planned = planCases(options);
  const results: (CaseResult | undefined)[] = new Array(planned.length);
  let next = 0;
  let done = 0;
  let stop = false;
  const worker = async () => {
    while (!stop && next < planned.length) {
      const index = next;
      next += 1;
      const result = await runCase(planned[index]!);
      results[index] = result;
      done += 1;
      options.onCaseEnd?.(result, done, planned.length);
      if (options.bail && result.status !== 'pass') stop = true;
    }
  };
  const concurrency = Math.max(1, options.concurrency ?? 2);
  await Promise.all(Array.from({ length: Math.min(concurrency, planned.length) }, worker));
  const cases = results.filter((r): r is CaseResult => r !== undefined);
  return {
    format: 'harness-bench.results',
    version: 1,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - started),
    tool: { name: 'harness-bench', version: options.version },
    configs: options.configs.map((c) => ({
      name: c.name,
      file: path.relative(process.cwd(), c.file) || c.file,
    })),
    cases,
    summary: summarise(cases),
  };
}
