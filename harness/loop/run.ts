/**
 * The run loop: budgets → request → model call → assemble → dispatch → append, until exactly
 * one stop reason (`docs/architecture.md` §1, §4, §6). Phases live in their own
 * files (budgets, turn handling, dispatch); this file only sequences them.
 */
import { priceFor, type HarnessConfig } from '../config.ts';
import { openRunContext, type RunMemoryOptions } from '../context/run-context.ts';
import { countRequest, usageOf } from '../context/tokens.ts';
import type { HarnessDeps } from '../deps.ts';
import type { HarnessEvent, UnstampedEvent } from '../events.ts';
import { buildLedger, type RunResult } from '../ledger.ts';
import {
  ModelError,
  type AssistantMessage,
  type ChatMessage,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type ToolSchema,
  type Usage,
} from '../model/types.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { assembleCalls } from '../tools/assemble.ts';
import { dispatchTurn, type DispatchedCall } from '../tools/dispatch.ts';
import { isUntrusted, messageOrigins, recordTaint, type TaintState } from '../policy/taint.ts';
import { ToolRegistry } from '../tools/registry.ts';
import type { ToolDefinition } from '../tools/types.ts';
import { checkBudgets, type BudgetStop } from './budgets.ts';
import { LoopDetector } from './loop-detector.ts';
import { contentFilterStop, type StopReason } from './stop-reasons.ts';
import { reasoningFields } from '../model/reasoning.ts';
import { detectTextToolCall, TEXT_TOOL_CALL_NOTE, TRUNCATED_TEXT_NOTE, WRAP_UP_NOTE } from './notes.ts';
import { contentText } from '../model/content.ts';

/** Inputs of one run. */
export interface RunOptions {
  /** The user's task; ignored when `initialMessages` is given. */
  task: string;
  config: HarnessConfig;
  model: Model;
  /** The enabled tools (built-ins already chosen, plus scenario or recorded tools). */
  tools: readonly ToolDefinition[] | ToolRegistry;
  sandbox: Sandbox;
  /** Absolute real path of the workspace root. */
  workspace: string;
  deps: HarnessDeps;
  /** The first messages as they are (replay of a foreign recording); default: system prompt + task. */
  initialMessages?: ChatMessage[];
  /**
   * The tool schemas declared to the model, when they must differ from the registry's (a replay
   * sends the recorded schemas exactly as recorded). Validation still uses the registry.
   */
  toolSchemas?: ToolSchema[];
  /** Extra request body fields, merged over `config.model.settings`. */
  settings?: Record<string, unknown>;
  signal?: AbortSignal;
  /**
   * Shapes approved for the session (`approve this shape` answers), shared across runs that
   * continue one conversation (a chat: one run per user line). Mutated: new grants are added.
   * @default a fresh list per run
   */
  grants?: string[];
  /**
   * The taint of the conversation (untrusted tools whose content entered it), shared like
   * `grants`; a subagent starts with its parent's. Mutated. @default a fresh, clean state
   */
  taint?: TaintState;
  /** Configurations of the ancestors that still bind (a subagent's run): decisions take the strictest. */
  ancestors?: HarnessConfig[];
  /** SQLite file of the notes (`save_note`, `search_notes`); absent: those tools answer that notes are unavailable. */
  notesPath?: string;
  /** Tools this run may call (a subagent's scope); calls to others are denied at dispatch. @default every registered tool */
  allowedTools?: readonly string[];
  /** Skills home, a shared todo list, and (set by `task`) a subagent's link to its parent; see `context/run-context.ts`. */
  memory?: RunMemoryOptions;
  /**
   * Messages the driver adds to the conversation before the next model turn, given the history
   * so far (a person typing while the harness works; a replay giving the harness the user
   * messages its recorded client sent between turns). Called before every turn; `[]` adds none.
   */
  interject?: (messages: readonly ChatMessage[]) => ChatMessage[];
}

/**
 * Runs the harness until it stops. Resolves with the transcript, every request, the events and
 * the ledger; exactly one stop reason.
 * @throws only for harness bugs and misconfiguration (e.g. `ToolRegistryError`); model
 * failures end the run with `model_error`, tool failures are results.
 */
