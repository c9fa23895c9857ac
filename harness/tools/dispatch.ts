/**
 * Steps 2–9 of the tool-call pipeline for one turn, in the documented order: parse → look up →
 * validate → (loop check) → policy → approval → execute → shape → append
 * (`../shared/design/architecture.md` §4). Every call gets exactly one result, in call order;
 * model mistakes become structured results, never exceptions.
 */
import { capOutput, escapeInvisible } from '../context/shape.ts';
import type { HarnessConfig } from '../config.ts';
import type { HarnessDeps } from '../deps.ts';
import type { UnstampedEvent } from '../events.ts';
import type { StopReason } from '../loop/stop-reasons.ts';
import type { LoopDetector } from '../loop/loop-detector.ts';
import { decide } from '../policy/policy.ts';
import { resolvePath, type ResolvedPath } from '../policy/paths.ts';
import { matchCommandPattern } from '../policy/pattern.ts';
import type { ApprovalAnswer, PolicyDecision, Verdict } from '../policy/types.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { SandboxUnavailableError } from '../sandbox/types.ts';
import type { AssembledCall } from './assemble.ts';
import { describeValidationErrors, type ToolRegistry } from './registry.ts';
import { failure, resultToModelText, type ToolDefinition, type ToolResult } from './types.ts';

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
}

/** One call's result, ready to append. */
export interface DispatchedCall {
  call: AssembledCall;
  result: ToolResult;
  content: string;
}

/** The results of a turn and, when a call ends the run, the stop reason. */
export interface TurnOutcome {
  results: DispatchedCall[];
  stop?: { reason: StopReason; detail: string };
}

/** Runs the pipeline for every call of a turn, in order. Never throws for model mistakes. */
export async function dispatchTurn(calls: readonly AssembledCall[], context: DispatchContext): Promise<TurnOutcome> {
  const results: DispatchedCall[] = [];
  let stop: TurnOutcome['stop'];
  const writtenPaths = new Set<string>();
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
    const outcome = await runOne(call, context, stop, writtenPaths);
    if (outcome.stop && !stop) stop = outcome.stop;
    const content = resultToModelText(outcome.result);
    context.emit({
      type: 'tool_call_end',
      callId: call.callId,
      tool: call.name,
      ok: outcome.result.ok,
      ...(outcome.result.ok ? {} : { errorType: outcome.result.error_type, retryable: outcome.result.retryable }),
      executed: outcome.executed,
      verdict: outcome.verdict,
      content,
      durationMs: context.deps.now() - started,
    });
    results.push({ call, result: outcome.result, content });
  }
  return { results, ...(stop ? { stop } : {}) };
}

interface OneOutcome {
  result: ToolResult;
  executed: boolean;
  verdict: Verdict;
  stop?: TurnOutcome['stop'];
}

async function runOne(
  call: AssembledCall,
  context: DispatchContext,
  stopped: TurnOutcome['stop'],
  writtenPaths: Set<string>,
): Promise<OneOutcome> {
  const none = (result: ToolResult, stop?: TurnOutcome['stop']): OneOutcome => ({ result, executed: false, verdict: 'none', ...(stop ? { stop } : {}) });
  const name = call.name;
  if (call.truncated)
    return none(failure(name, 'truncated_call', 'the reply was cut off by the output token limit while this call was being written; it was not run. Send it again, shorter (split large content over several calls).'));
  if (context.signal.aborted) return none(failure(name, 'interrupted', 'not executed: the run was cancelled'));
  if (context.wrapUp) return none(failure(name, 'not_executed', 'not executed: the budget is spent; this turn is for a summary only'));
  if (stopped) return none(failure(name, 'not_executed', `not executed: the run is stopping (${stopped.reason})`));
  if (context.counters.toolCalls >= context.config.limits.maxToolCalls)
    return none(failure(name, 'not_executed', `not executed: the tool-call budget of ${context.config.limits.maxToolCalls} calls is spent`), {
      reason: 'tool_budget_exceeded',
      detail: `limit ${context.config.limits.maxToolCalls} tool calls`,
    });
  context.counters.toolCalls += 1;

  const tool = context.registry.get(name);
  if (call.parsed.ok === false && call.parsed.errorType === 'invalid_json') {
    const schema = tool ? `; the ${name} parameter schema is: ${JSON.stringify(tool.definition.parameters)}` : '';
    return loopGuard(call, context, () => none(failure(name, 'invalid_json', `${call.parsed.ok ? '' : call.parsed.reason}; received: ${quote(call.rawArguments)}${schema}`)));
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
      none(failure(name, 'invalid_arguments', `invalid arguments for ${name}: ${call.parsed.ok ? '' : call.parsed.reason}${call.parsed.ok || !isEmptyArguments(call.rawArguments) ? '' : missingHint(tool.definition)}`)),
    );
  const args = call.parsed.args;
  if (!tool.validate(args))
    return loopGuard(call, context, () =>
      none(failure(name, 'invalid_arguments', `invalid arguments for ${name}: ${describeValidationErrors(tool.validate.errors)}; rewrite the call to satisfy the schema ${JSON.stringify(tool.definition.parameters)}`)),
    );
  return loopGuard(call, context, () => policyAndRun(call, tool.definition, args, context, writtenPaths));
}

/** Missing, null or blank arguments: the only case where "required property … is missing" is true. */
function isEmptyArguments(raw: unknown): boolean {
  return raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
}

function missingHint(definition: ToolDefinition): string {
  const required = (definition.parameters as { required?: string[] }).required ?? [];
  return required.length > 0 ? `; required property '${required[0]}' is missing (required: ${required.join(', ')})` : '';
}

