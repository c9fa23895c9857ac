/**
 * The oracles of how a run ends and what it may spend: exactly one stop reason that the run's
 * own record bears out, budgets exceeded by at most one step (`docs/architecture.md` §5–6), and
 * the loop detector answering the repeated call it names.
 */
import type { RunResult } from '../../harness/ledger.ts';
import { STOP_REASONS, type StopReason } from '../../harness/loop/stop-reasons.ts';
import type { HarnessEvent } from '../../harness/events.ts';
import { type Add, canonical, type Ev, top, UNCOUNTED } from './oracles-shared.ts';
import type { Observation } from './types.ts';

/**
 * A clock read sits between the last event before a budget check and the check, and another
 * before `run_start` is stamped: elapsed time at the check is at least the gap between those
 * events plus 2 ms on the deterministic clock (1 ms per read).
 */
const CLOCK_READS_BEFORE_CHECK = 2;

/** `one-stop-reason`: one run_end, last, agreeing with the result and the ledger and borne out by the events. */
export function stopReasonOracle(result: RunResult, add: Add): void {
  if (!(STOP_REASONS as readonly string[]).includes(result.stopReason))
    add('one-stop-reason', `stop reason ${JSON.stringify(result.stopReason)} is not one of the stop reasons`);
  const events = top(result.events);
  const ends = events.filter((e): e is Ev<'run_end'> => e.type === 'run_end');
  if (ends.length !== 1) add('one-stop-reason', `${ends.length} run_end events (expected exactly one)`);
  if (events.at(-1)?.type !== 'run_end') add('one-stop-reason', 'the last event is not run_end');
  if (events[0]?.type !== 'run_start') add('one-stop-reason', 'the first event is not run_start');
  const end = ends[0];
  if (end && end.stopReason !== result.stopReason)
    add('one-stop-reason', `run_end says ${end.stopReason}, the result says ${result.stopReason}`);
  if (result.ledger.stopReason !== result.stopReason)
    add(
      'one-stop-reason',
      `the ledger says ${result.ledger.stopReason}, the result says ${result.stopReason}`,
    );
  if (result.stopReason === 'final_answer' && typeof result.finalAnswer !== 'string')
    add('one-stop-reason', 'stop reason final_answer without a final answer');
  const why = stopEvidence(result, events);
  if (why) add('one-stop-reason', `stop reason ${result.stopReason}, but ${why}`);
}

const BUDGET_STOPS = new Set([
  'max_turns',
  'tool_budget_exceeded',
  'token_budget_exceeded',
  'cost_budget_exceeded',
  'time_budget_exceeded',
]);

/** What contradicts the stop reason in the run's own record, or undefined when the record bears it out. */
function stopEvidence(result: RunResult, events: readonly HarnessEvent[]): string | undefined {
  const reason = result.stopReason;
  const calls = events.filter((e): e is Ev<'model_call_end'> => e.type === 'model_call_end');
  const last = result.messages.at(-1);
  if (reason === 'final_answer') {
    if (last?.role !== 'assistant' || (last.tool_calls?.length ?? 0) > 0)
      return 'the conversation does not end with an answer';
    if ((last.content ?? '') !== result.finalAnswer) return 'the final answer is not the last reply';
  }
  if (reason === 'repeated_tool_call' && !events.some((e) => e.type === 'loop_warning' && e.stop))
    return 'the loop detector never stopped the run';
  if (BUDGET_STOPS.has(reason) && !events.some((e) => e.type === 'budget_exhausted'))
    return 'no budget_exhausted event';
  if (reason === 'model_error' && calls.at(-1)?.ok !== false) return 'the last model call did not fail';
  if (reason === 'context_overflow') {
    const lastStart = events.map((e) => e.type).lastIndexOf('turn_start');
    const lastEnd = events.map((e) => e.type).lastIndexOf('model_call_end');
    if (lastStart < lastEnd) return 'the last request was sent';
  }
  if (
    reason === 'policy_violation' &&
    !events.some((e) => e.type === 'policy_decision' && e.action === 'deny')
  )
    return 'no call was denied';
  if (reason === 'output_truncated' && calls.at(-1)?.finishReason !== 'length')
    return 'the last reply was not cut off by the output limit';
  if (reason === 'human_cancelled') return 'nobody cancelled the run';
  return undefined;
}

