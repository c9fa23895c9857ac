/**
 * The run loop: budgets → request → model call → assemble → dispatch → append, until exactly
 * one stop reason (`docs/architecture.md` §1, §4, §6; `docs/loop.md`). A turn ends in a
 * {@link TurnOutcome} value; {@link nextStep} decides what follows and {@link applyStep} writes
 * it into the {@link RunState}. Phases live in their own files (budgets, the model call, the
 * step decision, dispatch, the context stage); this file only sequences them.
 */
import { openRunContext, type RunContext } from '../context/run-context.ts';
import { TOP_SCOPE, type HarnessEvent, type UnstampedEvent } from '../events.ts';
import { buildLedger, type RunResult } from '../ledger.ts';
import { contentText } from '../model/content.ts';
import { reasoningFields } from '../model/reasoning.ts';
import type { ChatMessage } from '../model/types.ts';
import { isUntrusted, messageOrigins, recordTaint } from '../policy/taint.ts';
import { rootLink } from '../subagent/pool.ts';
import { childFailed, closeChild, openChild, type SpawnParent } from '../subagent/spawn.ts';
import { assembleCalls } from '../tools/assemble.ts';
import { dispatchTurn, type DispatchContext } from './dispatch.ts';
import { ToolRegistry } from '../tools/registry.ts';
import type { RunServices, ToolOutput } from '../tools/types.ts';
import { checkBudgets } from './budgets.ts';
import { LoopDetector } from './loop-detector.ts';
import { callModel, settingsFor, type ModelCallSite } from './model-call.ts';
import { WRAP_UP_NOTE } from './notes.ts';
import { createRunState, type RunState } from './state.ts';
import { applyStep, nextStep, type TurnOutcome } from './step.ts';
import { contentFilterStop } from './stop-reasons.ts';
import type { RunOptions } from '../run-types.ts';

export type { RunResult } from '../ledger.ts';
export type { RunOptions } from '../run-types.ts';

/** One run's wiring: its state, the model-call site and the dispatcher's context. */
interface Run {
  state: RunState;
  registry: ToolRegistry;
  site: ModelCallSite;
  /** The dispatcher's context, one object for the run (`turn` and `wrapUp` set before each dispatch). */
  dispatch: DispatchContext;
  emit: (event: UnstampedEvent) => void;
  signal: AbortSignal;
  /** The driver's messages before each turn (`RunOptions.interject`). */
  interject?: RunOptions['interject'];
}

/**
 * Runs the harness until it stops. Resolves with the transcript, every request, the events and
 * the ledger; exactly one stop reason.
 * @throws only for harness bugs and misconfiguration (e.g. `ToolRegistryError`); model
 * failures end the run with `model_error`, tool failures are results.
 */
