/**
 * Steps 2–9 of the tool-call pipeline for one turn, in the documented order: parse → look up →
 * validate → (loop check) → policy → approval → execute → shape → append
 * (`docs/architecture.md` §4). Every call gets exactly one result, in call order;
 * model mistakes become structured results, never exceptions.
 */
import { capOutput } from '../context/shape.ts';
import type { HarnessConfig } from '../config.ts';
import type { HarnessDeps } from '../deps.ts';
import type { UnstampedEvent } from '../events.ts';
import type { StopReason } from '../loop/stop-reasons.ts';
import type { LoopDetector } from '../loop/loop-detector.ts';
import { approvalRequest, grantCovers, isScopedShape } from '../policy/approval.ts';
import { describeSystemError, runPathLabels } from '../path-display.ts';
import { decideCall, prepareCall, type PreparedCall } from '../policy/command-policy.ts';
import { escapeReservedTags } from '../policy/taint.ts';
import type { ApprovalAnswer, PolicyDecision, Verdict } from '../policy/types.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { SandboxUnavailableError } from '../sandbox/types.ts';
import type { AssembledCall } from './assemble.ts';
import { claimOf, OverlapScheduler, type PathClaim } from './overlap.ts';
import { describeValidationErrors, type ToolRegistry } from './registry.ts';
import {
  failure,
  resultToModelText,
  type EffectClass,
  type RunServices,
  type ToolDefinition,
  type ToolResult,
} from './types.ts';

/** Everything the dispatcher needs from the run. */
export interface DispatchContext {
  registry: ToolRegistry;
  config: HarnessConfig;
  deps: HarnessDeps;
  sandbox: Sandbox;
  workspace: string;
  loop: LoopDetector;
  emit: (event: UnstampedEvent) => void;
  signal: AbortSignal;
  turn: number;
  /** Tool calls requested so far in the run (all scopes that share the budget); updated here. */
  counters: { toolCalls: number };
  /** Shapes approved for the session (`npm test*`), answered without asking again. */
  grants: string[];
  /** Set when the turn is the reserved wrap-up turn: no call runs. */
  wrapUp: boolean;
  /** Untrusted tools whose content is in the context already (taint); absent or empty: clean. */
  taintedBy?: string[];
  /** Ancestors' configurations that still bind (subagents): every decision is taken under the whole chain. */
  ancestors?: HarnessConfig[];
  /** Tools this scope may use (subagents); absent: every registered tool. */
  allowedTools?: readonly string[];
  /** SQLite file of the notes tools (`save_note`, `search_notes`), passed to every tool's context. */
  notesPath?: string;
  /** The run's services for the memory tools (todos, skills, subagents), passed to every tool's context. */
  services?: RunServices;
  /**
   * Shapes a successful output for the model (window-relative cap, spill file; `context/spill.ts`).
   * Absent: the plain `toolOutputMaxChars` cap.
   */
  shapeOutput?: (text: string, call: { callId: string; tool: string; fullText?: string }) => Promise<string>;
  /**
   * Runs one call's execution (set per call by {@link dispatchTurn}): a `read` starts at once and
   * may overlap other reads; anything else waits for every earlier call. Absent: run at once.
   */
  schedule?: <T>(effect: EffectClass, run: () => Promise<T>, claim?: PathClaim) => Promise<T>;
}

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
  stop?: { reason: StopReason; detail: string };
}

/**
 * Runs the pipeline for every call of a turn. Never throws for model mistakes.
 *
 * The stages before execution (parse, look up, validate, loop check, policy, approval, write
 * conflicts) run call by call, in call order. A call the policy classes `read` then starts at
 * once and runs concurrently with the reads around it (unless its tool `runsAlone`, like the
 * subagent tool `task`); any other call first waits for every
 * earlier call to finish and runs alone, and the next call is checked only after it, so a write
 * cannot change what a later call's path resolves to between its check and its use. Results,
 * loop-detector outcomes and `tool_call_end` events come in call order whatever the completion
 * order, at points that depend only on the calls' classes (never on timing), so event logs and
 * replays stay reproducible. `durationMs` of a concurrent read runs until its results are
 * joined. A tool is never run twice: nothing is retried here.
 */
