/**
 * Scores a scenario's `expect` block against a finished run through the expectation registry
 * (`eval/expect/registry.ts`): one named check per expectation (per call id where natural, e.g.
 * `results.call_a1.errorType`), each with the expected and the observed value and a reason that
 * shows both. `outsideChanged` and the transcript invariants are always checked.
 */
import { mergeConfig } from '../../harness/config.ts';
import type { RunResult } from '../../harness/ledger.ts';
import type { Check } from '../expect/check.ts';
import type { CaseSubject, CheckEnv, RegisteredScorer } from '../expect/context.ts';
import { runExpectations } from '../expect/registry.ts';
import type { Expectations, Scenario } from './types.ts';

export type { Check } from '../expect/check.ts';
export type { CheckEnv } from '../expect/context.ts';
export { attackSucceeded } from '../expect/attack.ts';

/**
 * The expectations of a scenario under the configuration named `config`: `expect`, with
 * `expectFor[config]` merged over it when there is one (objects merge key by key, lists and
 * values replace, as configurations merge: `harness/config.ts` `mergeConfig`); a `null` in the
 * block removes what `expect` says there (`results: { call_x: { errorType: null } }` for a call
 * that succeeds under this configuration, `results: { call_y: null }` for a call it never sends).
 * The loader checks that every `null` removes something (`eval/expect/validate.ts`).
 */
export function expectationsFor(
  scenario: Pick<Scenario, 'expect' | 'expectFor'>,
  config: string,
): Expectations {
  const override =
    scenario.expectFor && Object.hasOwn(scenario.expectFor, config) ? scenario.expectFor[config] : undefined;
  return override ? (dropNulls(mergeConfig(scenario.expect, override)) as Expectations) : scenario.expect;
}

/** `value` with every object key whose value is `null` removed, at any depth (lists kept as they are). */
function dropNulls(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, dropNulls(v)]),
  );
}

/**
 * Every check of `scenario.expect` (with `expectFor[config]` merged over it) against `result`,
 * in the order of the registry's table (`eval/expect/registry.ts`): stopReason first,
 * outsideChanged and transcript always.
 * `config` names the configuration under test; `scorers` are the custom scorers registered for
 * the case (`eval/expect/scorers.ts`). Never throws for a bad run; evidence commands that fail to
 * start count as exit code `null`.
 */
export async function checkExpectations(
  scenario: Pick<Scenario, 'expect'> & Partial<Pick<Scenario, 'id' | 'tags' | 'task' | 'expectFor'>>,
  result: RunResult,
  env: CheckEnv,
  config = 'default',
  scorers?: ReadonlyMap<string, RegisteredScorer>,
): Promise<Check[]> {
  const subject: CaseSubject = {
    id: scenario.id ?? '(inline)',
    tags: scenario.tags ?? [],
    task: scenario.task ?? '',
    config,
  };
  return runExpectations(expectationsFor(scenario, config), {
    run: result,
    env,
    subject,
    ...(scorers ? { scorers } : {}),
  });
}
