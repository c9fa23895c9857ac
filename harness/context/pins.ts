/**
 * Pinned facts: what compaction must never lose, kept by the harness from the run itself rather
 * than trusted to the summariser (handed case D01, openai/codex#18720: constraints and agreed
 * decisions missing from the summary; "pinned items are re-inserted by the harness even when
 * the summariser's text omits them"). The facts are the task (the first user message, which
 * stays verbatim in the head), the todo list, the files touched, the user's later messages
 * (decisions and constraints, verbatim) and open threads (open todos, calls whose last attempt
 * failed). They are gathered incrementally from the events and messages of the run.
 */
import type { HarnessEvent } from '../events.ts';
import type { ChatMessage } from '../model/types.ts';
import { resultMessage, type PathAccess } from '../tools/types.ts';
import { renderTodos, type Todo } from '../memory/todos.ts';
import { contentText } from '../model/content.ts';

/** How many of each list are kept (most recent first dropped last). */
export const PIN_LIMITS = { files: 40, decisions: 12, decisionChars: 800, openThreads: 8 } as const;

/** The facts, as rendered into the context note. */
export interface PinnedFacts {
  task: string;
  todos: Todo[];
  /** Most recent last. */
  files: { path: string; access: 'read' | 'written' }[];
  /** The user's messages after the task, verbatim (cut at {@link PIN_LIMITS}.decisionChars), oldest first. */
  decisions: string[];
  openThreads: string[];
  /** Items left out because a list was over its limit. */
  omitted: { files: number; decisions: number };
}

/** The harness's own notes sent as user messages start with this; they are not user decisions. */
const HARNESS_NOTE_PREFIX = '[harness';

/** Keeps the facts up to date from events and messages; one per run (scope). */
export class PinTracker {
  private task: string | undefined;
  private readonly files = new Map<string, 'read' | 'written'>();
  private readonly decisions: string[] = [];
  private readonly failures = new Map<string, string>();
  private readonly seenMessages = new WeakSet<object>();
  private eventIndex = 0;
  private readonly starts = new Map<string, { tool: string; args: Record<string, unknown> }>();
  /** Paths written by executed, successful calls (for the reminder's "changed files"). */
  readonly changed = new Set<string>();

  constructor(private readonly pathsOf: (tool: string, args: Record<string, unknown>) => PathAccess[]) {}

  /** Reads the top-level events added since the last call (nested scopes are the subagents'). */
  observeEvents(events: readonly HarnessEvent[]): void {
    for (; this.eventIndex < events.length; this.eventIndex += 1) {
      const event = events[this.eventIndex]!;
      if (event.scope.length > 0) continue;
      if (event.type === 'tool_call_start') {
        let args: Record<string, unknown> = {};
        try {
          const parsed: unknown = JSON.parse(event.arguments);
          if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
            args = parsed as Record<string, unknown>;
        } catch {
          args = {};
        }
        this.starts.set(event.callId, { tool: event.tool, args });
      } else if (event.type === 'tool_call_end') {
        const start = this.starts.get(event.callId);
        this.starts.delete(event.callId);
        if (!start) continue;
        let accesses: PathAccess[] = [];
        try {
          accesses = this.pathsOf(start.tool, start.args).filter((a) => typeof a.path === 'string');
        } catch {
          accesses = [];
        }
        if (event.executed) {
          for (const access of accesses) {
            const kind =
              access.access === 'write' && event.ok
                ? 'written'
                : this.files.get(access.path) === 'written'
                  ? 'written'
                  : 'read';
            this.files.delete(access.path);
            this.files.set(access.path, kind);
            if (kind === 'written') this.changed.add(access.path);
          }
        }
        // The failure's key is built only when there is a failure to record or to forget.
        if (event.ok && this.failures.size === 0) continue;
        const key =
          `${start.tool} ${accesses.map((a) => a.path).join(' ') || (typeof start.args.command === 'string' ? start.args.command : '')}`.trim();
        if (event.ok) this.failures.delete(key);
        else if (event.errorType !== 'repeated_call' && event.errorType !== 'not_executed') {
          this.failures.delete(key);
          this.failures.set(
            key,
            `${key} failed (${event.errorType ?? 'error'}): ${resultMessage(event.content).slice(0, 160)}`,
          );
        }
      }
    }
  }

