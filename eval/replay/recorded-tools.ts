/**
 * Tools for replaying a foreign recording: each tool the recording declared, answering with the
 * *recorded tool result* (the `role: "tool"` message the recording's harness sent next), and
 * the replay plan (task, system prompt, first messages, model, settings) so the harness sends
 * what the recording's client sent.
 */
import type { ChatMessage, RawToolCall, ToolSchema } from '../../harness/model/types.ts';
import type { EffectClass, ToolDefinition, ToolOutput } from '../../harness/tools/types.ts';
import { canonicalJson } from '../cassette/canonical.ts';
import type { Cassette } from '../cassette/types.ts';
import { azureDeployment, bodyMessages, contentText } from '../import/common.ts';
import { decodeRecordedResponse } from './decode.ts';

/** One call the recorded model made, and the result the recording's harness answered with. */
export interface RecordedCall {
  /** Exchange (model turn) whose response holds the call, 0-based. */
  exchange: number;
  /** Position of the call within that turn, 0-based. */
  position: number;
  /** The id the model gave, `null` when none (e.g. a `tool_use_failed` call). */
  recordedId: string | null;
  name: string;
  /** Canonical JSON of the arguments when they parse, else the raw text. */
  argumentsKey: string;
  /** The recorded tool message content; `null` when the recording holds none. */
  result: string | null;
}

/** The not-executed answer for a call the recording has no result for. */
export const NO_RECORDED_RESULT: ToolOutput = {
  ok: false,
  errorType: 'not_executed',
  message:
    'the recording has no result for this call (response-only recording or the conversation ended here)',
};

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Canonical key of arguments: an object or a JSON string → canonical JSON; anything else → its text. */
export function argumentsKey(args: unknown): string {
  if (typeof args === 'string') {
    try {
      return canonicalJson(JSON.parse(args));
    } catch {
      return args;
    }
  }
  return canonicalJson(args ?? {});
}

function callsOf(cassette: Cassette, exchange: number): RawToolCall[] {
  try {
    return decodeRecordedResponse(cassette.exchanges[exchange]!.response, exchange).toolCalls;
  } catch {
    return [];
  }
}

/** The content of the first tool message answering `id` in `messages` from `from` on. */
function toolResult(messages: Record<string, unknown>[], id: string, from = 0): string | null {
  const message = messages.slice(from).find((m) => m.role === 'tool' && m.tool_call_id === id);
  return message ? contentText(message.content) : null;
}

/** Which exchanges to index and, for each, the next exchange of its conversation. */
export interface CallIndexOptions {
  /** The model exchanges (default: every exchange). */
  exchanges?: readonly number[];
  /** The next exchange of the same conversation (default: the next index). */
  next?: (exchange: number) => number | undefined;
}

/**
 * Positional lookup: in the request after turn `exchange`, the assistant message that replays
 * the turn (the first assistant message with tool calls past the previous request's messages),
 * its `position`-th call, and the tool message answering it (by that call's id, else the
 * `position`-th tool message after the assistant message).
 */
function positionalResult(
  cassette: Cassette,
  exchange: number,
  position: number,
  name: string,
  following: number | undefined,
): string | null {
  const next = bodyMessages(
    following === undefined ? undefined : cassette.exchanges[following]?.request.body,
  );
  if (next.length === 0) return null;
  const start = Math.min(bodyMessages(cassette.exchanges[exchange]?.request.body).length, next.length);
  const isCaller = (m: Record<string, unknown>): boolean =>
    m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > position;
  let at = next.findIndex((m, i) => i >= start && isCaller(m));
  for (let i = next.length - 1; at < 0 && i >= 0; i--) if (isCaller(next[i]!)) at = i;
  if (at < 0) return null;
  const call = (next[at]!.tool_calls as unknown[])[position];
  if (!isObj(call) || (isObj(call.function) && call.function.name !== name)) return null;
  if (typeof call.id === 'string') return toolResult(next, call.id, at + 1);
  const tools = next.slice(at + 1).filter((m) => m.role === 'tool');
  return tools[position] ? contentText(tools[position].content) : null;
}

/**
 * Every call of every recorded turn with its recorded result: looked up by the call's id in any
 * later request, else by position in the next request of the same conversation.
 */