export async function dispatchTurn(
  calls: readonly AssembledCall[],
  context: DispatchContext,
): Promise<TurnOutcome> {
  const slots: {
    call: AssembledCall;
    started: number;
    pending: Promise<OneOutcome>;
    outcome?: OneOutcome;
  }[] = [];
  const results: DispatchedCall[] = [];
  let stop: TurnOutcome['stop'];
  const writtenPaths = new Set<string>();
  let overlapping: Promise<unknown>[] = [];
  // Concurrent reads never run alongside a command that may change their paths (`overlap.ts`).
  const overlap = new OverlapScheduler();
  const finish = (slot: (typeof slots)[number], outcome: OneOutcome) => {
    if (outcome.stop && !stop) stop = outcome.stop;
    const content = resultToModelText(outcome.result);
    if (outcome.recordLoop)
      context.loop.record(
        slot.call.loopKey,
        outcome.result.ok
          ? `ok:${outcome.result.data}`
          : `${outcome.result.error_type}:${outcome.result.message}`,
      );
    context.emit({
      type: 'tool_call_end',
      callId: slot.call.callId,
      tool: slot.call.name,
      ok: outcome.result.ok,
      ...(outcome.result.ok
        ? {}
        : { errorType: outcome.result.error_type, retryable: outcome.result.retryable }),
      executed: outcome.executed,
      verdict: outcome.verdict,
      content,
      durationMs: context.deps.now() - slot.started,
    });
    results.push({
      call: slot.call,
      result: outcome.result,
      content,
      executed: outcome.executed,
      ...(outcome.untrusted !== undefined ? { untrusted: outcome.untrusted } : {}),
    });
  };
  /** Waits for the overlapping reads, then finishes every call not finished yet, in call order. */
  const join = async (upTo: number) => {
    await Promise.all(overlapping);
    overlapping = [];
    while (results.length < upTo) {
      const slot = slots[results.length]!;
      finish(slot, slot.outcome ?? (await slot.pending));
    }
  };
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
    const index = slots.length;
    let handOff!: () => void;
    const handedOff = new Promise<'overlapping'>((resolve) => (handOff = () => resolve('overlapping')));
    let overlaps = false;
    const alone = context.registry.get(call.name)?.definition.runsAlone === true;
    const schedule = async <T>(effect: EffectClass, run: () => Promise<T>, claim?: PathClaim): Promise<T> => {
      if (effect === 'read' && !alone) {
        overlaps = true;
        handOff();
        return claim ? overlap.run(claim, run) : run();
      }
      await join(index);
      return run();
    };
    const slot: (typeof slots)[number] = {
      call,
      started: context.deps.now(),
      pending: runOne(call, { ...context, schedule }, stop, writtenPaths),
    };
    slots.push(slot);
    await Promise.race([slot.pending, handedOff]);
    if (overlaps) {
      overlapping.push(slot.pending.catch(() => undefined));
      continue;
    }
    slot.outcome = await slot.pending;
    if (slot.outcome.stop && !stop) stop = slot.outcome.stop;
    if (overlapping.length === 0) await join(slots.length);
  }
  await join(slots.length);
  return { results, ...(stop ? { stop } : {}) };
}

interface OneOutcome {
  result: ToolResult;
  executed: boolean;
  verdict: Verdict;
  stop?: TurnOutcome['stop'];
  /** The call passed the loop check: its outcome goes to the loop detector. */
  recordLoop?: boolean;
  untrusted?: string;
}

async function runOne(
  call: AssembledCall,
  context: DispatchContext,
  stopped: TurnOutcome['stop'],
  writtenPaths: Set<string>,
): Promise<OneOutcome> {
  const none = (result: ToolResult, stop?: TurnOutcome['stop']): OneOutcome => ({
    result,
    executed: false,
    verdict: 'none',
    ...(stop ? { stop } : {}),
  });
  const name = call.name;
  if (call.truncated)
    return none(
      failure(
        name,
        'truncated_call',
        'the reply was cut off by the output token limit while this call was being written; it was not run. Send it again, shorter (split large content over several calls).',
      ),
    );
  if (context.signal.aborted)
    return none(failure(name, 'interrupted', 'not executed: the run was cancelled'));
  if (context.wrapUp)
    return none(
      failure(name, 'not_executed', 'not executed: the budget is spent; this turn is for a summary only'),
    );
  if (stopped)
    return none(failure(name, 'not_executed', `not executed: the run is stopping (${stopped.reason})`));
  if (context.counters.toolCalls >= context.config.limits.maxToolCalls)
    return none(
      failure(
        name,
        'not_executed',
        `not executed: the tool-call budget of ${context.config.limits.maxToolCalls} calls is spent`,
      ),
      {
        reason: 'tool_budget_exceeded',
        detail: `limit ${context.config.limits.maxToolCalls} tool calls`,
      },
    );
  context.counters.toolCalls += 1;

  const tool = context.registry.get(name);
  if (call.parsed.ok === false && call.parsed.errorType === 'invalid_json') {
    const schema = tool
      ? `; the ${name} parameter schema is: ${JSON.stringify(tool.definition.parameters)}`
      : '';
    return loopGuard(call, context, () =>
      none(
        failure(
          name,
          'invalid_json',
          `${call.parsed.ok ? '' : call.parsed.reason}; received: ${quote(call.rawArguments)}${schema}`,
        ),
      ),
    );
  }
  if (!tool) {
    const suggestion = context.registry.suggest(name);
    return loopGuard(call, context, () =>
      none(
        failure(
          name,
          'unknown_tool',
          `no tool named ${name === '' ? '(empty name)' : name}; available: ${context.registry.names().join(', ')}${suggestion ? `; did you mean ${suggestion}?` : ''}`,
        ),
      ),
    );
  }
  if (!call.parsed.ok)
    return loopGuard(call, context, () =>
      none(
        failure(
          name,
          'invalid_arguments',
          `invalid arguments for ${name}: ${call.parsed.ok ? '' : call.parsed.reason}${call.parsed.ok || !isEmptyArguments(call.rawArguments) ? '' : missingHint(tool.definition)}`,
        ),
      ),
    );
  const args = call.parsed.args;
  if (!tool.validate(args))
    return loopGuard(call, context, () =>
      none(
        failure(
          name,
          'invalid_arguments',
          `invalid arguments for ${name}: ${describeValidationErrors(tool.validate.errors)}; rewrite the call to satisfy the schema ${JSON.stringify(tool.definition.parameters)}`,
        ),
      ),
    );
  return loopGuard(call, context, () => policyAndRun(call, tool.definition, args, context, writtenPaths));
}

