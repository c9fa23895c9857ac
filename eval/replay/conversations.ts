/**
 * Conversations in a recording. A client that runs side conversations (a sub-agent, a crew's
 * coworkers, MCP sampling, a query rewriter) records their requests interleaved with the main
 * one; each request belongs to the conversation whose history it continues. Requests are
 * compared by the *signature* of each message (role, text, non-text parts, tool calls by name
 * and canonical arguments, reasoning whichever field carries it), so client-made ids, `null` vs
 * absent fields and cache markers do not split a conversation.
 */
import { contentText, nonTextParts } from '../../harness/model/content.ts';
import type { MessageContent } from '../../harness/model/types.ts';
import { canonicalJson } from '../cassette/canonical.ts';
import type { Cassette } from '../cassette/types.ts';
import { bodyMessages } from '../import/common.ts';
import { decodeRecordedResponse } from './decode.ts';
import { argumentsKey } from './recorded-tools.ts';

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A leading `<think>…</think>` block (how pydantic-ai sends Groq's reasoning back) and the rest. */
export function splitThink(text: string): { think?: string; rest: string } {
  const match = /^\s*<think>([\s\S]*?)<\/think>\s*/.exec(text);
  return match ? { think: match[1]!.trim(), rest: text.slice(match[0].length) } : { rest: text };
}

/** Roles whose messages the client writes (not the model, not a tool). */
export const CLIENT_ROLES: ReadonlySet<string> = new Set(['system', 'developer', 'user']);

/**
 * The signature of one message: what must be equal for two requests to share it. Role; text of
 * the content (a leading `<think>` block of an assistant message left out); non-text parts as
 * canonical JSON; tool calls as name and canonical arguments; a tool message's content text.
 * Ids, `name` on tool messages and reasoning fields are not part of it.
 */
export function messageSignature(message: Record<string, unknown>): string {
  return computeSignature(message);
}

/** Signatures of recorded messages, by object (a cassette is never mutated during a replay). */
const recordedSignatures = new WeakMap<object, string>();

/** {@link messageSignature} of a recorded message, computed once per message object. */
function recordedSignature(message: Record<string, unknown>): string {
  let signature = recordedSignatures.get(message);
  if (signature === undefined) {
    signature = computeSignature(message);
    recordedSignatures.set(message, signature);
  }
  return signature;
}

function computeSignature(message: Record<string, unknown>): string {
  const role = typeof message.role === 'string' ? message.role : '';
  let text = contentText(message.content as MessageContent);
  if (role === 'assistant') text = splitThink(text).rest;
  const parts = nonTextParts(message.content as MessageContent).map((p) => canonicalJson(p));
  const calls = Array.isArray(message.tool_calls)
    ? message.tool_calls.map((call) => {
        const fn = isObj(call) && isObj(call.function) ? call.function : {};
        return [typeof fn.name === 'string' ? fn.name : '', argumentsKey(fn.arguments)];
      })
    : [];
  return canonicalJson([role === 'developer' ? 'system' : role, text, parts, calls]);
}

/**
 * How many leading messages two message lists share, by {@link messageSignature}. `recorded`
 * comes from a cassette (its signatures are cached), `other` from anywhere.
 */
export function sharedPrefix(
  recorded: readonly Record<string, unknown>[],
  other: readonly Record<string, unknown>[],
): number {
  const n = Math.min(recorded.length, other.length);
  for (let i = 0; i < n; i++) if (recordedSignature(recorded[i]!) !== messageSignature(other[i]!)) return i;
  return n;
}

/**
 * The client-written messages a recorded request `next` adds after the history `messages`, or
 * `undefined` when it does not continue it. `next` continues `messages` when it repeats them
 * exactly (`[]`: nothing added), or when it ends with client-written messages (user, system)
 * after a message of the same role as the last of `messages` and `messages` does not hold them
 * yet: the history may differ on the way (the harness answered a call itself, or answered a call
 * the recorded client dropped), what the client added at the end is what the harness is given.
 * The first request of a conversation (client messages only) continues nothing.
 */
export function clientContinuation(
  messages: readonly Record<string, unknown>[],
  next: readonly Record<string, unknown>[],
): Record<string, unknown>[] | undefined {
  const shared = sharedPrefix(next, messages);
  if (shared === next.length && shared === messages.length) return [];
  let base = next.length;
  while (base > 0 && CLIENT_ROLES.has(String(next[base - 1]!.role))) base -= 1;
  if (base === 0 || base === next.length || messages.length === 0) return undefined;
  if (next[base - 1]!.role !== messages.at(-1)!.role || shared >= next.length) return undefined;
  return next.slice(base);
}

/** One conversation of a recording: its model exchanges in recorded order. */
export interface Conversation {
  /** 0-based, in order of first appearance. */
  index: number;
  /** Indexes into `cassette.exchanges`. */
  exchanges: number[];
}

/**
 * True when a recorded response is a failure the client may retry with the same request: a
 * status outside 2xx, a 2xx body with an `error` and no `choices` (Azure's filtered prompt), or
 * a stream with an `error` event.
 */
function failed(response: Cassette['exchanges'][number]['response']): boolean {
  if (response.status < 200 || response.status >= 300) return true;
  const body = response.body;
  if (isObj(body) && body.error !== undefined && body.error !== null && !Array.isArray(body.choices))
    return true;
  return (response.events ?? []).some((event) => /^\s*\{\s*"error"\s*:/.test(event.data));
}

/**
 * True when `messages`, past the first `from` (the history it shares with a conversation's last
 * request), holds a model turn with tool calls followed by anything but their results. An agent
 * answers its calls before it asks the model again (the API requires the tool messages right
 * after the calls), so such a request is not the agent's next one: it is a side conversation
 * started inside the call, on a copy of the history (an MCP server sampling the model with the
 * conversation as context, a guard model judging the pending call). It starts its own
 * conversation, and the agent's next request, with the results, goes back to the agent's.
 */
function forksInsideCall(messages: readonly Record<string, unknown>[], from: number): boolean {
  for (let i = Math.max(0, from - 1); i < messages.length - 1; i++) {
    const message = messages[i]!;
    if (message.role === 'assistant' && hasCalls(message) && messages[i + 1]!.role !== 'tool') return true;
  }
  return false;
}

/**
 * Groups the model exchanges (`indexes`, in recorded order) into conversations: an exchange
 * joins the conversation whose last request its own request extends (the longest such prefix
 * wins, then the conversation active last), else it starts a new one. A request that extends
 * it with a model turn whose calls are not answered next ({@link forksInsideCall}) is a side
 * conversation started inside a tool call and starts its own. A request equal to a conversation's last one extends it only
 * when that request failed (the client's retry); after an answer, the same request again is a
 * new session of the client (a test calling the model again with the same prompt). A request
 * that extends no conversation but carries, after the first message, the model turn with tool
 * calls that a conversation's last response served (and answers those calls next) continues that
 * conversation all the same: the client edited its history before asking again (dropped the
 * system prompt, reordered or rewrote a message), and the replay compares the edited request
 * instead of starting a run that never meets the edit. A recording without requests
 * (response-only) is one conversation.
 */
export function groupConversations(cassette: Cassette, indexes: readonly number[]): Conversation[] {
  const conversations: (Conversation & {
    last: Record<string, unknown>[];
    retry: boolean;
    lastAt: number;
  })[] = [];
  const responseOnly = indexes.every((i) => !cassette.exchanges[i]!.request.body);
  // Each exchange's served turn is decoded at most once (`servedTurnOwner`).
  const servedTurns = new Map<number, string | undefined>();
  if (responseOnly) return indexes.length > 0 ? [{ index: 0, exchanges: [...indexes] }] : [];
  for (const i of indexes) {
    const messages = bodyMessages(cassette.exchanges[i]!.request.body);
    let best: (typeof conversations)[number] | undefined;
    let bestShared = 0;
    for (const conversation of conversations) {
      const shared = sharedPrefix(conversation.last, messages);
      const continues =
        shared === conversation.last.length &&
        (messages.length > shared || conversation.retry) &&
        !forksInsideCall(messages, shared);
      const later = shared === bestShared && best !== undefined && conversation.lastAt > best.lastAt;
      if (continues && shared > 0 && (shared > bestShared || later)) {
        best = conversation;
        bestShared = shared;
      }
    }
    best ??= servedTurnOwner(cassette, conversations, messages, servedTurns);
    const retry = failed(cassette.exchanges[i]!.response);
    if (best) {
      best.exchanges.push(i);
      best.last = messages;
      best.retry = retry;
      best.lastAt = i;
    } else
      conversations.push({ index: conversations.length, exchanges: [i], last: messages, retry, lastAt: i });
  }
  return conversations.map(({ index, exchanges }) => ({ index, exchanges }));
}

/**
 * The conversation whose last response served a model turn with tool calls that `messages`
 * carries (not first, answered by tool messages next), the latest such; `undefined` when none.
 */
function servedTurnOwner<C extends Conversation & { lastAt: number }>(
  cassette: Cassette,
  conversations: readonly C[],
  messages: readonly Record<string, unknown>[],
  cache: Map<number, string | undefined>,
): C | undefined {
  const carried = new Set<string>();
  for (let k = 1; k < messages.length - 1; k++) {
    const message = messages[k]!;
    if (message.role === 'assistant' && hasCalls(message) && messages[k + 1]!.role === 'tool')
      carried.add(messageSignature(message));
  }
  if (carried.size === 0) return undefined;
  let owner: C | undefined;
  for (const conversation of conversations) {
    if (!cache.has(conversation.lastAt))
      cache.set(conversation.lastAt, servedTurnSignature(cassette, conversation.lastAt));
    const served = cache.get(conversation.lastAt);
    if (served && carried.has(served) && (!owner || conversation.lastAt > owner.lastAt)) owner = conversation;
  }
  return owner;
}

/** The signature of the model turn exchange `i` served, when it has tool calls and decodes. */
function servedTurnSignature(cassette: Cassette, i: number): string | undefined {
  try {
    const turn = decodeRecordedResponse(cassette.exchanges[i]!.response, i);
    if (turn.toolCalls.length === 0) return undefined;
    return messageSignature({
      role: 'assistant',
      content: turn.content,
      tool_calls: turn.toolCalls.map((call) => ({ function: call.function ?? call.custom ?? {} })),
    });
  } catch {
    return undefined;
  }
}

/** One edit a recorded client made to its history before its next request (see {@link clientEdits}). */
export interface ClientEdit {
  /** Position of the edited message in the recorded request's `messages`. */
  at: number;
  /** `inserted`: a client message (user, system) placed inside the history; `rewritten`: the model's last message, changed. */
  kind: 'inserted' | 'rewritten';
}

const hasCalls = (message: Record<string, unknown>) =>
  Array.isArray(message.tool_calls) && message.tool_calls.length > 0;

/**
 * The edits that turn the history `messages` (ending with the model's final answer) into the
 * recorded request `next`, when only the recorded client could have made them, else
 * `undefined`. Allowed: client-written messages (user, system) inserted anywhere or appended
 * (crewAI puts the image its "Add image to content" tool returns *before* the model's message),
 * and the model's last message rewritten, without tool calls on either side (ReAct clients such
 * as crewAI and LlamaIndex write the text tool's `Observation:` into it, or re-render its
 * `Action Input`). `served` is that message as the recorded response gave it: when `next` holds
 * it unchanged, the harness changed it, and that is no edit of the client. Every other message
 * must be equal (by {@link messageSignature}). `[]`: `next` only appends client messages.
 */
export function clientEdits(
  messages: readonly Record<string, unknown>[],
  next: readonly Record<string, unknown>[],
  served?: Record<string, unknown>,
): ClientEdit[] | undefined {
  const edits: ClientEdit[] = [];
  let j = 0;
  for (let i = 0; i < messages.length; i++) {
    const mine = messageSignature(messages[i]!);
    const last = i === messages.length - 1 && messages[i]!.role === 'assistant' && !hasCalls(messages[i]!);
    while (j < next.length && recordedSignature(next[j]!) !== mine) {
      const theirs = next[j]!;
      if (last && theirs.role === 'assistant' && !hasCalls(theirs)) break;
      if (!CLIENT_ROLES.has(String(theirs.role))) return undefined;
      edits.push({ at: j, kind: 'inserted' });
      j += 1;
    }
    if (j >= next.length) return undefined;
    if (recordedSignature(next[j]!) !== mine) {
      if (served && recordedSignature(next[j]!) === messageSignature(served)) return undefined;
      edits.push({ at: j, kind: 'rewritten' });
    }
    j += 1;
  }
  for (; j < next.length; j++) if (!CLIENT_ROLES.has(String(next[j]!.role))) return undefined;
  return edits;
}