export async function runHarness(options: RunOptions): Promise<RunResult> {
  const { config, deps } = options;
  const registry = options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry(options.tools);
  const events: HarnessEvent[] = [];
  // Events are stamped in place and appended, never copied (every emitter passes a fresh literal).
  const emit = (event: UnstampedEvent) => {
    const stamped = event as HarnessEvent;
    stamped.seq = events.length;
    stamped.atMs = deps.now();
    stamped.scope = TOP_SCOPE;
    events.push(stamped);
    deps.onEvent?.(stamped);
  };
  const runId = deps.newId('run_');
  const startedMs = deps.now();
  const signal = options.signal ?? new AbortController().signal;
  // Context and memory: session resume, skills, todos, the context stage (context/run-context.ts).
  const ctx = await openRunContext({
    options,
    config,
    deps,
    registry,
    runId,
    events,
    emit,
  });
  const messages: ChatMessage[] =
    ctx.initialMessages ??
    (options.initialMessages && options.initialMessages.length > 0
      ? [...options.initialMessages]
      : [
          ...(config.systemPrompt ? [{ role: 'system' as const, content: config.systemPrompt }] : []),
          { role: 'user' as const, content: options.task },
        ]);
  const state = createRunState({
    runId,
    config,
    startedMs,
    messages,
    events,
    ...(options.taint ? { taint: options.taint } : {}),
    ...(options.grants ? { grants: options.grants } : {}),
  });
  const run = wire(options, registry, state, ctx, emit, signal);
  const task = options.task || contentText(messages.find((m) => m.role === 'user')?.content);
  emit({ type: 'run_start', runId, task, tools: registry.names(), ...ctx.runStart });

  while (state.stop === undefined) {
    const step = nextStep(state, await takeTurn(run));
    applyStep(state, step, emit);
    if (step.next === 'stop' && step.wrapUp) await wrapUpTurn(run);
  }

  const final = state.stop;
  const { totals } = state;
  await ctx.finish(messages);
  emit({
    type: 'run_end',
    stopReason: final.reason,
    ...(final.detail !== undefined ? { detail: final.detail } : {}),
    turns: totals.turns,
    toolCalls: totals.toolCalls,
    promptTokens: totals.promptTokens,
    completionTokens: totals.completionTokens,
    costUsd: totals.costUsd,
    finalAnswer: state.finalAnswer,
  });
  const untrusted = (name: string) => {
    const tool = registry.get(name)?.definition;
    return tool ? isUntrusted(tool, config) : false;
  };
  return {
    runId,
    stopReason: final.reason,
    ...(final.detail !== undefined ? { stopDetail: final.detail } : {}),
    finalAnswer: state.finalAnswer,
    messages,
    requests: state.requests,
    events,
    ledger: buildLedger(events),
    provenance: messageOrigins(messages, untrusted),
    taintedBy: [...state.taint.sources],
    usage: {
      modelCalls: totals.modelCalls,
      turns: totals.turns,
      toolCalls: totals.toolCalls,
      promptTokens: totals.promptTokens,
      completionTokens: totals.completionTokens,
      totalTokens: totals.promptTokens + totals.completionTokens,
      maxPromptTokens: totals.maxPromptTokens,
      costUsd: totals.costUsd,
      wallMs: deps.now() - startedMs,
    },
  };
}

/** Builds the model-call site, the dispatcher's context and the services of the memory tools. */
function wire(
  options: RunOptions,
  registry: ToolRegistry,
  state: RunState,
  ctx: RunContext,
  emit: (event: UnstampedEvent) => void,
  signal: AbortSignal,
): Run {
  const { config, deps } = options;
  const parent: SpawnParent = {
    config,
    registry,
    model: options.model,
    sandbox: options.sandbox,
    workspace: options.workspace,
    deps,
    link: options.memory?.subagent ?? rootLink(config, options.allowedTools ?? registry.names()),
    skills: ctx.services.skills,
    state,
    emit,
  };
  const settings = { ...config.model.settings, ...options.settings };
  const services: RunServices = {
    ...ctx.services,
    spawnSubagent: (description, call) => runSubagent(parent, description, call),
  };
  return {
    state,
    registry,
    emit,
    signal,
    ...(options.interject ? { interject: options.interject } : {}),
    site: {
      state,
      model: options.model,
      context: ctx,
      declaredTools: options.toolSchemas ?? registry.schemas(),
      turnFields: settingsFor(settings, false),
      plainFields: settingsFor(settings, true),
      emit,
      signal,
    },
    dispatch: {
      turn: 0,
      wrapUp: false,
      registry,
      config,
      deps,
      sandbox: options.sandbox,
      workspace: options.workspace,
      loop: new LoopDetector(config.loop),
      emit,
      signal,
      counters: state.totals,
      grants: state.grants,
      taintedBy: state.taint.sources,
      ...(options.ancestors ? { ancestors: options.ancestors } : {}),
      ...(options.notesPath !== undefined ? { notesPath: options.notesPath } : {}),
      ...(options.allowedTools ? { allowedTools: options.allowedTools } : {}),
      services,
      shapeOutput: ctx.shapeOutput,
    },
  };
}

