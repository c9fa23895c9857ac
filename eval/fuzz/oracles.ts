/**
 * The invariants checked on every fuzzed run (`types.ts` lists them). Each oracle compares the
 * harness's own account of the run (RunResult, events, ledger) with the configuration, with
 * what the observers saw (approver answers, real tool executions, requests the model received),
 * or with itself. Only the top-level scope is checked (the fuzz cases spawn no subagents).
 *
 * Sources: the transcript invariants TI-1..TI-4 (`eval/scenario/transcript.ts`), the budgets and
 * stop reasons of `docs/architecture.md` §5–6, the pipeline order of §4.
 */
import path from 'node:path';
import picomatch from 'picomatch';
import { isDeepStrictEqual } from 'node:util';
import type { HarnessEvent } from '../../harness/events.ts';
import { buildLedger, type RunResult } from '../../harness/ledger.ts';
import { STOP_REASONS, type StopReason } from '../../harness/loop/stop-reasons.ts';
import { escapeReservedTags } from '../../harness/policy/taint.ts';
import type { ChatMessage } from '../../harness/model/types.ts';
import { transcriptProblems } from '../scenario/transcript.ts';
import type { Invariant, Observation, Violation } from './types.ts';

type Ev<T extends HarnessEvent['type']> = Extract<HarnessEvent, { type: T }>;

/** Error types of calls the dispatcher answered before its budget gate: they are not counted, not loop-checked. */
const UNCOUNTED = new Set(['truncated_call', 'interrupted', 'not_executed']);

/** Tools whose execution writes the paths they are handed. */
const WRITING_TOOLS = new Set(['write_file', 'str_replace']);

/**
 * A clock read sits between the last event before a budget check and the check, and another
 * before `run_start` is stamped: elapsed time at the check is at least the gap between those
 * events plus 2 ms on the deterministic clock (1 ms per read).
 */
const CLOCK_READS_BEFORE_CHECK = 2;

/** Output text queued between the values of {@link canonical}'s work list. */
class Text {
  constructor(readonly text: string) {}
}

/**
 * Key-sorted JSON text (the oracle's own canonical form, written apart from the harness's).
 * Iterative, so deeply nested values (thousands of levels, which models do send) cannot
 * overflow the stack.
 */
export function canonical(value: unknown): string {
  const out: string[] = [];
  const work: unknown[] = [value];
  while (work.length > 0) {
    const item = work.pop();
    if (item instanceof Text) out.push(item.text);
    else if (Array.isArray(item)) {
      work.push(new Text(']'));
      for (let k = item.length - 1; k >= 0; k -= 1) {
        work.push(item[k]);
        if (k > 0) work.push(new Text(','));
      }
      out.push('[');
    } else if (item && typeof item === 'object') {
      const record = item as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      work.push(new Text('}'));
      for (let k = keys.length - 1; k >= 0; k -= 1) {
        work.push(record[keys[k]!]);
        work.push(new Text(`${k > 0 ? ',' : ''}${JSON.stringify(keys[k])}:`));
      }
      out.push('{');
    } else out.push(JSON.stringify(item) ?? 'null');
  }
  return out.join('');
}

const top = (events: readonly HarnessEvent[]) => events.filter((e) => e.scope.length === 0);