/** Missing, null or blank arguments: the only case where "required property … is missing" is true. */
function isEmptyArguments(raw: unknown): boolean {
  return raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
}

function missingHint(definition: ToolDefinition): string {
  const required = (definition.parameters as { required?: string[] }).required ?? [];
  return required.length > 0
    ? `; required property '${required[0]}' is missing (required: ${required.join(', ')})`
    : '';
}

/** Applies loop detection around a step: a repeat with an unchanged outcome is not run. */
async function loopGuard(
  call: AssembledCall,
  context: DispatchContext,
  step: () => OneOutcome | Promise<OneOutcome>,
): Promise<OneOutcome> {
  const verdict = context.loop.check(call.loopKey);
  if (verdict.kind !== 'run') {
    const stop = verdict.kind === 'stop';
    context.emit({ type: 'loop_warning', callId: call.callId, tool: call.name, count: verdict.count, stop });
    const message = stop
      ? `same call with the same result ${verdict.count - 1} times before; not executed; run stopped`
      : `same call with the same result ${verdict.count - 1} times; not executed; try a different approach`;
    return {
      result: failure(call.name, 'repeated_call', message),
      executed: false,
      verdict: 'none',
      ...(stop
        ? {
            stop: {
              reason: 'repeated_tool_call' as const,
              detail: `${call.name} repeated ${verdict.count} times`,
            },
          }
        : {}),
    };
  }
  // The outcome is recorded by dispatchTurn in call order (the execution may run concurrently).
  return { ...(await step()), recordLoop: true };
}

