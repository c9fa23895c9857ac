/**
 * Steps 2–9 of the tool-call pipeline for one turn, in the documented order: parse → look up →
 * validate → (loop check) → policy → approval → execute → shape → append
 * (`docs/architecture.md` §4). Every call gets exactly one result, in call order;
 * model mistakes become structured results, never exceptions.
 *
 * The turn is split at the execution boundary: {@link preflight} runs every check of a call and
 * returns an immediate result or a call ready to run; {@link executeCall} runs it. Between the
 * two, this file only schedules: reads run concurrently, anything else in order.
 */
import type { AssembledCall } from './assemble.ts';
import { executeCall } from './execute.ts';
import { preflight, type CallOutcome, type CallStop, type DispatchContext } from './preflight.ts';
import { resultToModelText, type ToolResult } from './types.ts';

export type { DispatchContext } from './preflight.ts';

/** One call's result, ready to append. */
export interface DispatchedCall {
  call: AssembledCall;
  result: ToolResult;
  content: string;
  /** The call passed policy and approval and was handed to the tool. */
  executed: boolean;
}

/** The results of a turn and, when a call ends the run, the stop reason. */
export interface TurnOutcome {
  results: DispatchedCall[];
  stop?: CallStop;
}

/** A call waiting to be joined: a read in flight, or a result that must wait for the reads before it. */
interface Waiting {
  call: AssembledCall;
  started: number;
  outcome: CallOutcome | Promise<CallOutcome>;
}

/**
 * Runs the pipeline for every call of a turn. Never throws for model mistakes.
 *
 * The checks (parse, look up, validate, loop check, policy, approval, write conflicts) run call
 * by call, in call order. A call the policy classes `read` then starts at once and runs
 * concurrently with the reads around it (unless its tool `runsAlone`, like the subagent tool
 * `task`); any other call first waits for every earlier call to finish and runs alone, and the
 * next call is checked only after it, so a write cannot change what a later call's path
 * resolves to between its check and its use. Results, loop-detector outcomes and
 * `tool_call_end` events come in call order whatever the completion order, at points that
 * depend only on the calls' classes (never on timing), so event logs and replays stay
 * reproducible. `durationMs` of a concurrent read runs until its results are joined. A tool is
 * never run twice: nothing is retried here.
 */
export async function dispatchTurn(
  calls: readonly AssembledCall[],
  context: DispatchContext,
): Promise<TurnOutcome> {
  const results: DispatchedCall[] = [];
  let stop: CallStop | undefined;
  const writtenPaths = new Set<string>();
  /** Calls after the first read still in flight, in call order. */
  const waiting: Waiting[] = [];
  const finish = (call: AssembledCall, started: number, outcome: CallOutcome) => {
    if (outcome.stop && !stop) stop = outcome.stop;
    const { result } = outcome;
    const content = resultToModelText(result);
    if (outcome.recordLoop)
      context.loop.record(
        call.loopKey,
        result.ok ? `ok:${result.data}` : `${result.error_type}:${result.message}`,
      );
    context.emit({
      type: 'tool_call_end',
      callId: call.callId,
      tool: call.name,
      ok: result.ok,
      ...(result.ok ? {} : { errorType: result.error_type, retryable: result.retryable }),
      executed: outcome.executed,
      verdict: outcome.verdict,
      content,
      durationMs: context.deps.now() - started,
    });
    results.push({ call, result, content, executed: outcome.executed });
  };
  /** Waits for the reads in flight, then finishes every waiting call, in call order. */
  const join = async () => {
    while (waiting.length > 0) {
      const w = waiting[0]!;
      finish(w.call, w.started, await w.outcome);
      waiting.shift();
    }
  };
  try {
    for (const call of calls) {
      context.emit({
        type: 'tool_call_start',
        turn: context.turn,
        callId: call.callId,
        ...(call.originalId !== undefined ? { originalId: call.originalId } : {}),
        tool: call.name,
        arguments: call.wire.function.arguments,
        ...(call.wire.function.arguments !== call.rawArguments ? { rawArguments: call.rawArguments } : {}),
        normalisations: call.normalisations,
      });
      const started = context.deps.now();
      const checked = await preflight(call, context, stop, writtenPaths);
      if (checked.kind === 'immediate') {
        if (checked.outcome.stop && !stop) stop = checked.outcome.stop;
        if (waiting.length > 0) waiting.push({ call, started, outcome: checked.outcome });
        else finish(call, started, checked.outcome);
        continue;
      }
      if (checked.concurrent) {
        waiting.push({ call, started, outcome: executeCall(checked, context) });
        continue;
      }
      await join();
      finish(call, started, await executeCall(checked, context));
    }
    await join();
  } finally {
    // A harness bug thrown above leaves no read in flight unobserved.
    for (const w of waiting) if (w.outcome instanceof Promise) w.outcome.catch(() => undefined);
  }
  return { results, ...(stop ? { stop } : {}) };
}