export async function runHarness(options: RunOptions): Promise<RunResult> {
  const { config, deps, model } = options;
  const registry = options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry(options.tools);
  const events: HarnessEvent[] = [];
  const emit = (event: UnstampedEvent) => {
    const stamped = { ...event, seq: events.length, atMs: deps.now(), scope: [] } as HarnessEvent;
    events.push(stamped);
    deps.onEvent?.(stamped);
  };
  const runId = deps.newId('run_');
  const startedMs = deps.now();
  const signal = options.signal ?? new AbortController().signal;
  // Context and memory: session resume, skills, todos, subagents, the context stage (context/run-context.ts).
  const ctx = await openRunContext({
    options,
    config,
    deps,
    registry,
    runId,
    events,
    emit,
    state: () => ({ totals, counters, requests, taint, startedMs }),
    run: runHarness,
  });
  const messages: ChatMessage[] =
    ctx.initialMessages ??
    (options.initialMessages && options.initialMessages.length > 0
      ? [...options.initialMessages]
      : [
          ...(config.systemPrompt ? [{ role: 'system' as const, content: config.systemPrompt }] : []),
          { role: 'user' as const, content: options.task },
        ]);
  const requests: ModelRequest[] = [];
  // Ids of a continued conversation count as used, so a model repeating one gets a fresh id.
  const usedIds = new Set<string>(
    messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : [])),
  );
  const loop = new LoopDetector(config.loop);
  const counters = { toolCalls: 0 };
  const grants: string[] = options.grants ?? [];
  const taint: TaintState = options.taint ?? { sources: [] };
  const scope = {
    taintedBy: taint.sources,
    ...(options.ancestors ? { ancestors: options.ancestors } : {}),
    ...(options.notesPath !== undefined ? { notesPath: options.notesPath } : {}),
    ...(options.allowedTools ? { allowedTools: options.allowedTools } : {}),
    ...ctx.dispatch,
  };
  // Content of an untrusted tool that ran (output or error text) taints the rest of the run.
  const noteTaint = (results: readonly DispatchedCall[]) =>
    recordTaint(
      taint,
      results.filter((r) => r.executed).map((r) => registry.get(r.call.name)?.definition),
      config,
    );
  const totals = {
    turns: 0,
    modelCalls: 0,
    promptTokens: 0,
    completionTokens: 0,
    maxPromptTokens: 0,
    costUsd: 0,
  };
  const settings = { ...config.model.settings, ...options.settings };
  const declaredTools = options.toolSchemas ?? registry.schemas();
  let truncatedInRow = 0;
  let textCallsInRow = 0;
  let finalAnswer: string | null = null;
  let stop: { reason: StopReason; detail?: string } | undefined;
  let budgetStop: BudgetStop | undefined;
  const task = options.task || contentText(messages.find((m) => m.role === 'user')?.content);

  emit({ type: 'run_start', runId, task, tools: registry.names(), ...ctx.runStart });

  /** One model call: a turn, the wrap-up turn, or (`summary` set) a compaction's summarisation request. */
  const callModel = async (
    wrapUp: boolean,
    summary?: ChatMessage[],
  ): Promise<{ response: ModelResponse; usage: Usage } | undefined> => {
    const noTools = wrapUp || summary !== undefined || declaredTools.length === 0;
    let sent = summary;
    let estimated = 0;
    if (!sent) {
      // The context stage before every model call (context/prepare.ts); a compaction's summary is a model call too.
      let summaryFailed = false;
      const summarize = async (request: ChatMessage[]) => {
        const made = await callModel(false, request);
        summaryFailed = made === undefined;
        return made ? (made.response.content ?? '') : undefined;
      };
      const prepared = await ctx.prepare(messages, {
        ...(noTools ? {} : { tools: declaredTools }),
        ...(wrapUp ? {} : { summarize }),
      });
      if (summaryFailed) return undefined;
      sent = prepared.messages;
      estimated = prepared.tokens;
    }
    const request: ModelRequest = {
      model: config.model.name,
      messages: sent,
      ...(noTools ? {} : { tools: declaredTools }),
      ...settingsFor(settings, wrapUp || summary !== undefined),
    };
    const requestTokens = countRequest(request);
    const turn = totals.modelCalls + 1;
    emit({ type: 'turn_start', turn, wrapUp, requestTokens, ...(summary ? { compaction: true } : {}) });
    if (Math.max(requestTokens, estimated) > config.context.windowTokens) {
      stop = {
        reason: 'context_overflow',
        detail: `request of ${Math.max(requestTokens, estimated)} tokens exceeds the window of ${config.context.windowTokens}`,
      };
      return undefined;
    }
    requests.push(request);
    totals.modelCalls += 1;
    if (!wrapUp && !summary) totals.turns += 1;
    try {
      const response = await model.generate(request, signal);
      const usage = usageOf(request, response, requestTokens);
      const price = priceFor(config, config.model.name);
      const costUsd =
        (usage.promptTokens * price.inputUsdPerMTok + usage.completionTokens * price.outputUsdPerMTok) / 1e6;
      totals.promptTokens += usage.promptTokens;
      totals.completionTokens += usage.completionTokens;
      totals.maxPromptTokens = Math.max(totals.maxPromptTokens, usage.promptTokens);
      totals.costUsd += costUsd;
      const textToolCall = response.toolCalls.length === 0 ? detectTextToolCall(response.content) : undefined;
      emit({
        type: 'model_call_end',
        turn,
        ok: true,
        finishReason: response.finishReason,
        toolCalls: response.toolCalls.length,
        usage,
        costUsd,
        ...(textToolCall ? { textToolCall } : {}),
        content: response.content,
      });
      return { response, usage };
    } catch (error) {
      const modelError =
        error instanceof ModelError
          ? error
          : new ModelError('invalid_response', (error as Error)?.message ?? String(error));
      const usage: Usage = { promptTokens: 0, completionTokens: 0, source: 'estimated' };
      emit({
        type: 'model_call_end',
        turn,
        ok: false,
        finishReason: null,
        toolCalls: 0,
        usage,
        costUsd: 0,
        error: { code: modelError.code, message: modelError.message },
        content: null,
      });
      stop = signal.aborted
        ? { reason: 'human_cancelled', detail: 'cancelled during a model call' }
        : { reason: 'model_error', detail: `${modelError.code}: ${modelError.message}` };
      return undefined;
    }
  };

  while (!stop) {
    if (signal.aborted) {
      stop = { reason: 'human_cancelled', detail: 'cancelled before the next model call' };
      break;
    }
    budgetStop = checkBudgets(config, {
      ...totals,
      toolCalls: counters.toolCalls,
      elapsedMs: deps.now() - startedMs,
    });
    if (budgetStop) {
      emit({
        type: 'budget_exhausted',
        budget: budgetStop.budget,
        used: budgetStop.used,
        limit: budgetStop.limit,
      });
      stop = { reason: budgetStop.reason, detail: budgetStop.detail };
      break;
    }
    messages.push(...(options.interject?.(messages) ?? []));
    const turnResult = await callModel(false);
    if (!turnResult) break;
    const { response } = turnResult;
    const filtered = contentFilterStop(response);
    if (filtered) {
      messages.push({ role: 'assistant', content: response.content, ...reasoningFields(response) });
      stop = filtered;
      break;
    }
    const truncated = response.finishReason === 'length';
    if (response.toolCalls.length === 0) {
      const content = response.content ?? '';
      messages.push({ role: 'assistant', content: response.content, ...reasoningFields(response) });
      if (truncated) {
        truncatedInRow += 1;
        if (truncatedInRow >= config.limits.maxConsecutiveTruncations) {
          stop = {
            reason: 'output_truncated',
            detail: `${truncatedInRow} replies in a row cut off by the output token limit`,
          };
          finalAnswer = content;
          break;
        }
        messages.push({ role: 'user', content: TRUNCATED_TEXT_NOTE });
        continue;
      }
      truncatedInRow = 0;
      const textCall = config.textToolCalls === 'correct' ? detectTextToolCall(response.content) : undefined;
      if (textCall && textCallsInRow === 0) {
        textCallsInRow += 1;
        messages.push({ role: 'user', content: TEXT_TOOL_CALL_NOTE });
        continue;
      }
      finalAnswer = content;
      stop = { reason: 'final_answer' };
      break;
    }
    textCallsInRow = 0;
    const { calls } = assembleCalls(response.toolCalls, { registry, deps, usedIds, truncated });
    const assistant: AssistantMessage = {
      role: 'assistant',
      content: response.content,
      tool_calls: calls.map((c) => c.wire),
      ...reasoningFields(response),
    };
    messages.push(assistant);
    const outcome = await dispatchTurn(calls, {
      registry,
      config,
      deps,
      sandbox: options.sandbox,
      workspace: options.workspace,
      loop,
      emit,
      signal,
      turn: totals.modelCalls,
      counters,
      grants,
      wrapUp: false,
      ...scope,
    });
    for (const item of outcome.results)
      messages.push({ role: 'tool', tool_call_id: item.call.callId, content: item.content });
    noteTaint(outcome.results);
    if (truncated) {
      truncatedInRow += 1;
      if (truncatedInRow >= config.limits.maxConsecutiveTruncations) {
        stop = {
          reason: 'output_truncated',
          detail: `${truncatedInRow} turns in a row cut off by the output token limit`,
        };
        break;
      }
    } else truncatedInRow = 0;
    if (outcome.stop) {
      stop = outcome.stop;
      if (outcome.stop.reason === 'tool_budget_exceeded')
        budgetStop = {
          reason: 'tool_budget_exceeded',
          budget: 'toolCalls',
          used: counters.toolCalls,
          limit: config.limits.maxToolCalls,
          detail: outcome.stop.detail,
        };
      if (budgetStop)
        emit({
          type: 'budget_exhausted',
          budget: budgetStop.budget,
          used: budgetStop.used,
          limit: budgetStop.limit,
        });
      break;
    }
  }

  if (budgetStop && config.limits.wrapUpTurn && !signal.aborted) {
    messages.push({ role: 'user', content: WRAP_UP_NOTE });
    const wrap = await callModel(true);
    if (wrap) {
      const { calls } = assembleCalls(wrap.response.toolCalls, { registry, deps, usedIds, truncated: false });
      messages.push({
        role: 'assistant',
        content: wrap.response.content,
        ...(calls.length > 0 ? { tool_calls: calls.map((c) => c.wire) } : {}),
        ...reasoningFields(wrap.response),
      });
      if (calls.length > 0) {
        const outcome = await dispatchTurn(calls, {
          registry,
          config,
          deps,
          sandbox: options.sandbox,
          workspace: options.workspace,
          loop,
          emit,
          signal,
          turn: totals.modelCalls,
          counters,
          grants,
          wrapUp: true,
          ...scope,
        });
        for (const item of outcome.results)
          messages.push({ role: 'tool', tool_call_id: item.call.callId, content: item.content });
      }
      finalAnswer = wrap.response.content;
    }
    stop = { reason: budgetStop.reason, detail: budgetStop.detail };
  }

  const final = stop ?? {
    reason: 'model_error' as const,
    detail: 'the loop ended without a stop reason (harness bug)',
  };
  await ctx.finish(messages);
  emit({
    type: 'run_end',
    stopReason: final.reason,
    ...(final.detail !== undefined ? { detail: final.detail } : {}),
    turns: totals.turns,
    toolCalls: counters.toolCalls,
    promptTokens: totals.promptTokens,
    completionTokens: totals.completionTokens,
    costUsd: totals.costUsd,
    finalAnswer,
  });
  return {
    runId,
    stopReason: final.reason,
    ...(final.detail !== undefined ? { stopDetail: final.detail } : {}),
    finalAnswer,
    messages,
    requests,
    events,
    ledger: buildLedger(events),
    provenance: messageOrigins(messages, (name) => {
      const tool = registry.get(name)?.definition;
      return tool ? isUntrusted(tool, config) : false;
    }),
    taintedBy: [...taint.sources],
    usage: {
      modelCalls: totals.modelCalls,
      turns: totals.turns,
      toolCalls: counters.toolCalls,
      promptTokens: totals.promptTokens,
      completionTokens: totals.completionTokens,
      totalTokens: totals.promptTokens + totals.completionTokens,
      maxPromptTokens: totals.maxPromptTokens,
      costUsd: totals.costUsd,
      wallMs: deps.now() - startedMs,
    },
  };
}

function settingsFor(settings: Record<string, unknown>, wrapUp: boolean): Partial<ModelRequest> {
  const { tool_choice: toolChoice, stream, ...rest } = settings;
  const out: Partial<ModelRequest> = {};
  if (toolChoice !== undefined && !wrapUp) out.tool_choice = toolChoice;
  if (typeof stream === 'boolean') out.stream = stream;
  if (Object.keys(rest).length > 0) out.settings = rest;
  return out;
}