export function indexRecordedCalls(cassette: Cassette, options: CallIndexOptions = {}): RecordedCall[] {
  const out: RecordedCall[] = [];
  const indexes = options.exchanges ?? cassette.exchanges.map((_, i) => i);
  const next = options.next ?? ((i: number) => (i + 1 < cassette.exchanges.length ? i + 1 : undefined));
  for (const exchange of indexes) {
    callsOf(cassette, exchange).forEach((call, position) => {
      const name = typeof call.function?.name === 'string' ? call.function.name : '';
      const recordedId = typeof call.id === 'string' && call.id !== '' ? call.id : null;
      let result: string | null = null;
      if (recordedId)
        for (const later of indexes.filter((i) => i > exchange)) {
          result = toolResult(bodyMessages(cassette.exchanges[later]!.request.body), recordedId);
          if (result !== null) break;
        }
      result ??= positionalResult(cassette, exchange, position, name, next(exchange));
      out.push({
        exchange,
        position,
        recordedId,
        name,
        argumentsKey: argumentsKey(call.function?.arguments),
        result,
      });
    });
  }
  return out;
}

/** Options of {@link recordedTools}. */
export interface RecordedToolsOptions extends CallIndexOptions {
  /**
   * The replay model of the run, to prefer calls of the turn it served last (`lastServed`, an
   * exchange index) when a call id does not match a recorded one.
   */
  model?: { readonly lastServed?: number };
  /** The effect class of a recorded tool (default `read`); see `tool-effects.ts`. */
  effectOf?: (tool: string) => EffectClass;
}

/** The recorded tools of a replay, and what they served. */
export interface RecordedToolbox {
  tools: ToolDefinition[];
  /** The recorded content served for a call (by the id the harness gave it), if any. */
  servedResult(callId: string): string | undefined;
  /** True when the recording holds a result for this call: the recorded client ran it. */
  hasRecordedResult(tool: string, args: unknown, callId: string): boolean;
}

/**
 * One tool per function the recording declared (union over every request's `tools`, first
 * declaration wins; `parameters` as recorded, `{type: "object"}` when none), effect `read`.
 * For a response-only recording, the tools are declared from the calls observed in the
 * responses, with the schema `{type: "object"}`.
 *
 * `execute` returns the recorded result for the call: by `context.callId` = the recorded id,
 * else the first unserved recorded call with the same name and arguments (same turn first when
 * `options.model` is given), else the first unserved call of that name in that turn; each
 * recorded result is served once. No recorded result → `not_executed` ({@link NO_RECORDED_RESULT}).
 *
 * The tools share that "served" state: build them once per run (as {@link replayPlan} does).
 */
export function recordedTools(cassette: Cassette, options: RecordedToolsOptions = {}): ToolDefinition[] {
  return recordedToolbox(cassette, options).tools;
}

/** {@link recordedTools} with the record of what they served (see {@link RecordedToolbox}). */
export function recordedToolbox(cassette: Cassette, options: RecordedToolsOptions = {}): RecordedToolbox {
  const calls = indexRecordedCalls(cassette, options);
  const served = new Set<RecordedCall>();
  const servedById = new Map<string, string>();
  const declared = new Map<string, { description: string; parameters: Record<string, unknown> }>();
  for (const { function: fn } of recordedToolSchemas(cassette))
    declared.set(fn.name, {
      description: typeof fn.description === 'string' ? fn.description : '',
      parameters: isObj(fn.parameters) ? fn.parameters : { type: 'object' },
    });
  const responseOnly = (options.exchanges ?? cassette.exchanges.map((_, i) => i)).every(
    (i) => !cassette.exchanges[i]!.request.body,
  );
  if (responseOnly)
    for (const call of calls)
      if (call.name !== '' && !declared.has(call.name))
        declared.set(call.name, {
          description: 'declared from a call observed in a response-only recording',
          parameters: { type: 'object' },
        });

  const lookup = (name: string, args: unknown, callId: string): RecordedCall | undefined => {
    const open = calls.filter((c) => !served.has(c) && c.name === name);
    const byId = open.find((c) => c.recordedId === callId);
    if (byId) return byId;
    const key = argumentsKey(args);
    const turn = options.model?.lastServed;
    return (
      open.find((c) => c.exchange === turn && c.argumentsKey === key) ??
      open.find((c) => c.argumentsKey === key) ??
      open.find((c) => c.exchange === turn)
    );
  };

  const tools = [...declared].map(([name, { description, parameters }]) => ({
    name,
    description,
    parameters,
    effect: options.effectOf?.(name) ?? ('read' as const),
    async execute(args: Record<string, unknown>, context: { callId: string }): Promise<ToolOutput> {
      const call = lookup(name, args, context.callId);
      if (!call) return NO_RECORDED_RESULT;
      served.add(call);
      if (call.result === null) return NO_RECORDED_RESULT;
      servedById.set(context.callId, call.result);
      return {
        ok: true,
        content: call.result,
        details: {
          recorded: true,
          exchange: call.exchange,
          position: call.position,
          recordedId: call.recordedId,
        },
      };
    },
  }));
  return {
    tools,
    servedResult: (callId) => servedById.get(callId),
    hasRecordedResult: (tool, args, callId) => lookup(tool, args, callId)?.result != null,
  };
}