async function policyAndRun(
  call: AssembledCall,
  tool: ToolDefinition,
  args: Record<string, unknown>,
  context: DispatchContext,
  writtenPaths: Set<string>,
): Promise<OneOutcome> {
  const name = call.name;
  const prepared = await prepareCall(tool, args, {
    workspace: context.workspace,
    taintedBy: context.taintedBy ?? [],
    pathLabels: context.deps.pathLabels ?? [],
  });
  let decision: PolicyDecision = decideCall(prepared, [context.config, ...(context.ancestors ?? [])]);
  if (context.allowedTools && !context.allowedTools.includes(name))
    decision = {
      action: 'deny',
      rule: 'scope:tools',
      reason: `${name} is not among the tools this agent may use (${context.allowedTools.join(', ')})`,
      errorType: 'policy_violation',
      parts: [{ subject: name, kind: 'effect', action: 'deny', rule: 'scope:tools' }],
    };
  context.emit({
    type: 'policy_decision',
    callId: call.callId,
    tool: name,
    action: decision.action,
    decision,
  });
  let verdict: Verdict = decision.action === 'allow' ? 'allow' : 'deny';
  if (decision.action === 'deny') {
    const errorType = decision.errorType ?? 'policy_violation';
    const stop =
      context.config.permissions.onDeny === 'stop'
        ? { reason: 'policy_violation' as const, detail: decision.reason }
        : undefined;
    return {
      result: failure(
        name,
        errorType,
        `denied: ${decision.reason}. This call will not be allowed; choose another way.`,
      ),
      executed: false,
      verdict,
      ...(stop ? { stop } : {}),
    };
  }
  if (decision.action === 'ask') {
    const approved = await approve(call, tool, args, prepared, decision, context);
    verdict = approved ? 'ask:approved' : 'ask:denied';
    if (!approved)
      return {
        result: failure(
          name,
          'approval_denied',
          `not approved: ${decision.reason}; the user declined this call`,
        ),
        executed: false,
        verdict,
      };
  }
  const writes = prepared.input.paths.filter((r) => r.access === 'write');
  for (const p of writes) {
    if (writtenPaths.has(p.absolute))
      return {
        result: failure(
          name,
          'write_conflict',
          `another call of this turn already writes ${p.relative}; write each file once per turn`,
        ),
        executed: false,
        verdict,
      };
  }
  for (const p of writes) writtenPaths.add(p.absolute);
  // Tool text must not pose as harness text (reserved tags escaped) while taint tracking is on.
  const shape = (text: string) => (context.config.taint.enabled ? escapeReservedTags(text) : text);
  let output: Awaited<ReturnType<typeof tool.execute>>;
  try {
    const execute = () =>
      tool.execute(args, {
        callId: call.callId,
        sandbox: context.sandbox,
        deps: context.deps,
        signal: context.signal,
        workspace: context.workspace,
        resolvedPaths: prepared.toolPaths.map((r) => r.absolute),
        ...(context.notesPath !== undefined ? { notesPath: context.notesPath } : {}),
        ...(context.services ? { services: context.services } : {}),
      });
    output = await (context.schedule
      ? context.schedule(prepared.input.effect, execute, claimOf(prepared))
      : execute());
  } catch (error) {
    if (error instanceof SandboxUnavailableError)
      return {
        result: failure(name, 'sandbox_unavailable', `${error.message}; ${error.hint}`),
        executed: true,
        verdict,
      };
    return {
      result: failure(
        name,
        'tool_failed',
        shape(
          `${name} failed: ${describeSystemError(error, runPathLabels(context.workspace, context.deps.pathLabels))}`,
        ),
      ),
      executed: true,
      verdict,
    };
  }
  if (!output.ok)
    return { result: failure(name, output.errorType, shape(output.message)), executed: true, verdict };
  const data = context.shapeOutput
    ? await context.shapeOutput(shape(output.content), {
        callId: call.callId,
        tool: name,
        ...(output.fullText !== undefined ? { fullText: shape(output.fullText) } : {}),
      })
    : capOutput(shape(output.content), context.config.context.toolOutputMaxChars).text;
  return {
    result: { ok: true, tool: name, data },
    executed: true,
    verdict,
    ...(output.untrusted !== undefined ? { untrusted: output.untrusted } : {}),
  };
}

/**
 * Answers an `ask`: `auto` approves (except an ask that requires a human: taint), `headless` and
 * `plan` deny, a session grant whose shape covers every asking part approves, otherwise the
 * approver sees the fully resolved call. A shape the approver grants is kept only when it is
 * scoped (not wildcards alone) and covers the call it was shown with.
 */
async function approve(
  call: AssembledCall,
  _tool: ToolDefinition,
  args: Record<string, unknown>,
  prepared: PreparedCall,
  decision: PolicyDecision,
  context: DispatchContext,
): Promise<boolean> {
  const mode = context.config.permissions.mode;
  const emit = (
    approved: boolean,
    by: 'approver' | 'headless' | 'auto' | 'grant' | 'none',
    grant?: string,
  ) => {
    context.emit({
      type: 'approval_decision',
      callId: call.callId,
      approved,
      by,
      ...(grant ? { grant } : {}),
    });
    return approved;
  };
  if (mode === 'auto' && !decision.requiresHuman) return emit(true, 'auto');
  if (mode === 'headless' || mode === 'plan') return emit(false, 'headless');
  const grant = context.grants.find((g) => grantCovers(g, call.name, decision));
  if (grant) return emit(true, 'grant', grant);
  if (!context.deps.approver) return emit(false, 'none');
  let answer: ApprovalAnswer;
  try {
    answer = await context.deps.approver(
      approvalRequest({
        callId: call.callId,
        tool: call.name,
        effect: prepared.input.effect,
        args,
        paths: prepared.input.paths.map((p) => ({ absolute: p.absolute, access: p.access })),
        ...(prepared.command !== undefined ? { command: prepared.command } : {}),
        decision,
      }),
    );
  } catch {
    return emit(false, 'approver');
  }
  if (typeof answer === 'object' && answer !== null && 'approveShape' in answer) {
    const shape = `${call.name}:${answer.approveShape}`;
    if (!isScopedShape(answer.approveShape) || !grantCovers(shape, call.name, decision))
      return emit(true, 'approver');
    context.grants.push(shape);
    return emit(true, 'approver', shape);
  }
  return emit(answer === 'approve', 'approver');
}

function quote(raw: unknown): string {
  const text = typeof raw === 'string' ? raw : (JSON.stringify(raw) ?? String(raw));
  return JSON.stringify(text.length > 500 ? `${text.slice(0, 500)}…` : text);
}