/** One turn: budgets, the model call, and (for a reply with tool calls) assembly, dispatch and append. */
async function takeTurn(run: Run): Promise<TurnOutcome> {
  const { state, signal } = run;
  const { config, totals } = state;
  if (signal.aborted) return { kind: 'cancelled' };
  const budget = checkBudgets(config, {
    turns: totals.turns,
    toolCalls: totals.toolCalls,
    promptTokens: totals.promptTokens,
    completionTokens: totals.completionTokens,
    costUsd: totals.costUsd,
    elapsedMs: run.dispatch.deps.now() - state.startedMs,
  });
  if (budget) return { kind: 'budget', budget, aborted: signal.aborted };
  if (run.interject) state.messages.push(...run.interject(state.messages));
  const made = await callModel(run.site, false);
  if (made.kind !== 'response') return made;
  const { response } = made;
  // A filtered or refused turn is kept in the transcript; its tool calls are not run.
  const filtered = contentFilterStop(response);
  if (filtered) {
    state.messages.push({ role: 'assistant', content: response.content, ...reasoningFields(response) });
    return { kind: 'content_filter', detail: filtered.detail };
  }
  if (response.toolCalls.length === 0) {
    state.messages.push({ role: 'assistant', content: response.content, ...reasoningFields(response) });
    return { kind: 'answer', response };
  }
  const { calls } = assembleCalls(response.toolCalls, {
    registry: run.registry,
    deps: run.dispatch.deps,
    usedIds: state.usedIds,
    truncated: response.finishReason === 'length',
  });
  state.messages.push({
    role: 'assistant',
    content: response.content,
    tool_calls: calls.map((c) => c.wire),
    ...reasoningFields(response),
  });
  run.dispatch.turn = totals.modelCalls;
  run.dispatch.wrapUp = false;
  const outcome = await dispatchTurn(calls, run.dispatch);
  for (const item of outcome.results)
    state.messages.push({ role: 'tool', tool_call_id: item.call.callId, content: item.content });
  // Content of an untrusted tool that ran (output or error text) taints the rest of the run.
  const executed = outcome.results.filter((r) => r.executed);
  recordTaint(
    state.taint,
    executed.map((r) => run.registry.get(r.call.name)?.definition),
    config,
    executed.map((r) => r.untrusted),
  );
  return {
    kind: 'tools',
    response,
    ...(outcome.stop ? { stop: outcome.stop } : {}),
    aborted: signal.aborted,
  };
}

/**
 * The reserved wrap-up turn after a spent budget (`limits.wrapUpTurn`): no tools are declared
 * and no call runs; its text is the final answer. The stop is decided already.
 */
async function wrapUpTurn(run: Run): Promise<void> {
  const { state } = run;
  state.messages.push({ role: 'user', content: WRAP_UP_NOTE });
  const made = await callModel(run.site, true);
  if (made.kind !== 'response') return;
  const { calls } = assembleCalls(made.response.toolCalls, {
    registry: run.registry,
    deps: run.dispatch.deps,
    usedIds: state.usedIds,
    truncated: false,
  });
  state.messages.push({
    role: 'assistant',
    content: made.response.content,
    ...(calls.length > 0 ? { tool_calls: calls.map((c) => c.wire) } : {}),
    ...reasoningFields(made.response),
  });
  if (calls.length > 0) {
    const outcome = await dispatchTurn(calls, {
      ...run.dispatch,
      turn: state.totals.modelCalls,
      wrapUp: true,
    });
    for (const item of outcome.results)
      state.messages.push({ role: 'tool', tool_call_id: item.call.callId, content: item.content });
  }
  state.finalAnswer = made.response.content;
}

/**
 * The `task` tool's service: a subagent is this same loop, run with the child's options
 * (`subagent/spawn.ts` admits it and closes it), one slot of the parent's pool at a time.
 */
async function runSubagent(
  parent: SpawnParent,
  description: string,
  call: { callId: string; signal: AbortSignal },
): Promise<ToolOutput> {
  const opened = openChild(parent, description, call);
  if ('refused' in opened) return opened.refused;
  const { child } = opened;
  await parent.link.pool.acquire();
  try {
    parent.emit({ type: 'subagent_start', callId: call.callId, depth: child.depth, description });
    let result: RunResult;
    try {
      result = await runHarness(child.options);
    } catch (error) {
      return childFailed(parent, call, error);
    }
    return closeChild(parent, child, call, result);
  } finally {
    parent.link.pool.release();
  }
}