  /** Reads user messages not seen before: the first is the task, later ones are decisions. */
  observeMessages(messages: readonly ChatMessage[]): void {
    let first = messages.length;
    while (first > 0 && !this.seenMessages.has(messages[first - 1]!)) first -= 1;
    for (const message of messages.slice(first)) {
      this.seenMessages.add(message);
      if (message.role !== 'user') continue;
      const content = contentText(message.content);
      if (this.task === undefined) {
        this.task = content;
        continue;
      }
      if (content.startsWith(HARNESS_NOTE_PREFIX)) continue;
      const text =
        content.length > PIN_LIMITS.decisionChars
          ? `${content.slice(0, PIN_LIMITS.decisionChars)}… [cut]`
          : content;
      this.decisions.push(text);
    }
  }

  /** Marks messages as seen without reading them (copies the harness made, e.g. after compaction). */
  markSeen(messages: readonly ChatMessage[]): void {
    for (const m of messages) this.seenMessages.add(m);
  }

  /** The facts now, with the given todo list. */
  facts(todos: readonly Todo[]): PinnedFacts {
    const files = [...this.files.entries()].map(([path, access]) => ({ path, access }));
    const keptFiles = files.slice(-PIN_LIMITS.files);
    const keptDecisions = this.decisions.slice(-PIN_LIMITS.decisions);
    const open = [
      ...todos
        .filter((t) => t.status !== 'completed')
        .map((t) => `todo ${t.status === 'in_progress' ? 'in progress' : 'pending'}: ${t.content}`),
      ...[...this.failures.values()],
    ];
    return {
      task: this.task ?? '',
      todos: todos.map((t) => ({ ...t })),
      files: keptFiles,
      decisions: keptDecisions,
      openThreads: open.slice(-PIN_LIMITS.openThreads),
      omitted: {
        files: files.length - keptFiles.length,
        decisions: this.decisions.length - keptDecisions.length,
      },
    };
  }
}

/**
 * The facts as the "Pinned facts" section of the context note. Every todo, every kept file and
 * decision appears verbatim, so a check for each is a substring check.
 */
export function renderPins(facts: PinnedFacts): string {
  const read = facts.files.filter((f) => f.access === 'read').map((f) => f.path);
  const written = facts.files.filter((f) => f.access === 'written').map((f) => f.path);
  const lines = [
    '(Kept by the harness from the run itself; they hold even where the summary says otherwise.)',
    '- Task: the first user message above, verbatim.',
    `- Todo list: ${
      facts.todos.length === 0
        ? '(none)'
        : `\n${renderTodos(facts.todos)
            .split('\n')
            .map((l) => `    ${l}`)
            .join('\n')}`
    }`,
    `- Files written: ${written.length > 0 ? written.join(', ') : '(none)'}`,
    `- Files read: ${read.length > 0 ? read.join(', ') : '(none)'}${facts.omitted.files > 0 ? ` (and ${facts.omitted.files} earlier files)` : ''}`,
    `- Decisions and constraints from the user, verbatim:${facts.decisions.length === 0 ? ' (none after the task)' : ''}`,
    ...facts.decisions.map((d, i) => `    (${i + 1}) ${d}`),
    ...(facts.omitted.decisions > 0
      ? [`    (${facts.omitted.decisions} earlier messages not repeated)`]
      : []),
    `- Open threads:${facts.openThreads.length === 0 ? ' (none)' : ''}`,
    ...facts.openThreads.map((t) => `    * ${t}`),
  ];
  return lines.join('\n');
}
