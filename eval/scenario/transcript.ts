/**
 * Transcript invariants (TI-1 … TI-4, `docs/conventions.md`), checked on every request a
 * harness sends and on its stored conversation:
 * - TI-1 every `tool_calls[].id` is a non-empty string, unique across the conversation;
 * - TI-2 every call has exactly one tool message, in the run of tool messages directly after its
 *   assistant message, in call order;
 * - TI-3 no tool message without a matching call in the immediately preceding assistant message;
 * - TI-4 every `function.arguments` sent back is a string holding a JSON object.
 */
import type { ChatMessage } from '../../harness/model/types.ts';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function preview(value: unknown, max = 80): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** True when `text` is a string that parses to a JSON object (not an array, not null). */
export function isJsonObjectText(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    return isRecord(JSON.parse(text));
  } catch {
    return false;
  }
}

interface CallRef {
  id: unknown;
  arguments: unknown;
}

function callsOf(message: unknown): CallRef[] {
  if (!isRecord(message) || message.role !== 'assistant' || !Array.isArray(message.tool_calls)) return [];
  return message.tool_calls.map((call) => {
    const fn = isRecord(call) && isRecord(call.function) ? call.function : {};
    return { id: isRecord(call) ? call.id : undefined, arguments: fn.arguments };
  });
}

/**
 * Every violation of TI-1 … TI-4 in one conversation, as sentences naming the message index
 * (0-based), the call id and the rule. Pure; an empty list means the transcript is sound.
 * Messages of unexpected shape are tolerated (they are data from a harness under test).
 */
export function transcriptProblems(messages: readonly ChatMessage[] | readonly unknown[]): string[] {
  const problems: string[] = [];
  const firstSeen = new Map<string, number>();
  const list = messages as readonly unknown[];
  for (let i = 0; i < list.length; i += 1) {
    const message = list[i];
    const role = isRecord(message) ? message.role : undefined;
    if (role === 'tool') {
      const previous = precedingNonTool(list, i);
      const answered = previous === undefined ? [] : callsOf(list[previous]).map((c) => c.id);
      const id = isRecord(message) ? message.tool_call_id : undefined;
      if (!answered.includes(id))
        problems.push(
          `TI-3: tool message ${i} answers ${preview(id)}, which is not a call of the assistant message right before it` +
            (previous === undefined ? '' : ` (message ${previous})`),
        );
      continue;
    }
    const calls = callsOf(message);
    if (calls.length === 0) continue;
    calls.forEach((call, k) => {
      if (typeof call.id !== 'string' || call.id === '') {
        problems.push(`TI-1: call ${k} of message ${i} has no id (got ${preview(call.id)})`);
      } else {
        const seen = firstSeen.get(call.id);
        if (seen !== undefined)
          problems.push(`TI-1: tool call id ${call.id} appears more than once (messages ${seen} and ${i})`);
        else firstSeen.set(call.id, i);
      }
      if (typeof call.arguments !== 'string')
        problems.push(
          `TI-4 (not a string): arguments of call ${preview(call.id)} in message ${i} are not a string holding a JSON object: ${preview(call.arguments)}`,
        );
      else if (!isJsonObjectText(call.arguments))
        problems.push(
          `TI-4: arguments of call ${preview(call.id)} in message ${i} are not a string holding a JSON object: ${preview(call.arguments)}`,
        );
    });
    const answers: unknown[] = [];
    for (
      let j = i + 1;
      j < list.length && isRecord(list[j]) && (list[j] as Record<string, unknown>).role === 'tool';
      j += 1
    )
      answers.push((list[j] as Record<string, unknown>).tool_call_id);
    const ids = calls.map((c) => c.id);
    let countsOk = true;
    for (const id of new Set(ids)) {
      const expected = ids.filter((x) => x === id).length;
      const got = answers.filter((x) => x === id).length;
      if (got !== expected) {
        countsOk = false;
        problems.push(
          got === 0
            ? `TI-2: call ${preview(id)} of message ${i} has no tool message directly after its assistant message`
            : `TI-2: call ${preview(id)} of message ${i} has ${got} tool messages (expected exactly ${expected})`,
        );
      }
    }
    const relevant = answers.filter((x) => ids.includes(x));
    if (countsOk && relevant.some((x, k) => x !== ids[k]))
      problems.push(
        `TI-2: tool messages after message ${i} come in the order ${preview(relevant, 200)}, but the calls are ${preview(ids, 200)}`,
      );
  }
  return problems;
}

function precedingNonTool(list: readonly unknown[], index: number): number | undefined {
  for (let j = index - 1; j >= 0; j -= 1) {
    const message = list[j];
    if (!(isRecord(message) && message.role === 'tool')) return j;
  }
  return undefined;
}