/** Applies loop detection around a step: a repeat with an unchanged outcome is not run. */
async function loopGuard(call: AssembledCall, context: DispatchContext, step: () => OneOutcome | Promise<OneOutcome>): Promise<OneOutcome> {
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
      ...(stop ? { stop: { reason: 'repeated_tool_call' as const, detail: `${call.name} repeated ${verdict.count} times` } } : {}),
    };
  }
  const outcome = await step();
  const text = outcome.result.ok ? `ok:${outcome.result.data}` : `${outcome.result.error_type}:${outcome.result.message}`;
  context.loop.record(call.loopKey, text);
  return outcome;
}

async function policyAndRun(
  call: AssembledCall,
  tool: ToolDefinition,
  args: Record<string, unknown>,
  context: DispatchContext,
  writtenPaths: Set<string>,
): Promise<OneOutcome> {
  const name = call.name;
  const accesses = tool.paths?.(args) ?? [];
  const resolved: (ResolvedPath & { access: 'read' | 'write' })[] = [];
  for (const access of accesses) resolved.push({ ...(await resolvePath(context.workspace, access.path)), access: access.access });
  const command = tool.command?.(args);
  const decision: PolicyDecision = decide(
    { tool: name, effect: tool.effect, paths: resolved, ...(command !== undefined ? { commands: [command] } : {}) },
    context.config,
  );
  context.emit({ type: 'policy_decision', callId: call.callId, tool: name, action: decision.action, decision });
  let verdict: Verdict = decision.action === 'allow' ? 'allow' : 'deny';
  if (decision.action === 'deny') {
    const errorType = decision.errorType ?? 'policy_violation';
    const stop = context.config.permissions.onDeny === 'stop' ? { reason: 'policy_violation' as const, detail: decision.reason } : undefined;
    return { result: failure(name, errorType, `denied: ${decision.reason}. This call will not be allowed; choose another way.`), executed: false, verdict, ...(stop ? { stop } : {}) };
  }
  if (decision.action === 'ask') {
    const approved = await approve(call, tool, args, resolved, command, decision, context);
    verdict = approved ? 'ask:approved' : 'ask:denied';
    if (!approved) return { result: failure(name, 'approval_denied', `not approved: ${decision.reason}; the user declined this call`), executed: false, verdict };
  }
  for (const p of resolved.filter((r) => r.access === 'write')) {
    if (writtenPaths.has(p.absolute))
      return { result: failure(name, 'write_conflict', `another call of this turn already writes ${p.relative}; write each file once per turn`), executed: false, verdict };
  }
  for (const p of resolved.filter((r) => r.access === 'write')) writtenPaths.add(p.absolute);
  let output;
  try {
    output = await tool.execute(args, {
      callId: call.callId,
      sandbox: context.sandbox,
      deps: context.deps,
      signal: context.signal,
      workspace: context.workspace,
      resolvedPaths: resolved.map((r) => r.absolute),
    });
  } catch (error) {
    if (error instanceof SandboxUnavailableError)
      return { result: failure(name, 'sandbox_unavailable', `${error.message}; ${error.hint}`), executed: true, verdict };
    return { result: failure(name, 'tool_failed', `${name} failed: ${(error as Error)?.message ?? String(error)}`), executed: true, verdict };
  }
  if (!output.ok) return { result: failure(name, output.errorType, output.message), executed: true, verdict };
  const shaped = capOutput(output.content, context.config.context.toolOutputMaxChars);
  return { result: { ok: true, tool: name, data: shaped.text }, executed: true, verdict };
}

async function approve(
  call: AssembledCall,
  tool: ToolDefinition,
  args: Record<string, unknown>,
  resolved: (ResolvedPath & { access: 'read' | 'write' })[],
  command: string | undefined,
  decision: PolicyDecision,
  context: DispatchContext,
): Promise<boolean> {
  const mode = context.config.permissions.mode;
  const emit = (approved: boolean, by: 'approver' | 'headless' | 'auto' | 'grant' | 'none', grant?: string) => {
    context.emit({ type: 'approval_decision', callId: call.callId, approved, by, ...(grant ? { grant } : {}) });
    return approved;
  };
  if (mode === 'auto') return emit(true, 'auto');
  if (mode === 'headless' || mode === 'plan') return emit(false, 'headless');
  const shapeSubject = command ?? resolved.map((r) => r.relative).join(' ');
  const grant = context.grants.find((g) => g.startsWith(`${call.name}:`) && matchCommandPattern(g.slice(call.name.length + 1), shapeSubject));
  if (grant) return emit(true, 'grant', grant);
  if (!context.deps.approver) return emit(false, 'none');
  let answer: ApprovalAnswer;
  try {
    answer = await context.deps.approver({
      callId: call.callId,
      tool: call.name,
      effect: tool.effect,
      argumentsText: escapeInvisible(JSON.stringify(args)),
      paths: resolved.map((r) => ({ path: r.absolute, access: r.access })),
      ...(command !== undefined ? { command: escapeInvisible(command) } : {}),
      decision,
    });
  } catch {
    return emit(false, 'approver');
  }
  if (typeof answer === 'object' && answer !== null && 'approveShape' in answer) {
    const shape = `${call.name}:${answer.approveShape}`;
    context.grants.push(shape);
    return emit(true, 'approver', shape);
  }
  return emit(answer === 'approve', 'approver');
}

function quote(raw: unknown): string {
  const text = typeof raw === 'string' ? raw : JSON.stringify(raw) ?? String(raw);
  return JSON.stringify(text.length > 500 ? `${text.slice(0, 500)}…` : text);
}