/** What the harness needs to replay a recording as its client sent it. */
export interface ReplayPlan {
  /** The first user message of the first request (a placeholder for response-only recordings). */
  task: string;
  /** The text of the first request's leading `system` message, if any. */
  systemPrompt: string | null;
  /**
   * Every message of the first request, as recorded: the whole history, so a recording that
   * starts mid-conversation (assistant turns and tool results already in its first request)
   * replays with all of it.
   */
  initialMessages: ChatMessage[];
  tools: ToolDefinition[];
  /**
   * The recorded tool schemas exactly as the client sent them (union over the requests, first
   * declaration of each name, in order): with `strict`, without `type` (Mistral's client), …
   * A harness that sends these instead of schemas built from {@link ReplayPlan.tools} avoids
   * divergences that only come from how the tools are declared.
   */
  toolSchemas: ToolSchema[];
  /** `model` of the first request; Azure: the deployment name; else the model requested or served. */
  model: string;
  /** The first request's other body fields (tool_choice, stream, temperature, stream_options, …). */
  settings: Record<string, unknown>;
}

/**
 * The recorded `tools` entries, verbatim: union over the requests (of `exchanges`, default all),
 * first declaration of each name wins.
 */
export function recordedToolSchemas(cassette: Cassette, exchanges?: readonly number[]): ToolSchema[] {
  const seen = new Set<string>();
  const out: ToolSchema[] = [];
  for (const index of exchanges ?? cassette.exchanges.map((_, i) => i)) {
    const tools = cassette.exchanges[index]?.request.body?.tools;
    if (!Array.isArray(tools)) continue;
    for (const tool of tools) {
      const name = isObj(tool) && isObj(tool.function) ? tool.function.name : undefined;
      if (typeof name !== 'string' || seen.has(name)) continue;
      seen.add(name);
      out.push(tool as ToolSchema);
    }
  }
  return out;
}

/** The task given to the harness when the recording has no request. */
export const RESPONSE_ONLY_TASK = '(response-only recording: the request and its task were not recorded)';

/**
 * The start of a conversation's replay: the request of exchange `first` (messages as the whole
 * history, model, settings) and the tool schemas recorded over `exchanges` (default: all).
 */
export function planStart(
  cassette: Cassette,
  first: number,
  exchanges?: readonly number[],
): Omit<ReplayPlan, 'tools'> {
  const exchange = cassette.exchanges[first];
  const body = exchange?.request.body ?? null;
  const messages = bodyMessages(body);
  const lead = messages[0];
  const firstUser = messages.find((m) => m.role === 'user');
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body ?? {}))
    if (!['messages', 'tools', 'model'].includes(key)) settings[key] = value;
  const { meta } = cassette;
  return {
    task: (firstUser ? contentText(firstUser.content) : null) ?? meta.task ?? RESPONSE_ONLY_TASK,
    systemPrompt: lead?.role === 'system' ? contentText(lead.content) : null,
    initialMessages: messages.map((m) => structuredClone(m)) as unknown as ChatMessage[],
    toolSchemas: recordedToolSchemas(cassette, exchanges),
    model:
      (typeof body?.model === 'string' ? body.model : null) ??
      (exchange ? azureDeployment(exchange.request.path) : null) ??
      meta.modelRequested ??
      meta.modelServed ??
      'replay',
    settings,
  };
}

/**
 * Builds the {@link ReplayPlan} of a cassette, or of one conversation of it (`conversation`:
 * its exchanges, the first one giving messages, model and settings; default: every exchange);
 * `options` go to {@link recordedTools}.
 */
export function replayPlan(
  cassette: Cassette,
  options: RecordedToolsOptions & { conversation?: readonly number[] } = {},
): ReplayPlan {
  const scope = options.conversation ?? options.exchanges;
  return { ...planStart(cassette, scope?.[0] ?? 0, scope), tools: recordedTools(cassette, options) };
}