/** `budgets`: no turn starts with a budget spent, at most one wrap-up turn, usage within the limits. */
export function budgetOracle(obs: Observation, result: RunResult, add: Add): void {
  const { limits } = obs.config;
  const events = top(result.events);
  const start = events[0];
  const used = { modelCalls: 0, turns: 0, tokens: 0, cost: 0, counted: 0 };
  // What the budget check before the next turn saw: the context stage between that check and
  // the turn's turn_start may spend a summarisation call (compaction), which is not a turn.
  let atCheck = { ...used, previous: start };
  let preparing = false;
  let wrapUps = 0;
  let reported = false;
  for (const event of events) {
    if (event.type === 'turn_start' && event.compaction) preparing = true;
    if (event.type === 'turn_start' && !event.compaction) {
      preparing = false;
      if (event.wrapUp) {
        wrapUps += 1;
        if (!limits.wrapUpTurn) add('budgets', 'a wrap-up turn although limits.wrapUpTurn is off');
      } else if (!reported) {
        const seen = atCheck;
        const elapsed =
          seen.previous && start ? seen.previous.atMs - start.atMs + CLOCK_READS_BEFORE_CHECK : 0;
        // In the order the harness checks them (`loop/budgets.ts`): the first names the stop reason.
        const over: [StopReason, string][] = [];
        if (elapsed >= limits.maxWallMs)
          over.push(['time_budget_exceeded', `at least ${elapsed} ms of ${limits.maxWallMs} ms`]);
        if (seen.cost >= limits.maxCostUsd)
          over.push(['cost_budget_exceeded', `$${seen.cost} of $${limits.maxCostUsd}`]);
        if (seen.tokens >= limits.maxTokens)
          over.push(['token_budget_exceeded', `${seen.tokens} tokens of ${limits.maxTokens}`]);
        if (seen.counted >= limits.maxToolCalls)
          over.push(['tool_budget_exceeded', `${seen.counted} tool calls of ${limits.maxToolCalls}`]);
        if (seen.turns >= limits.maxTurns)
          over.push(['max_turns', `${seen.turns} turns of ${limits.maxTurns}`]);
        if (over.length > 0) {
          reported = true;
          add(
            'budgets',
            `turn ${event.turn} started with the budget spent (${over.map(([, text]) => text).join(', ')}): a budget was exceeded by more than one step`,
            { modelCalls: seen.modelCalls + (limits.wrapUpTurn ? 1 : 0), stopReason: over[0]![0] },
          );
        }
        used.turns += 1;
      }
    }
    if (event.type === 'model_call_end') {
      used.modelCalls += 1;
      used.tokens += event.usage.promptTokens + event.usage.completionTokens;
      used.cost += event.costUsd;
    }
    if (event.type === 'tool_call_end' && !UNCOUNTED.has(event.errorType ?? '')) used.counted += 1;
    if (!preparing && event.type !== 'compaction') atCheck = { ...used, previous: event };
  }
  if (wrapUps > 1) add('budgets', `${wrapUps} wrap-up turns (at most one)`);
  if (used.counted > limits.maxToolCalls)
    add('budgets', `${used.counted} tool calls passed the budget gate; the limit is ${limits.maxToolCalls}`);
  if (result.usage.toolCalls > limits.maxToolCalls)
    add('budgets', `usage says ${result.usage.toolCalls} tool calls; the limit is ${limits.maxToolCalls}`);
  if (result.usage.turns > limits.maxTurns)
    add('budgets', `usage says ${result.usage.turns} turns; the limit is ${limits.maxTurns}`);
}

/** `loop`: the warnAt-th identical call with an unchanged outcome is answered with repeated_call; no turn after a loop stop. */
export function loopOracle(obs: Observation, result: RunResult, add: Add): void {
  const { warnAt } = obs.config.loop;
  const streaks = new Map<string, { content: string; length: number }>();
  const keys = new Map<string, string>();
  const keyOf = (args: string) => {
    let key = keys.get(args);
    if (key === undefined) keys.set(args, (key = canonical(JSON.parse(args))));
    return key;
  };
  for (const call of result.ledger.calls) {
    if (call.scope.length > 0 || UNCOUNTED.has(call.errorType ?? '') || call.loopWarning) continue;
    if (call.normalisations.includes('invalid_arguments_replaced_by_placeholder')) continue;
    const key = `${call.tool}\u0000${keyOf(call.arguments)}`;
    const streak = streaks.get(key);
    if (streak && streak.content === call.content) streak.length += 1;
    else streaks.set(key, { content: call.content, length: 1 });
    const length = streaks.get(key)!.length;
    if (length === warnAt)
      add(
        'loop',
        `${call.callId}: the ${warnAt}th identical ${call.tool} call with an unchanged outcome was not answered with repeated_call (loop.warnAt ${warnAt})`,
      );
  }
  const events = top(result.events);
  const stopAt = events.findIndex((e) => e.type === 'loop_warning' && e.stop);
  if (stopAt >= 0 && events.slice(stopAt).some((e) => e.type === 'turn_start' && !e.wrapUp && !e.compaction))
    add('loop', 'a turn started after the loop detector stopped the run');
}
