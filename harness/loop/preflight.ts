/**
 * Steps 2–7 of the tool-call pipeline for one call, before anything runs: parse → look up →
 * validate → loop check → policy → approval → write conflicts (`docs/architecture.md` §4).
 * {@link preflight} ends in one of two values: an immediate result (a model mistake, a denial,
 * a repeat, a spent budget: the call never runs) or a {@link ReadyCall} that only needs to be
 * executed (`execute.ts`). Model mistakes become structured results, never exceptions.
 */
import type { HarnessConfig } from '../config.ts';
import type { HarnessDeps } from '../deps.ts';
import type { UnstampedEvent } from '../events.ts';
import { type BudgetStop, toolBudgetStop } from './budgets.ts';
import type { LoopDetector } from './loop-detector.ts';
import type { StopReason } from './stop-reasons.ts';
import { approvalRequest, grantCovers, isScopedShape } from '../policy/approval.ts';
import { decideCall, prepareCall, type PreparedCall } from '../policy/command-policy.ts';
import type { ApprovalAnswer, PolicyDecision, Verdict } from '../policy/types.ts';
import type { Sandbox } from '../sandbox/types.ts';
import type { AssembledCall } from '../tools/assemble.ts';
import type { TurnPathCache } from '../tools/path-cache.ts';
import { describeValidationErrors, type ToolRegistry } from '../tools/registry.ts';
import { failure, type RunServices, type ToolDefinition, type ToolResult } from '../tools/types.ts';

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
}

/** A call's stop of the run: a repeat, a denial under `onDeny: stop`, the tool-call budget. */
export interface CallStop {
  reason: StopReason;
  detail: string;
  /** The spent budget, for the tool-call budget (`budgets.ts`). */
  budget?: BudgetStop;
}

/** One call's outcome, before it is appended. */
export interface CallOutcome {
  result: ToolResult;
  /** The call passed policy and approval and was handed to the tool. */
  executed: boolean;
  verdict: Verdict;
  stop?: CallStop;
  /** The call passed the loop check: its outcome goes to the loop detector. */
  recordLoop?: boolean;
  /** The content came from files this run did not write (`ToolOutput.untrusted`). */
  untrusted?: string;
}

/** A call that passed every check: only its execution is left. */
export interface ReadyCall {
  kind: 'ready';
  call: AssembledCall;
  tool: ToolDefinition;
  args: Record<string, unknown>;
  prepared: PreparedCall;
  verdict: Verdict;
  /** A `read` that may overlap the reads around it (its tool does not run alone). */
  concurrent: boolean;
}

/** What the checks decided: a result now, or a call ready to run. */
export type Preflight = { kind: 'immediate'; outcome: CallOutcome } | ReadyCall;

/** What the checks of one call share with the other calls of its turn. */
export interface TurnChecks {
  /** The stop an earlier call of the turn set (the call is then not executed). */
  stopped: CallStop | undefined;
  /** The files earlier calls of the turn write (a later write of one is a conflict). */
  writtenPaths: Set<string>;
  /** The turn's path lookups (`path-cache.ts`); absent: `node:fs/promises` each time. */
  lookup?: TurnPathCache;
}

/**
 * Runs the checks of one call, in order, with what the turn's earlier calls left in `turn`.
 * Updates `context.counters.toolCalls` for every call that reaches the budget check. Never
 * throws for model mistakes.
 */
