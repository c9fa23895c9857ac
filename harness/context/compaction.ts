/**
 * Compaction with a model-written summary: the history is split into the head (system prompt,
 * task, context note), the *old* turn groups and the *recent* ones; the old ones (and the
 * previous summary) go to the model in one summarisation request, and the history becomes head +
 * context note (summary and pinned facts) + recent groups, verbatim. Cuts fall only between
 * whole groups (G02). The summary is a system message marked as a harness note, not a user or
 * assistant turn (D01). Pure: the model call is the caller's.
 */
import type { ChatMessage, SystemMessage } from '../model/types.ts';
import { CONTEXT_NOTE_PREFIX, contextNoteIndex, headLength, turnGroups } from './groups.ts';
import { countMessage, countText } from './tokens.ts';
import { contentText } from '../model/content.ts';

/** Counters shown in the note: how many compactions and dropped turns the history has been through. */
export interface NoteCounts {
  compactions: number;
  summarisedTurns: number;
  droppedTurns: number;
}

const SUMMARY_HEADING = '## Summary of the earlier turns (written by the model at compaction)';
const PINS_HEADING = '## Pinned facts';

/** Builds the context note: what was removed, the summary (if any) and the pinned facts. */
export function buildContextNote(parts: {
  summary?: string;
  counts: NoteCounts;
  pins: string;
}): SystemMessage {
  const { counts } = parts;
  const what = [
    counts.compactions > 0
      ? `compacted ${counts.compactions} time${counts.compactions === 1 ? '' : 's'} (${counts.summarisedTurns} turns summarised)`
      : '',
    counts.droppedTurns > 0 ? `${counts.droppedTurns} turns dropped without a summary` : '',
  ]
    .filter(Boolean)
    .join('; ');
  const lines = [
    `${CONTEXT_NOTE_PREFIX} Earlier turns of this conversation were removed to fit the context window (${what || 'nothing removed yet'}). This note comes from the harness; it is not a user request.`,
    ...(parts.summary !== undefined
      ? [
          '',
          SUMMARY_HEADING,
          parts.summary.trim() === '' ? '(the summariser returned nothing)' : parts.summary.trim(),
        ]
      : []),
    '',
    PINS_HEADING,
    parts.pins,
  ];
  return { role: 'system', content: lines.join('\n') };
}

/** The summary section of a context note, when it has one. */
export function summaryOfNote(note: string): string | undefined {
  const start = note.indexOf(`${SUMMARY_HEADING}\n`);
  if (start < 0) return undefined;
  const end = note.indexOf(`\n\n${PINS_HEADING}`, start);
  return note.slice(start + SUMMARY_HEADING.length + 1, end < 0 ? undefined : end);
}

/** The parts of a compaction. */
export interface CompactionPlan {
  /** System prompt and task (the context note excluded). */
  head: ChatMessage[];
  /** The previous summary, folded into the new one. */
  previousSummary?: string;
  old: ChatMessage[];
  oldGroups: number;
  recent: ChatMessage[];
}

/**
 * Splits the history: the most recent whole groups whose tokens fit `recentBudget` stay verbatim
 * (the last group always stays); everything between head and recent is old.
 * @returns undefined when there is nothing old to summarise.
 */
export function planCompaction(
  history: readonly ChatMessage[],
  recentBudget: number,
): CompactionPlan | undefined {
  const headEnd = headLength(history);
  const noteAt = contextNoteIndex(history);
  const groups = turnGroups(history, headEnd);
  if (groups.length < 2) return undefined;
  let keepFrom = groups.length - 1;
  let used = sumTokens(history, groups[keepFrom]!.start, groups[keepFrom]!.end);
  while (keepFrom > 0) {
    const g = groups[keepFrom - 1]!;
    const size = sumTokens(history, g.start, g.end);
    if (used + size > recentBudget) break;
    used += size;
    keepFrom -= 1;
  }
  if (keepFrom === 0) return undefined;
  const cut = groups[keepFrom]!.start;
  const note = noteAt >= 0 ? contentText(history[noteAt]!.content) : undefined;
  const previous = note !== undefined ? summaryOfNote(note) : undefined;
  return {
    head: history.slice(0, headEnd).filter((_, i) => i !== noteAt),
    ...(previous !== undefined ? { previousSummary: previous } : {}),
    old: history.slice(headEnd, cut),
    oldGroups: keepFrom,
    recent: history.slice(cut),
  };
}

