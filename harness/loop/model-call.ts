/**
 * One model call as a function from the state to a result: the context stage, the request, the
 * window check, the call, usage and cost. It returns what happened (a response, a failure, an
 * overflow) and leaves the decision to `step.ts`; it appends to the state only what the call
 * itself produced (the request, the totals, the events `turn_start` and `model_call_end`).
 */
import { priceFor } from '../config.ts';
import type { RunContext } from '../context/run-context.ts';
import { countRequest, usageOf } from '../context/tokens.ts';
import type { UnstampedEvent } from '../events.ts';
import {
  ModelError,
  type ChatMessage,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type ToolSchema,
  type Usage,
} from '../model/types.ts';
import { detectTextToolCall } from './notes.ts';
import type { RunState } from './state.ts';
import type { ModelFailure, Overflow } from './step.ts';

/** What a model call produced. */
export type ModelCallResult =
  | { kind: 'response'; response: ModelResponse; usage: Usage }
  | ModelFailure
  | Overflow;

/** What a model call needs from the run. */
export interface ModelCallSite {
  state: RunState;
  model: Model;
  context: Pick<RunContext, 'prepare' | 'snapshots'>;
  /** Tool schemas declared on a normal turn (none on the wrap-up turn and on summaries). */
  declaredTools: ToolSchema[];
  /** Request fields from the settings (`config.model.settings` with the run's over them; {@link settingsFor}) of a turn. */
  turnFields: Partial<ModelRequest>;
  /** The same for the wrap-up turn and summaries (no `tool_choice`). */
  plainFields: Partial<ModelRequest>;
  emit: (event: UnstampedEvent) => void;
  signal: AbortSignal;
  /** The summarisation callback of the context stage, made once per run. */
  summarize?: (request: ChatMessage[]) => Promise<string | undefined>;
  /** How the last summarisation call failed, if it did. */
  summaryFailure?: ModelCallResult;
}

/**
 * Makes one model call: a turn, the wrap-up turn (`wrapUp`), or (`summary` set) a compaction's
 * summarisation request. A failed summarisation fails the turn that asked for it.
 */
export async function callModel(
  site: ModelCallSite,
  wrapUp: boolean,
  summary?: ChatMessage[],
): Promise<ModelCallResult> {
  const { state, emit } = site;
  const { config, totals } = state;
  const noTools = wrapUp || summary !== undefined || site.declaredTools.length === 0;
  let prepared: Awaited<ReturnType<RunContext['prepare']>> | undefined;
  let estimated = 0;
  let counted: number | undefined;
  let overflow: string | undefined;
  if (!summary) {
    // The context stage before every model call (context/prepare.ts); a compaction's summary is a model call too.
    site.summaryFailure = undefined;
    prepared = await site.context.prepare(state.messages, {
      ...(noTools ? {} : { tools: site.declaredTools }),
      ...(wrapUp ? {} : { summarize: (site.summarize ??= summarizer(site)) }),
    });
    const failed = site.summaryFailure as ModelCallResult | undefined;
    if (failed) return failed;
    estimated = prepared.tokens;
    counted = prepared.counted;
    overflow = prepared.stop?.detail;
  }
  const fields: Omit<ModelRequest, 'model' | 'messages'> = {
    ...(noTools ? {} : { tools: site.declaredTools }),
    ...(wrapUp || summary !== undefined ? site.plainFields : site.turnFields),
  };
  // A turn's messages are a view on the history (context/snapshots.ts), never a copy per turn.
  const request: ModelRequest = prepared
    ? site.context.snapshots.request(config.model.name, prepared.history, prepared.reminder, fields)
    : { model: config.model.name, messages: summary ?? [], ...fields };
  // The context stage counted this request already (incrementally); a summary request is counted here.
  const requestTokens = counted ?? countRequest(request);
  const turn = totals.modelCalls + 1;
  emit({ type: 'turn_start', turn, wrapUp, requestTokens, ...(summary ? { compaction: true } : {}) });
  const needed = Math.max(requestTokens, estimated);
  if (overflow !== undefined || needed > config.context.windowTokens)
    return {
      kind: 'context_overflow',
      detail: overflow ?? `request of ${needed} tokens exceeds the window of ${config.context.windowTokens}`,
    };
  state.requests.push(request);
  totals.modelCalls += 1;
  if (!wrapUp && !summary) totals.turns += 1;
  try {
    const response = await site.model.generate(request, site.signal);
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
    return { kind: 'response', response, usage };
  } catch (error) {
    const modelError =
      error instanceof ModelError
        ? error
        : new ModelError('invalid_response', (error as Error)?.message ?? String(error));
    emit({
      type: 'model_call_end',
      turn,
      ok: false,
      finishReason: null,
      toolCalls: 0,
      usage: { promptTokens: 0, completionTokens: 0, source: 'estimated' },
      costUsd: 0,
      error: { code: modelError.code, message: modelError.message },
      content: null,
    });
    return { kind: 'model_error', error: modelError, aborted: site.signal.aborted };
  }
}

/** The context stage's summarisation callback: one model call; a failure is kept on the site and fails the turn. */
function summarizer(site: ModelCallSite): (request: ChatMessage[]) => Promise<string | undefined> {
  return async (request) => {
    const made = await callModel(site, false, request);
    if (made.kind !== 'response') site.summaryFailure = made;
    return made.kind === 'response' ? (made.response.content ?? '') : undefined;
  };
}

/** The request fields from the settings: `tool_choice` (not on a wrap-up or summary), `stream`, the rest as `settings`. */
export function settingsFor(settings: Record<string, unknown>, wrapUp: boolean): Partial<ModelRequest> {
  const { tool_choice: toolChoice, stream, ...rest } = settings;
  const out: Partial<ModelRequest> = {};
  if (toolChoice !== undefined && !wrapUp) out.tool_choice = toolChoice;
  if (typeof stream === 'boolean') out.stream = stream;
  if (Object.keys(rest).length > 0) out.settings = rest;
  return out;
}