function stopReasonOracle(result: RunResult, add: Add): void {
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

function budgetOracle(obs: Observation, result: RunResult, add: Add): void {
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

function approvalOracle(obs: Observation, result: RunResult, add: Add): void {
  const byCall = new Map<string, HarnessEvent[]>();
  for (const event of top(result.events))
    if ('callId' in event && typeof event.callId === 'string')
      byCall.set(event.callId, [...(byCall.get(event.callId) ?? []), event]);
  const mode = obs.config.permissions.mode;
  const executedIds = new Set<string>();
  for (const [callId, events] of byCall) {
    const end = events.find((e): e is Ev<'tool_call_end'> => e.type === 'tool_call_end');
    if (!end?.executed) continue;
    executedIds.add(callId);
    const policy = events.find((e): e is Ev<'policy_decision'> => e.type === 'policy_decision');
    const approval = events.find((e): e is Ev<'approval_decision'> => e.type === 'approval_decision');
    const fail = (why: string) =>
      add('approvals', `${callId} (${end.tool}) executed ${why}`, { calls: [callId] });
    if (!policy) fail('without a policy decision');
    else if (policy.action === 'deny') fail('although the policy denied it');
    else if (policy.action === 'ask') {
      if (!approval) fail('on an ask without an approval decision');
      else if (!approval.approved) fail(`although the approval (by ${approval.by}) was refused`);
      else if (approval.by === 'approver' && obs.answers.get(callId) === 'deny')
        fail('although the approver answered deny');
      else if (approval.by === 'approver' && !obs.answers.has(callId))
        fail('approved "by the approver", who was never asked');
      else if (approval.by === 'auto' && mode !== 'auto') fail(`auto-approved in ${mode} mode`);
      else if (approval.by === 'headless') fail('approved by headless mode, which refuses every ask');
      else if (approval.by === 'auto' && policy.decision.requiresHuman)
        fail('auto-approved although only a human may approve it');
    }
    if (end.verdict !== 'allow' && end.verdict !== 'ask:approved') fail(`with verdict ${end.verdict}`);
  }
  unapprovedEffects(obs, add);
  const seen = new Set<string>();
  for (const execution of obs.executions) {
    if (!executedIds.has(execution.callId))
      add(
        'approvals',
        `${execution.tool} ran for ${execution.callId}, which the events do not record as executed`,
        {
          calls: [execution.callId],
        },
      );
    if (seen.has(execution.callId))
      add('approvals', `${execution.callId} ran more than once`, { calls: [execution.callId] });
    seen.add(execution.callId);
    if (obs.answers.get(execution.callId) === 'deny')
      add('approvals', `${execution.callId} ran although the approver answered deny`, {
        calls: [execution.callId],
      });
  }
  for (const callId of executedIds)
    if (!seen.has(callId)) add('ledger', `${callId} is recorded as executed, but its tool never ran`);
}

/**
 * The oracle's own reading of the permission defaults (`docs/architecture.md` §4–5), so a
 * policy that allows too much is caught even when its events agree with themselves: a tool
 * that writes or acts irreversibly runs without an approval only where a rule allows it — a
 * `permissions.paths` write rule (last match wins) over every path it writes, outside the
 * sensitive paths, or an `effects` default of `allow` — and never in plan mode.
 */
function unapprovedEffects(obs: Observation, add: Add): void {
  const { permissions } = obs.config;
  const verdicts = new Map<string, string>();
  for (const event of top(obs.result!.events))
    if (event.type === 'tool_call_end') verdicts.set(event.callId, event.verdict);
  const sensitive = permissions.sensitivePaths.filter((s) => s.access !== 'read').map((s) => s.pattern);
  const isSensitive = sensitive.length > 0 ? picomatch(sensitive, { dot: true }) : () => false;
  for (const execution of obs.executions) {
    const tool = obs.tools.get(execution.tool);
    if (!tool || tool.effect === 'read') continue;
    const fail = (why: string) =>
      add('approvals', `${execution.callId} (${execution.tool}, ${tool.effect}) ran ${why}`);
    if (permissions.mode === 'plan') {
      fail('in plan mode, which allows reads only');
      continue;
    }
    if (verdicts.get(execution.callId) !== 'allow') continue;
    if (!tool.paths || tool.effect === 'irreversible') {
      if (permissions.effects[tool.effect] !== 'allow')
        fail(`without approval, and effects.${tool.effect} is ${permissions.effects[tool.effect]}`);
      continue;
    }
    for (const resolved of execution.resolvedPaths) {
      const rel = path.relative(obs.workspace, resolved).split(path.sep).join('/') || '.';
      let action = permissions.effects.write;
      for (const rule of permissions.paths)
        if (rule.access === 'write' && picomatch(rule.pattern, { dot: true })(rel)) action = rule.action;
      if (action !== 'allow') fail(`without approval: no rule allows writing ${rel}`);
      else if (isSensitive(rel)) fail(`without approval although ${rel} is a sensitive path`);
    }
  }
}

function containmentOracle(obs: Observation, result: RunResult, add: Add): void {
  for (const change of obs.outsideChanges) add('containment', `outside the workspace: ${change}`);
  const turnOf = new Map<string, number>();
  for (const event of top(result.events))
    if (event.type === 'tool_call_start') turnOf.set(event.callId, event.turn);
  const written = new Map<string, string>();
  for (const execution of obs.executions) {
    for (const resolved of execution.resolvedPaths) {
      const rel = path.relative(obs.workspace, resolved);
      if (rel.startsWith('..') || path.isAbsolute(rel))
        add(
          'containment',
          `${execution.callId} (${execution.tool}) touched ${resolved}, outside the workspace`,
          {
            calls: [execution.callId],
          },
        );
      if (!WRITING_TOOLS.has(execution.tool)) continue;
      const key = `${turnOf.get(execution.callId)}\u0000${resolved}`;
      const first = written.get(key);
      if (first !== undefined)
        add('write-conflicts', `${first} and ${execution.callId} both wrote ${rel} in one turn`, {
          calls: [execution.callId],
        });
      else written.set(key, execution.callId);
    }
  }
}

function transcriptOracle(obs: Observation, result: RunResult, add: Add): void {
  for (const problem of transcriptProblems(result.messages))
    add('transcript', `stored conversation: ${problem}`);
  obs.received.forEach((request, i) => {
    for (const problem of transcriptProblems(request.messages))
      add('transcript', `request ${i + 1}: ${problem}`);
  });
  if (!isDeepStrictEqual(result.requests, obs.received))
    add('requests', 'RunResult.requests differ from the requests the model received');
}

function ledgerOracle(result: RunResult, add: Add): void {
  const { events, usage } = result;
  if (!isDeepStrictEqual(buildLedger(events), result.ledger))
    add('ledger', 'the ledger is not the one the events build');
  // Independently of buildLedger: every call record says what its events say.
  const records = new Map(result.ledger.calls.map((c) => [c.callId, c]));
  for (const event of top(events)) {
    if (event.type !== 'tool_call_end') continue;
    const record = records.get(event.callId);
    const said = {
      executed: event.executed,
      ok: event.ok,
      verdict: event.verdict,
      errorType: event.errorType,
      content: event.content,
    };
    const got = record && {
      executed: record.executed,
      ok: record.ok,
      verdict: record.verdict,
      errorType: record.errorType,
      content: record.content,
    };
    if (!isDeepStrictEqual(said, got))
      add('ledger', `the ledger record of ${event.callId} disagrees with its tool_call_end event`);
  }
  const turnEnds = top(events).filter((e): e is Ev<'model_call_end'> => e.type === 'model_call_end');
  turnEnds.forEach((event, i) => {
    const turn = result.ledger.turns[i];
    if (
      !turn ||
      turn.ok !== event.ok ||
      turn.finishReason !== event.finishReason ||
      turn.toolCalls !== event.toolCalls
    )
      add('ledger', `ledger turn ${i + 1} disagrees with its model_call_end event`);
  });
  events.forEach((event, i) => {
    if (event.seq !== i) add('ledger', `event ${i} has seq ${event.seq}`);
    if (i > 0 && event.atMs < events[i - 1]!.atMs)
      add('ledger', `event ${i} is stamped before event ${i - 1}`);
  });
  const starts = events
    .filter((e) => e.type === 'tool_call_start')
    .map((e) => (e as Ev<'tool_call_start'>).callId);
  const ends = events.filter((e) => e.type === 'tool_call_end').map((e) => (e as Ev<'tool_call_end'>).callId);
  if (!isDeepStrictEqual([...starts].sort(), [...ends].sort()))
    add(
      'ledger',
      `tool_call_start ids ${JSON.stringify(starts)} and tool_call_end ids ${JSON.stringify(ends)} differ`,
    );
  const tools = result.messages.filter((m): m is Extract<ChatMessage, { role: 'tool' }> => m.role === 'tool');
  const wire = result.messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []));
  // By design the stored conversation is the history the harness keeps: layers that change it
  // (stub, drop, summary, repair) leave fewer or shortened messages. Then only what is left is
  // checked: its calls and results are the ledger's, in the ledger's order.
  const rewritten = events.some((e) => e.type === 'compaction' && e.layer !== 'cap' && e.layer !== 'spill');
  if (rewritten) {
    const order = new Map(result.ledger.calls.map((c, i) => [c.callId, i]));
    const positions = (ids: string[]) => ids.map((id) => order.get(id) ?? -1);
    const ascending = (xs: number[]) => xs.every((x, i) => x >= 0 && (i === 0 || x > xs[i - 1]!));
    if (!ascending(positions(tools.map((m) => m.tool_call_id))))
      add('ledger', 'after compaction, the tool messages left are not ledger calls in ledger order');
    if (!ascending(positions(wire.map((c) => c.id))))
      add('ledger', 'after compaction, the assistant calls left are not ledger calls in ledger order');
  } else {
    if (
      !isDeepStrictEqual(
        result.ledger.calls.map((c) => [c.callId, c.content]),
        tools.map((m) => [m.tool_call_id, m.content]),
      )
    )
      add('ledger', 'the ledger calls differ from the tool messages of the conversation (ids or content)');
    if (
      !isDeepStrictEqual(
        result.ledger.calls.map((c) => [c.callId, c.arguments]),
        wire.map((c) => [c.id, c.function.arguments]),
      )
    )
      add('ledger', 'the ledger calls differ from the calls of the assistant messages (ids or arguments)');
  }
  const calls = events.filter((e): e is Ev<'model_call_end'> => e.type === 'model_call_end');
  const sum = (f: (e: Ev<'model_call_end'>) => number) => calls.reduce((n, e) => n + f(e), 0);
  const expected = {
    modelCalls: calls.length,
    requests: calls.length,
    ledgerTurns: calls.length,
    promptTokens: sum((e) => e.usage.promptTokens),
    completionTokens: sum((e) => e.usage.completionTokens),
  };
  const actual = {
    modelCalls: usage.modelCalls,
    requests: result.requests.length,
    ledgerTurns: result.ledger.turns.length,
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
  };
  if (!isDeepStrictEqual(expected, actual))
    add(
      'ledger',
      `usage ${JSON.stringify(actual)} disagrees with the model_call_end events ${JSON.stringify(expected)}`,
    );
  if (Math.abs(sum((e) => e.costUsd) - usage.costUsd) > 1e-9)
    add('ledger', 'usage cost differs from the events');
  const end = events.at(-1);
  if (end?.type === 'run_end') {
    const said = { turns: end.turns, toolCalls: end.toolCalls, finalAnswer: end.finalAnswer };
    const got = { turns: usage.turns, toolCalls: usage.toolCalls, finalAnswer: result.finalAnswer };
    if (!isDeepStrictEqual(said, got))
      add('ledger', `run_end ${JSON.stringify(said)} disagrees with the result ${JSON.stringify(got)}`);
  }
}

