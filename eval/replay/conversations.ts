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
 * Groups the model exchanges (`indexes`, in recorded order) into conversations: an exchange
 * joins the conversation whose last request its own request extends (the longest such prefix
 * wins; equal requests, e.g. a retry, extend each other), else it starts a new one. A recording
 * without requests (response-only) is one conversation.
 */
export function groupConversations(cassette: Cassette, indexes: readonly number[]): Conversation[] {
  const conversations: (Conversation & { last: Record<string, unknown>[] })[] = [];
  const responseOnly = indexes.every((i) => !cassette.exchanges[i]!.request.body);
  if (responseOnly) return indexes.length > 0 ? [{ index: 0, exchanges: [...indexes] }] : [];
  for (const i of indexes) {
    const messages = bodyMessages(cassette.exchanges[i]!.request.body);
    let best: (typeof conversations)[number] | undefined;
    let bestShared = 0;
    for (const conversation of conversations) {
      const shared = sharedPrefix(conversation.last, messages);
      if (shared === conversation.last.length && shared > 0 && shared > bestShared) {
        best = conversation;
        bestShared = shared;
      }
    }
    if (best) {
      best.exchanges.push(i);
      best.last = messages;
    } else conversations.push({ index: conversations.length, exchanges: [i], last: messages });
  }
  return conversations.map(({ index, exchanges }) => ({ index, exchanges }));
}
