/**
 * The two layers that shrink the history without a model call: *stubs* (an old tool output is
 * replaced by one line saying what it was and how to get it again; the call stays, so the
 * transcript stays sound) and *drop* (the oldest whole turn groups go, the context note keeps
 * the pinned facts). Both work oldest first and stop as soon as enough tokens are freed. Pure.
 */
import type { ChatMessage, ToolMessage } from '../model/types.ts';
import { headLength, turnGroups } from './groups.ts';
import { countMessage } from './tokens.ts';
import { contentText } from '../model/content.ts';

/** First characters of a stub. */
export const STUB_PREFIX = '[harness: earlier tool output elided';

/** Outputs at or below this many tokens are not worth a stub. */
export const STUB_MIN_TOKENS = 80;

const SPILL_PATH = /full output saved in (\S+?):/;

function stubText(
  message: ToolMessage,
  tool: string | undefined,
  args: string | undefined,
  tokens: number,
): string {
  const spilled = SPILL_PATH.exec(contentText(message.content))?.[1];
  const call = `${tool ?? 'tool'}${args ? ` ${args.length > 200 ? `${args.slice(0, 200)}…` : args}` : ''}`;
  const again = spilled
    ? `the full output is still in ${spilled} (read it with read_file)`
    : 'call the tool again if you still need it';
  return `${STUB_PREFIX} to save context: the result of ${call} (${tokens} tokens); ${again}.]`;
}

/**
 * Where a stub scan may start, kept by the caller from one turn to the next: every turn group
 * before `index` holds nothing to stub (outputs too small to be worth it, or stubs already), so
 * a long run does not rescan its whole history at every turn. It is used only while the history
 * still has the same messages around `index` (it grew, or only stubs and notes changed before
 * it); anything else starts the scan at the head again. The result is the same either way.
 */
export class StubScan {
  index = 0;
  /** `history[index - 1]` and `history[index]` when the scan ended. */
  before: ChatMessage | undefined;
  at: ChatMessage | undefined;
}

function scanStart(history: readonly ChatMessage[], scan: StubScan | undefined): number {
  const head = headLength(history);
  if (!scan || scan.index <= head || scan.index > history.length) return head;
  const same =
    history[scan.index - 1] === scan.before &&
    (scan.at === undefined || history[scan.index] === scan.at) &&
    history[scan.index]?.role !== 'tool';
  return same ? scan.index : head;
}

/**
 * Replaces old tool outputs by stubs, oldest first, until `toFree` tokens are freed. The last
 * `keepRecentGroups` turn groups and the head are never touched; stubs are not stubbed again.
 * `scan` (optional) skips the groups a previous call found nothing to stub in, and is moved on.
 * @returns the new history (the same array when nothing changed), stubs made and tokens freed
 * (exactly the drop in the sum of `countMessage` over the history).
 */
export function stubOldOutputs(
  history: readonly ChatMessage[],
  options: { toFree: number; keepRecentGroups: number; scan?: StubScan },
): { history: ChatMessage[]; stubbed: number; freed: number } {
  const groups = turnGroups(history, scanStart(history, options.scan));
  const last = Math.max(0, groups.length - options.keepRecentGroups);
  let out: ChatMessage[] | undefined;
  let freed = 0;
  let stubbed = 0;
  /** End of the groups, from the start of the scan, left with nothing to stub. */
  let clean = groups[0]?.start ?? history.length;
  let cleanSoFar = true;
  for (let g = 0; g < last && freed < options.toFree; g += 1) {
    const group = groups[g]!;
    const head = history[group.start]!;
    const calls = head.role === 'assistant' ? (head.tool_calls ?? []) : [];
    let groupClean = true;
    let i = group.start + 1;
    for (; i < group.end && freed < options.toFree; i += 1) {
      const message = history[i]! as ToolMessage;
      if (message.role !== 'tool' || contentText(message.content).startsWith(STUB_PREFIX)) continue;
      const tokens = countMessage(message);
      if (tokens <= STUB_MIN_TOKENS) continue;
      const call = calls.find((c) => c.id === message.tool_call_id);
      const stub: ToolMessage = {
        role: 'tool',
        tool_call_id: message.tool_call_id,
        content: stubText(message, call?.function.name, call?.function.arguments, tokens),
      };
      const saved = tokens - countMessage(stub);
      if (saved <= 0) continue;
      out ??= [...history];
      out[i] = stub;
      freed += saved;
      stubbed += 1;
    }
    if (i < group.end) groupClean = false;
    if (cleanSoFar && groupClean) clean = group.end;
    else cleanSoFar = false;
  }
  const result = out ?? (history as ChatMessage[]);
  if (options.scan) {
    options.scan.index = clean;
    options.scan.before = result[clean - 1];
    options.scan.at = result[clean];
  }
  return { history: result, stubbed, freed };
}

/**
 * Removes the oldest whole turn groups after the head until `toFree` tokens are freed, keeping
 * at least the last `keepRecentGroups` groups.
 * @returns the new history (the same array when nothing changed), groups and tokens removed.
 */
export function dropOldGroups(
  history: readonly ChatMessage[],
  options: { toFree: number; keepRecentGroups: number },
): { history: ChatMessage[]; dropped: number; freed: number } {
  const headEnd = headLength(history);
  const groups = turnGroups(history, headEnd);
  const removable = Math.max(0, groups.length - Math.max(1, options.keepRecentGroups));
  let freed = 0;
  let dropped = 0;
  while (dropped < removable && freed < options.toFree) {
    const group = groups[dropped]!;
    for (let i = group.start; i < group.end; i += 1) freed += countMessage(history[i]!);
    dropped += 1;
  }
  if (dropped === 0) return { history: history as ChatMessage[], dropped: 0, freed: 0 };
  return {
    history: [...history.slice(0, headEnd), ...history.slice(groups[dropped]!.start)],
    dropped,
    freed,
  };
}
