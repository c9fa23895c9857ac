/**
 * The expectation registry: one handler per key of `expect`, in a table the type checker makes
 * exhaustive. `Expectations` (`eval/scenario/types.ts`) is the format; a key added there without
 * a handler here does not compile, and a handler without a key does not either (the object
 * literal has exactly the keys of the mapped type). The table's order is the order checks are
 * reported in. Pattern after promptfoo's `ASSERTION_HANDLERS` (`src/assertions/index.ts`).
 */
import type { Expectations } from '../scenario/types.ts';
import type { Check } from './check.ts';
import type { ExpectContext } from './context.ts';
import { checkAttack } from './attack.ts';
import { checkBudgets } from './budgets.ts';
import { checkCalledBefore } from './called-before.ts';
import { checkClaims } from './claims.ts';
import { checkExecuted, checkNotExecuted, checkPermissions, checkResults } from './calls.ts';
import { checkEvents, checkEventsAbsent } from './events.ts';
import { checkEvidence, checkOutsideChanged } from './files.ts';
import { checkFinalAnswer, checkModelCalls, checkStopReason } from './outcome.ts';
import { checkGrants } from './grants.ts';
import { checkRequests } from './requests.ts';
import { checkScorers } from './scorers.ts';
import { checkTranscript } from './transcript.ts';

/**
 * A handler: the value of its key (`undefined` when the scenario does not set it; most
 * handlers then return no check, `outsideChanged` and `transcript` check anyway) and the run.
 * Contract: never throws for a bad run (a model mistake is a failed check); may reject for a
 * runner fault (a custom scorer that throws), which makes the case an `error`.
 */
export type Handler<K extends keyof Expectations> = (
  value: Expectations[K],
  context: ExpectContext,
) => Check[] | Promise<Check[]>;

/** Every handler, by key, in report order. */
export const HANDLERS: { [K in keyof Expectations]-?: Handler<K> } = {
  stopReason: checkStopReason,
  modelCalls: checkModelCalls,
  executed: checkExecuted,
  notExecuted: checkNotExecuted,
  results: checkResults,
  permissions: checkPermissions,
  evidence: checkEvidence,
  outsideChanged: checkOutsideChanged,
  budgets: checkBudgets,
  attack: checkAttack,
  finalAnswer: checkFinalAnswer,
  grants: checkGrants,
  requests: checkRequests,
  claims: checkClaims,
  calledBefore: checkCalledBefore,
  scorers: checkScorers,
  events: checkEvents,
  eventsAbsent: checkEventsAbsent,
  transcript: checkTranscript,
};

/** The keys of {@link HANDLERS} in report order. */
export const EXPECTATION_KEYS = Object.keys(HANDLERS) as (keyof Expectations)[];

/**
 * Every check of `expect` against the run, in the order of {@link HANDLERS}.
 * @throws only what a handler throws for a runner fault (see {@link Handler}).
 */
export async function runExpectations(expect: Expectations, context: ExpectContext): Promise<Check[]> {
  const checks: Check[] = [];
  for (const key of EXPECTATION_KEYS) {
    const handler = HANDLERS[key] as Handler<typeof key>;
    checks.push(...(await handler(expect[key], context)));
  }
  return checks;
}