export async function preflight(
  call: AssembledCall,
  context: DispatchContext,
  turn: TurnChecks,
): Promise<Preflight> {
  const { stopped } = turn;
  const name = call.name;
  if (call.truncated)
    return notRun(
      failure(
        name,
        'truncated_call',
        'the reply was cut off by the output token limit while this call was being written; it was not run. Send it again, shorter (split large content over several calls).',
      ),
    );
  if (context.signal.aborted)
    return notRun(failure(name, 'interrupted', 'not executed: the run was cancelled'));
  if (context.wrapUp)
    return notRun(
      failure(name, 'not_executed', 'not executed: the budget is spent; this turn is for a summary only'),
    );
  if (stopped)
    return notRun(failure(name, 'not_executed', `not executed: the run is stopping (${stopped.reason})`));
  const budget = toolBudgetStop(context.config, context.counters.toolCalls, 'call');
  if (budget)
    return notRun(
      failure(name, 'not_executed', `not executed: the tool-call budget of ${budget.limit} calls is spent`),
      { reason: budget.reason, detail: budget.detail, budget },
    );
  context.counters.toolCalls += 1;

  const tool = context.registry.get(name);
  if (call.parsed.ok === false && call.parsed.errorType === 'invalid_json') {
    const schema = tool
      ? `; the ${name} parameter schema is: ${JSON.stringify(tool.definition.parameters)}`
      : '';
    return (
      repeated(call, context) ??
      immediate(
        failure(
          name,
          'invalid_json',
          `${call.parsed.ok ? '' : call.parsed.reason}; received: ${quote(call.rawArguments)}${schema}`,
        ),
      )
    );
  }
  if (!tool) {
    const suggestion = context.registry.suggest(name);
    return (
      repeated(call, context) ??
      immediate(
        failure(
          name,
          'unknown_tool',
          `no tool named ${name === '' ? '(empty name)' : name}; available: ${context.registry.names().join(', ')}${suggestion ? `; did you mean ${suggestion}?` : ''}`,
        ),
      )
    );
  }
  if (!call.parsed.ok)
    return (
      repeated(call, context) ??
      immediate(
        failure(
          name,
          'invalid_arguments',
          `invalid arguments for ${name}: ${call.parsed.ok ? '' : call.parsed.reason}${call.parsed.ok || !isEmptyArguments(call.rawArguments) ? '' : missingHint(tool.definition)}`,
        ),
      )
    );
  const args = call.parsed.args;
  if (!tool.validate(args))
    return (
      repeated(call, context) ??
      immediate(
        failure(
          name,
          'invalid_arguments',
          `invalid arguments for ${name}: ${describeValidationErrors(tool.validate.errors)}; rewrite the call to satisfy the schema ${JSON.stringify(tool.definition.parameters)}`,
        ),
      )
    );
  return repeated(call, context) ?? policyStage(call, tool.definition, args, context, turn);
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

/** A result of a call that passed the loop check (its outcome goes to the loop detector). */
function immediate(result: ToolResult, verdict: Verdict = 'none', stop?: CallStop): Preflight {
  return {
    kind: 'immediate',
    outcome: { result, executed: false, verdict, recordLoop: true, ...(stop ? { stop } : {}) },
  };
}

/** A result of a call stopped before the loop check (its outcome is not a repeat's). */
function notRun(result: ToolResult, stop?: CallStop): Preflight {
  return {
    kind: 'immediate',
    outcome: { result, executed: false, verdict: 'none', ...(stop ? { stop } : {}) },
  };
}

/**
 * Loop detection before the next stage: a repeat with an unchanged outcome is not run
 * (`repeated_call`, and the run stops at `loop.stopAt`); undefined when the call may go on.
 */
function repeated(call: AssembledCall, context: DispatchContext): Preflight | undefined {
  const verdict = context.loop.check(call.loopKey);
  if (verdict.kind === 'run') return undefined;
  const stop = verdict.kind === 'stop';
  context.emit({ type: 'loop_warning', callId: call.callId, tool: call.name, count: verdict.count, stop });
  const message = stop
    ? `same call with the same result ${verdict.count - 1} times before; not executed; run stopped`
    : `same call with the same result ${verdict.count - 1} times; not executed; try a different approach`;
  return {
    kind: 'immediate',
    outcome: {
      result: failure(call.name, 'repeated_call', message),
      executed: false,
      verdict: 'none',
      ...(stop
        ? { stop: { reason: 'repeated_tool_call', detail: `${call.name} repeated ${verdict.count} times` } }
        : {}),
    },
  };
}

/** Policy, approval and write conflicts of a valid call. */
async function policyStage(
  call: AssembledCall,
  tool: ToolDefinition,
  args: Record<string, unknown>,
  context: DispatchContext,
  turn: TurnChecks,
): Promise<Preflight> {
  const name = call.name;
  const { writtenPaths } = turn;
  const prepared = await prepareCall(tool, args, {
    workspace: context.workspace,
    taintedBy: context.taintedBy ?? [],
    pathLabels: context.deps.pathLabels ?? [],
    ...(turn.lookup ? { lookup: turn.lookup } : {}),
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
  if (decision.action === 'deny')
    return immediate(
      failure(
        name,
        decision.errorType ?? 'policy_violation',
        `denied: ${decision.reason}. This call will not be allowed; choose another way.`,
      ),
      verdict,
      context.config.permissions.onDeny === 'stop'
        ? { reason: 'policy_violation', detail: decision.reason }
        : undefined,
    );
  if (decision.action === 'ask') {
    const approved = await approve(call, args, prepared, decision, context);
    verdict = approved ? 'ask:approved' : 'ask:denied';
    if (!approved)
      return immediate(
        failure(name, 'approval_denied', `not approved: ${decision.reason}; the user declined this call`),
        verdict,
      );
  }
  const writes = prepared.input.paths.filter((r) => r.access === 'write');
  for (const p of writes)
    if (writtenPaths.has(p.absolute))
      return immediate(
        failure(
          name,
          'write_conflict',
          `another call of this turn already writes ${p.relative}; write each file once per turn`,
        ),
        verdict,
      );
  for (const p of writes) writtenPaths.add(p.absolute);
  return {
    kind: 'ready',
    call,
    tool,
    args,
    prepared,
    verdict,
    concurrent: prepared.input.effect === 'read' && tool.runsAlone !== true,
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
