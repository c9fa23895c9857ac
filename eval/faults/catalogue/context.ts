/**
 * Context-management faults (`harness/context/`: compaction, pins, the reminder, stubs, drops,
 * the output cap; the window check of the loop): what compaction forgets and where its output
 * goes. Public threads: openai/codex#18720 (compaction that loses the user's constraints),
 * anomalyco/opencode#1829 (outputs that blow the window), Aider-AI/aider#892 (window and output
 * limit confused).
 */
import type { Fault } from '../types.ts';

export const CONTEXT_FAULTS: Fault[] = [
  {
    id: 'context/compaction-drops-head',
    tag: 'context',
    bug: 'compaction rebuilds the history from the note and the recent turns, dropping the system prompt and the task',
    patches: [
      {
        file: 'harness/context/compaction.ts',
        search: 'return [...plan.head, note, ...plan.recent];',
        replace: 'return [note, ...plan.recent];',
      },
    ],
  },
  {
    id: 'context/summary-request-without-task',
    tag: 'context',
    bug: 'the summarisation request sends the old turns without the task they serve',
    patches: [
      {
        file: 'harness/context/compaction.ts',
        search:
          "`Task (the user's first message): ${task.length > 4000 ? `${task.slice(0, 4000)}… [cut]` : task}`,",
        replace: "'Earlier turns of a coding session follow.',",
      },
    ],
  },
  {
    id: 'context/pins-not-rendered',
    tag: 'context',
    bug: 'the context note is built without the pinned facts (todos, files, constraints)',
    patches: [
      {
        file: 'harness/context/context-stage.ts',
        search: 'const renderPinned = () => renderPins(pins.facts(todos.list()));',
        replace: "const renderPinned = () => '(none)';",
      },
    ],
  },
  {
    id: 'context/reminder-stored',
    tag: 'context',
    bug: 'the reminder is added to the working history instead of only to the request, so it is stored and piles up',
    patches: [
      {
        file: 'harness/context/prepare.ts',
        search: 'let history = input.history as ChatMessage[];',
        replace: 'let history = (reminder ? [...input.history, reminder] : input.history) as ChatMessage[];',
      },
    ],
  },
  {
    id: 'context/todos-missing-from-reminder',
    tag: 'context',
    bug: 'the reminder no longer carries the todo list',
    patches: [
      {
        file: 'harness/context/reminder.ts',
        search: '...(state.todos.length > 0',
        replace: '...(state.todos.length < 0',
      },
    ],
  },
  {
    id: 'context/stubs-reach-recent-turns',
    tag: 'context',
    bug: 'stubbing ignores keepRecentTurns and may replace the output the model just asked for',
    patches: [
      {
        file: 'harness/context/trim.ts',
        search: 'const last = Math.max(0, groups.length - options.keepRecentGroups);',
        replace: 'const last = groups.length;',
      },
    ],
  },
  {
    id: 'context/cut-inside-call-group',
    tag: 'context',
    bug: 'compaction cuts one message into the first kept group, separating tool results from their call',
    patches: [
      {
        file: 'harness/context/compaction.ts',
        search: 'const cut = groups[keepFrom]!.start;',
        replace: 'const cut = groups[keepFrom]!.start + 1;',
      },
    ],
  },
  {
    id: 'context/summary-as-user-message',
    tag: 'context',
    bug: 'the compaction summary is inserted as a user message',
    patches: [
      {
        file: 'harness/context/compaction.ts',
        search: "return { role: 'system', content: lines.join('\\n') };",
        replace: "return { role: 'user', content: lines.join('\\n') } as unknown as SystemMessage;",
      },
    ],
  },
  {
    id: 'context/drop-without-note',
    tag: 'context',
    bug: 'the drop layer removes old turns without leaving a note of what was removed and the pinned facts',
    patches: [
      {
        file: 'harness/context/prepare.ts',
        search: 'history = withNote(\n        result.history,',
        replace: 'history = ((kept: ChatMessage[], _note: unknown) => kept)(\n        result.history,',
      },
    ],
  },
  {
    id: 'context/char-cap-ignored',
    tag: 'context',
    bug: 'shaping an output checks only the token share of the window, never toolOutputMaxChars',
    patches: [
      {
        file: 'harness/context/spill.ts',
        search: 'if (text.length <= maxChars) {',
        replace: 'if (text.length <= Number.POSITIVE_INFINITY) {',
      },
    ],
  },
  {
    id: 'context/window-not-checked',
    tag: 'context',
    bug: 'a request larger than the window is sent anyway instead of ending the run with context_overflow',
    patches: [
      {
        file: 'harness/loop/model-call.ts',
        search: 'if (overflow !== undefined || needed > config.context.windowTokens)',
        replace: 'if (overflow !== undefined && needed > Number.POSITIVE_INFINITY)',
      },
    ],
  },
];
