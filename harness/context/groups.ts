/**
 * The structure every context layer respects: a *head* that is never removed (leading system
 * messages, the task as the first user message, and the harness's context note) and then *turn
 * groups*: an assistant message with the tool messages answering it, or a single user (or
 * system) message. Layers only ever remove or rewrite whole groups, so no cut can separate a
 * call from its result (TI-2, TI-3; handed case G02, langchain-ai/langchainjs#11021:
 * "compaction that cut between a call and its result").
 */
import type { ChatMessage, SystemMessage } from '../model/types.ts';
import { contentText } from '../model/content.ts';

/** First characters of the harness's context note (compaction summary or drop note). */
export const CONTEXT_NOTE_PREFIX = '[harness context note]';

/** True for the harness's context note: a system message starting with {@link CONTEXT_NOTE_PREFIX}. */
export function isContextNote(message: ChatMessage | undefined): message is SystemMessage {
  return message?.role === 'system' && contentText(message.content).startsWith(CONTEXT_NOTE_PREFIX);
}

/** A turn group: messages `[start, end)` of the history. */
export interface TurnGroup {
  start: number;
  end: number;
}

/**
 * Length of the head: leading system messages (not context notes), the first user message when
 * it comes next, then any context notes.
 */
export function headLength(messages: readonly ChatMessage[]): number {
  let i = 0;
  while (i < messages.length && messages[i]!.role === 'system' && !isContextNote(messages[i])) i += 1;
  if (messages[i]?.role === 'user') i += 1;
  while (i < messages.length && isContextNote(messages[i])) i += 1;
  return i;
}

/** The index of the context note in the head, or -1. */
export function contextNoteIndex(messages: readonly ChatMessage[]): number {
  const head = headLength(messages);
  for (let i = 0; i < head; i += 1) if (isContextNote(messages[i])) return i;
  return -1;
}

/**
 * The turn groups from `from` on: each starts at a non-tool message and takes the tool messages
 * that follow it. A stray tool message at `from` (which a sound transcript never has) forms a
 * group of its own.
 */
export function turnGroups(messages: readonly ChatMessage[], from: number): TurnGroup[] {
  const groups: TurnGroup[] = [];
  let i = from;
  while (i < messages.length) {
    let end = i + 1;
    while (end < messages.length && messages[end]!.role === 'tool') end += 1;
    groups.push({ start: i, end });
    i = end;
  }
  return groups;
}

/** The task: the first user message, or `''`. */
export function taskOf(messages: readonly ChatMessage[]): string {
  const first = messages.find((m) => m.role === 'user');
  return contentText(first?.content);
}
