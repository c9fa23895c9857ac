/**
 * Writes a (shrunk) failing fuzz case as a scenario file in our format
 * (`docs/scenario-format.md`), with an `expect` block that turns the broken invariants into
 * checks `harness-bench run` performs: the transcript is always checked, a throw is an `error`
 * case, calls that must not run become `notExecuted`, a budget overshoot becomes the number of
 * model calls a sound harness makes, a missed loop warning becomes a `repeated_call` result.
 * The writer then runs the file the way `harness-bench run` does and says whether it fails
 * there too (the wire transport and a few field values cannot be said in the format).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { HarnessConfig } from '../../harness/config.ts';
import type { RunResult } from '../../harness/ledger.ts';
import { STOP_REASONS, type StopReason } from '../../harness/loop/stop-reasons.ts';
import { isErrorTurn } from '../../harness/model/scripted-model.ts';
import { runScenario } from '../run-scenario.ts';
import { InputError } from '../errors.ts';
import { loadScenarios } from '../scenario/load.ts';
import type { Expectations, Scenario, ScriptedTurn } from '../scenario/types.ts';
import type { FuzzCase, Violation } from './types.ts';

/** Finish reasons the scenario schema accepts; others are mapped to the nearest one it does. */
const SCHEMA_FINISH = new Set(['stop', 'tool_calls', 'length', '']);

/** The script with every finish reason the file format cannot hold replaced (`null` → `""`, others → `stop`). */
function representableModel(turns: readonly ScriptedTurn[]): { model: ScriptedTurn[]; changed: boolean } {
  let changed = false;
  const model = turns.map((turn) => {
    if (
      isErrorTurn(turn) ||
      turn.finish_reason === undefined ||
      SCHEMA_FINISH.has(turn.finish_reason as string)
    )
      return turn;
    changed = true;
    return { ...turn, finish_reason: (turn.finish_reason === null ? '' : 'stop') as '' | 'stop' };
  });
  return { model, changed };
}

/** A short stable hash of the case, for ids and file names. */
export function caseHash(fuzzCase: FuzzCase): string {
  return createHash('sha256').update(JSON.stringify(fuzzCase)).digest('hex').slice(0, 10);
}

/**
 * The scenario of a failing case. `run` is the observed (failing) run, when it produced one: its
 * stop reason is expected as observed (review it once the bug is fixed), and call ids the
 * harness assigned are named as it assigned them (deterministic ids: `call_0001`, `<id>~2`).
 */
