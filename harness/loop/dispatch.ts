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
import type { AssembledCall } from '../tools/assemble.ts';
import { executeCall } from './execute.ts';
import { claimOf, OverlapScheduler } from './overlap.ts';
import { TurnPathCache } from '../tools/path-cache.ts';
import { preflight, type CallOutcome, type CallStop, type DispatchContext } from './preflight.ts';
import { resultToModelText, type ToolResult } from '../tools/types.ts';

export type { DispatchContext } from './preflight.ts';

/** One call's result, ready to append. */
export interface DispatchedCall {
  call: AssembledCall;
  result: ToolResult;
  content: string;
  /** The call passed policy and approval and was handed to the tool. */
  executed: boolean;
  /** The content came from files this run did not write (`ToolOutput.untrusted`). */
  untrusted?: string;
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
 * resolves to between its check and its use. Concurrent reads never run alongside a command
 * that may change their paths (`overlap.ts`: a command claims the whole workspace), and while
 * such a command is in flight the path checks of later calls read the file system afresh
 * instead of the cache, whose answers never outlive the turn (`path-cache.ts`). Results,
 * loop-detector outcomes and
 * `tool_call_end` events come in call order whatever the completion order, at points that
 * depend only on the calls' classes (never on timing), so event logs and replays stay
 * reproducible. `durationMs` of a concurrent read runs until its results are joined. A tool is
 * never run twice: nothing is retried here.
 */
export async function dispatchTurn(
  calls: readonly AssembledCall[],
  context: DispatchContext,
): Promise<TurnOutcome> {
  const turn = new Turn(context);
  const writtenPaths = new Set<string>();
  // Path lookups of this turn's checks (`path-cache.ts`), dropped after anything but a concurrent read.
  const lookup = new TurnPathCache();
  const overlap = new OverlapScheduler();
  try {
    for (const call of calls) {
      const args = call.wire.function.arguments;
      context.emit({
        type: 'tool_call_start',
        turn: context.turn,
        callId: call.callId,
        ...(call.originalId !== undefined ? { originalId: call.originalId } : {}),
        tool: call.name,
        arguments: args,
        ...(args !== call.rawArguments ? { rawArguments: call.rawArguments } : {}),
        normalisations: call.normalisations,
      });
      const started = context.deps.now();
      const checked = await preflight(call, context, { stopped: turn.stop, writtenPaths, lookup });
      if (checked.kind === 'immediate') {
        if (checked.outcome.stop && !turn.stop) turn.stop = checked.outcome.stop;
        if (turn.waiting.length > 0) turn.waiting.push({ call, started, outcome: checked.outcome });
        else turn.finish(call, started, checked.outcome);
        continue;
      }
      if (checked.concurrent) {
        const claim = claimOf(checked.prepared);
        if (claim.writes) lookup.hold();
        const running = overlap.run(claim, () => executeCall(checked, context));
        turn.waiting.push({
          call,
          started,
          outcome: claim.writes ? running.finally(() => lookup.release()) : running,
        });
        continue;
      }
      await turn.join();
      const outcome = await executeCall(checked, context);
      lookup.clear();
      turn.finish(call, started, outcome);
    }
    await turn.join();
  } finally {
    // A harness bug thrown above leaves no read in flight unobserved.
    for (const w of turn.waiting) if (w.outcome instanceof Promise) w.outcome.catch(ignore);
  }
  return { results: turn.results, ...(turn.stop ? { stop: turn.stop } : {}) };
}

function ignore(): void {}

/** The results of one turn as they are finished, in call order. */
class Turn {
  readonly results: DispatchedCall[] = [];
  stop: CallStop | undefined;
  /** Calls after the first read still in flight, in call order. */
  readonly waiting: Waiting[] = [];

  constructor(private readonly context: DispatchContext) {}

  /** Appends a call's result: loop detector, `tool_call_end`, the result. */
  finish(call: AssembledCall, started: number, outcome: CallOutcome): void {
    const { context } = this;
    if (outcome.stop && !this.stop) this.stop = outcome.stop;
    const { result } = outcome;
    const content = resultToModelText(result);
    if (outcome.recordLoop)
      context.loop.record(
        call.loopKey,
        result.ok,
        result.ok ? result.data : `${result.error_type}:${result.message}`,
      );
    const durationMs = context.deps.now() - started;
    context.emit({
      type: 'tool_call_end',
      callId: call.callId,
      tool: call.name,
      ok: result.ok,
      ...(result.ok ? {} : { errorType: result.error_type, retryable: result.retryable }),
      executed: outcome.executed,
      verdict: outcome.verdict,
      content,
      durationMs,
    });
    const dispatched: DispatchedCall = { call, result, content, executed: outcome.executed };
    if (outcome.untrusted !== undefined) dispatched.untrusted = outcome.untrusted;
    this.results.push(dispatched);
  }

  /** Waits for the reads in flight, then finishes every waiting call, in call order. */
  async join(): Promise<void> {
    while (this.waiting.length > 0) {
      const w = this.waiting[0]!;
      this.finish(w.call, w.started, await w.outcome);
      this.waiting.shift();
    }
  }
}