function sumTokens(history: readonly ChatMessage[], start: number, end: number): number {
  let total = 0;
  for (let i = start; i < end; i += 1) total += countMessage(history[i]!);
  return total;
}

/** The instructions of a summarisation request. */
export const SUMMARY_INSTRUCTIONS =
  "You are compacting the history of a coding agent so it can go on within its context window. Summarise the turns you are given: what was done, what was found (facts, file contents and errors that matter, exact names and paths), what was decided, and what is still open. Be concise and concrete; do not invent anything; do not call tools. The harness keeps the task, the todo list, the files touched and the user's own words separately, so focus on findings and progress.";

/** Text of one message for the summariser; long tool outputs are cut to `perMessage` characters. */
function render(message: ChatMessage, perMessage: number, toolNames: Map<string, string>): string {
  const cut = (text: string) =>
    text.length > perMessage
      ? `${text.slice(0, Math.floor(perMessage * 0.7))}\n[… ${text.length - perMessage} characters cut …]\n${text.slice(text.length - Math.floor(perMessage * 0.3))}`
      : text;
  switch (message.role) {
    case 'assistant': {
      const calls = (message.tool_calls ?? []).map((c) => {
        toolNames.set(c.id, c.function.name);
        return `  -> ${c.function.name} ${cut(c.function.arguments)}`;
      });
      return [`[assistant] ${contentText(message.content)}`.trimEnd(), ...calls].join('\n');
    }
    case 'tool':
      return `[result of ${toolNames.get(message.tool_call_id) ?? 'tool'} ${message.tool_call_id}]\n${cut(contentText(message.content))}`;
    default:
      return `[${message.role}] ${cut(contentText(message.content))}`;
  }
}

/**
 * The summarisation request: the instructions as system message, then one user message with the
 * task, the previous summary and the old turns as text, cut to about `maxTokens` (older turns
 * lose detail first: each message is capped, then the middle of the transcript is elided).
 */
export function summaryRequest(plan: CompactionPlan, task: string, maxTokens: number): ChatMessage[] {
  const names = new Map<string, string>();
  const budgetChars = Math.max(2000, maxTokens * 3);
  let perMessage = 4000;
  let body = '';
  for (let attempt = 0; attempt < 6; attempt += 1) {
    names.clear();
    body = plan.old.map((m) => render(m, perMessage, names)).join('\n\n');
    if (body.length <= budgetChars) break;
    perMessage = Math.max(200, Math.floor(perMessage / 2));
  }
  const parts = [
    `Task (the user's first message): ${task.length > 4000 ? `${task.slice(0, 4000)}… [cut]` : task}`,
    ...(plan.previousSummary ? [`Summary of even earlier turns:\n${plan.previousSummary}`] : []),
    `Turns to summarise (${plan.oldGroups}):\n${body}`,
  ];
  let text = parts.join('\n\n');
  if (countText(text) > maxTokens) {
    const keep = Math.max(1000, Math.floor(budgetChars * 0.9));
    text = `${text.slice(0, Math.floor(keep * 0.4))}\n[… ${text.length - keep} characters of the middle elided …]\n${text.slice(text.length - Math.floor(keep * 0.6))}`;
  }
  return [
    { role: 'system', content: SUMMARY_INSTRUCTIONS },
    { role: 'user', content: `${text}\n\nWrite the summary now.` },
  ];
}

/** Cuts a summary longer than `maxTokens` (about 3 characters per token), marking the cut. */
export function capSummary(summary: string, maxTokens: number): string {
  if (countText(summary) <= maxTokens) return summary;
  return `${summary.slice(0, maxTokens * 3)}\n[… summary cut to fit …]`;
}

/** The history after compaction: head, context note, recent groups. */
export function applyCompaction(plan: CompactionPlan, note: SystemMessage): ChatMessage[] {
  return [...plan.head, note, ...plan.recent];
}