function loopOracle(obs: Observation, result: RunResult, add: Add): void {
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

function reservedTagOracle(obs: Observation, result: RunResult, add: Add): void {
  if (!obs.config.taint.enabled) return;
  for (const call of result.ledger.calls)
    if (call.executed && escapeReservedTags(call.content) !== call.content)
      add(
        'reserved-tags',
        `the result of ${call.callId} (${call.tool}) carries a reserved tag or marker unescaped`,
      );
}

type Add = (
  invariant: Invariant,
  message: string,
  extra?: Pick<Violation, 'calls' | 'modelCalls' | 'stopReason'>,
) => void;

/** Every violation of the invariants in one observed run; empty when the run is sound. Pure. */
export function checkRun(obs: Observation): Violation[] {
  const violations: Violation[] = [];
  const add: Add = (invariant, message, extra = {}) => violations.push({ invariant, message, ...extra });
  if (obs.thrown !== undefined || !obs.result) {
    add('never-throws', `runHarness threw: ${obs.thrown ?? 'no result'}`);
    return violations;
  }
  const result = obs.result;
  stopReasonOracle(result, add);
  budgetOracle(obs, result, add);
  approvalOracle(obs, result, add);
  containmentOracle(obs, result, add);
  transcriptOracle(obs, result, add);
  ledgerOracle(result, add);
  loopOracle(obs, result, add);
  reservedTagOracle(obs, result, add);
  for (const mismatch of obs.transportMismatches) add('stream-assembly', mismatch);
  return violations;
}
