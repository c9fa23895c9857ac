/**
 * Session faults (`harness/memory/session-load.ts`, `session-format.ts`, `session-store.ts`, the
 * resume path of `harness/context/run-session.ts` and `run-memory.ts`, the transcript repair of
 * `harness/context/repair.ts`): what a resume forgets, misreads or writes twice. Public threads:
 * anthropics/claude-code#1894 (interrupted call without a result), #50347 (one damaged line lost
 * the rest of the session), langchain-ai/langchainjs#11021 (a misplaced tool message),
 * QwenLM/qwen-code#9573 (results missing from the saved history).
 */
import type { Fault } from '../types.ts';

export const SESSION_FAULTS: Fault[] = [
  {
    id: 'session/interrupt-event-forgotten',
    tag: 'session',
    bug: 'a resume forgets that the user interrupted the call: the synthetic result says the session ended',
    patches: [
      {
        file: 'harness/context/repair.ts',
        search: 'interruptedResult(call, interruptedByUser.has(call.id))',
        replace: 'interruptedResult(call, false)',
      },
    ],
  },
  {
    id: 'session/no-repair-on-resume',
    tag: 'session',
    bug: 'a resumed conversation is sent as loaded, with calls that have no result',
    patches: [
      {
        file: 'harness/context/context-stage.ts',
        search: 'const repaired = repairTranscript(messages, loaded?.interrupted ?? new Set());',
        replace:
          'const repaired = { messages, report: { dropped: [], inserted: [], argumentsReplaced: [], reordered: 0 } };',
      },
    ],
  },
  {
    id: 'session/stops-at-damaged-line',
    tag: 'session',
    bug: 'loading stops at the first damaged line, silently dropping everything after it',
    patches: [
      {
        file: 'harness/memory/session-load.ts',
        search: 'offset = end + 1;\n  }',
        replace: 'offset = end + 1;\n    if (skipped.length > 0) break;\n  }',
      },
    ],
  },
  {
    id: 'session/quarantine-not-written',
    tag: 'session',
    bug: 'damaged lines are skipped but not copied to the quarantine file',
    patches: [
      {
        file: 'harness/memory/session-load.ts',
        search: "await writeFile(quarantineFile, `${lines.join('\\n')}\\n`, {",
        replace: 'void lines;\n      await writeFile(quarantineFile, "", {',
      },
    ],
  },
  {
    id: 'session/rewind-ignored',
    tag: 'session',
    bug: 'a rewind record is not applied, so the abandoned branch is resumed',
    patches: [
      {
        file: 'harness/memory/session-load.ts',
        search: 'state.messages.length = Math.min(state.messages.length, record.to);',
        replace: '',
      },
    ],
  },
  {
    id: 'session/compacted-record-ignored',
    tag: 'session',
    bug: 'a compacted record is not applied, so the whole pre-compaction conversation is resumed',
    patches: [
      {
        file: 'harness/memory/session-load.ts',
        search: 'state.messages.splice(0, state.messages.length, ...record.messages);',
        replace: '',
      },
    ],
  },
  {
    id: 'session/todos-not-restored',
    tag: 'session',
    bug: 'the todo list of a resumed session starts empty',
    patches: [
      {
        file: 'harness/context/run-memory.ts',
        search: 'new TodoStore(loaded?.todos ?? [])',
        replace: 'new TodoStore([])',
      },
    ],
  },
  {
    id: 'session/task-not-appended',
    tag: 'session',
    bug: "a resumed run's task is not appended as the next user message",
    patches: [
      {
        file: 'harness/context/run-memory.ts',
        search: "...(options.task ? [{ role: 'user' as const, content: options.task }] : []),",
        replace: '',
      },
    ],
  },
  {
    id: 'session/only-last-message-saved',
    tag: 'session',
    bug: 'the session writer appends only the newest message of each sync, losing calls and results in between',
    patches: [
      {
        file: 'harness/memory/session-store.ts',
        search: 'for (let i = first; i < history.length; i += 1) {',
        replace: 'for (let i = Math.max(first, history.length - 1); i < history.length; i += 1) {',
      },
    ],
  },
  {
    id: 'session/repair-applied-twice',
    tag: 'session',
    bug: 'loading a repair record inserts its synthetic result even when the call is answered already',
    patches: [{ file: 'harness/memory/session-load.ts', search: 'if (answered) continue;', replace: '' }],
  },
  {
    id: 'session/newer-record-is-damage',
    tag: 'session',
    bug: 'a record of a newer format version is treated as a damaged line',
    patches: [
      {
        file: 'harness/memory/session-format.ts',
        search: 'if (version > SESSION_FORMAT_VERSION) return { v: version, type: raw.type, unknown: true };',
        replace: "if (version > SESSION_FORMAT_VERSION) return 'unsupported format version';",
      },
    ],
  },
  {
    id: 'session/old-lines-not-migrated',
    tag: 'session',
    bug: 'inline messages of the older format are not migrated and count as damage',
    patches: [
      {
        file: 'harness/memory/session-format.ts',
        search: 'const message = checkMessage(isObject(raw.message) ? raw.message : raw);',
        replace:
          "const message = isObject(raw.message) ? checkMessage(raw.message) : 'message without a body';",
      },
    ],
  },
];