export function counterexampleScenario(
  fuzzCase: FuzzCase,
  violations: readonly Violation[],
  run: RunResult | undefined,
): { scenario: Scenario; notes: string[] } {
  const notes: string[] = [];
  const { model, changed } = representableModel(fuzzCase.scenario.model);
  if (changed) notes.push('finish reasons outside the file format were mapped (null → "", others → "stop")');
  if (fuzzCase.transport.kind === 'wire')
    notes.push(
      `found over the wire transport (byte cuts ${JSON.stringify(fuzzCase.transport.cuts)}${fuzzCase.transport.shape ? `, delta shape ${JSON.stringify(fuzzCase.transport.shape)}` : ''}); the file uses the scripted model`,
    );
  const observedStop = run?.stopReason;
  const known = violations.find((v) => v.stopReason !== undefined)?.stopReason;
  const stopReason: StopReason =
    known ??
    (observedStop && (STOP_REASONS as readonly string[]).includes(observedStop)
      ? observedStop
      : 'final_answer');
  if (!known)
    notes.push(
      `expect.stopReason is the one observed on the failing run (${stopReason}); review it once the bug is fixed`,
    );
  const expect: Expectations = { stopReason };
  const notExecuted = [...new Set(violations.flatMap((v) => v.calls ?? []))];
  if (notExecuted.length > 0) expect.notExecuted = notExecuted;
  const budget = violations.find((v) => v.invariant === 'budgets' && v.modelCalls !== undefined);
  const limits = fuzzCase.scenario.config?.limits;
  if (budget) {
    expect.modelCalls = budget.modelCalls!;
    expect.budgets = {
      ...(limits?.maxTurns !== undefined ? { turns: limits.maxTurns } : {}),
      ...(limits?.maxToolCalls !== undefined ? { toolCalls: limits.maxToolCalls } : {}),
    };
  }
  for (const v of violations) {
    if (v.invariant !== 'loop') continue;
    const id = /^(\S+): the/.exec(v.message)?.[1];
    if (id) expect.results = { ...expect.results, [id]: { errorType: 'repeated_call' } };
  }
  const kinds = [...new Set(violations.map((v) => v.invariant))];
  const expressed = new Set([
    'never-throws',
    'transcript',
    'approvals',
    'containment',
    'write-conflicts',
    'budgets',
    'loop',
  ]);
  for (const kind of kinds)
    if (!expressed.has(kind))
      notes.push(`${kind} has no expectation key in the scenario format; the .case.json file replays it`);
  const hash = caseHash(fuzzCase);
  const scenario: Scenario = {
    id: `fuzz/${fuzzCase.family}-${kinds[0] ?? 'case'}-${hash}`,
    title: `Fuzzing counterexample: ${violations[0]?.message.split('\n')[0]?.slice(0, 200) ?? 'no violation'}`,
    tags: ['fuzz', fuzzCase.family, ...kinds],
    source: 'ours (fuzzing)',
    task: fuzzCase.scenario.task,
    ...(fuzzCase.scenario.config ? { config: fuzzCase.scenario.config } : {}),
    ...(fuzzCase.scenario.tools ? { tools: fuzzCase.scenario.tools } : {}),
    ...(fuzzCase.scenario.workspace ? { workspace: fuzzCase.scenario.workspace } : {}),
    ...(fuzzCase.scenario.fakeTools ? { fakeTools: fuzzCase.scenario.fakeTools } : {}),
    ...(fuzzCase.scenario.approver ? { approver: fuzzCase.scenario.approver } : {}),
    model,
    expect,
  };
  return { scenario, notes };
}

/** What {@link saveCounterexample} wrote and whether the file fails under `harness-bench run`. */
export interface SavedCounterexample {
  /** The scenario file. */
  file: string;
  /** The full case (transport, violations) beside it, for `harness-bench fuzz --replay`. */
  caseFile: string;
  /** The scenario fails (or errors) when run as a scenario under the base configuration. */
  reproduces: boolean;
  /** Problems the scenario loader reports (empty: it validates). */
  problems: string[];
  notes: string[];
}

/**
 * Writes `<dir>/<family>-<invariant>-<hash>.json` (the scenario) and `….case.json` (the fuzz case
 * and its violations), then validates the scenario and runs it as `harness-bench run` would.
 * @throws the fs error when `dir` cannot be created or written
 */
export async function saveCounterexample(
  dir: string,
  fuzzCase: FuzzCase,
  violations: readonly Violation[],
  run: RunResult | undefined,
  base: { name: string; config: HarnessConfig },
): Promise<SavedCounterexample> {
  const { scenario, notes } = counterexampleScenario(fuzzCase, violations, run);
  const stem = scenario.id.split('/').at(-1)!;
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${stem}.json`);
  const caseFile = path.join(dir, `${stem}.case.json`);
  writeFileSync(file, `${JSON.stringify(scenario, null, 2)}\n`);
  writeFileSync(caseFile, `${JSON.stringify({ case: fuzzCase, violations }, null, 2)}\n`);
  let reproduces = false;
  let problems: string[] = [];
  try {
    const { scenarios } = await loadScenarios([path.resolve(file)]);
    const { result } = await runScenario(scenarios[0]!, base);
    reproduces = result.status !== 'pass';
    if (!reproduces)
      notes.push('the scenario passes under harness-bench run: the failure needs what the format cannot say');
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    problems = error.problems.map((p) => `${p.path}: ${p.reason}`);
  }
  return { file, caseFile, reproduces, problems, notes };
}
