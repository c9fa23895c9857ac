/**
 * The oracles of the run's record: the stored conversation and every request the model received
 * keep the transcript invariants TI-1..TI-4 (`eval/scenario/transcript.ts`), and the ledger,
 * the usage and run_end agree with the events, independently of `buildLedger`.
 */
import { isDeepStrictEqual } from 'node:util';
import { buildLedger, type RunResult } from '../../harness/ledger.ts';
import type { ChatMessage } from '../../harness/model/types.ts';
import { transcriptProblems } from '../scenario/transcript.ts';
import { type Add, type Ev, top } from './oracles-shared.ts';
import type { Observation } from './types.ts';

/** `transcript` and `requests`: well-formed conversations, and RunResult.requests are what the model received. */
export function transcriptOracle(obs: Observation, result: RunResult, add: Add): void {
  for (const problem of transcriptProblems(result.messages))
    add('transcript', `stored conversation: ${problem}`);
  obs.received.forEach((request, i) => {
    for (const problem of transcriptProblems(request.messages))
      add('transcript', `request ${i + 1}: ${problem}`);
  });
  if (!isDeepStrictEqual(result.requests, obs.received))
    add('requests', 'RunResult.requests differ from the requests the model received');
}

/** `ledger`: the ledger, its call and turn records, seq and stamps, usage and run_end agree with the events. */
export function ledgerOracle(result: RunResult, add: Add): void {
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
