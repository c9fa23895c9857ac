/**
 * Loading a session file: every line that decodes is applied in order; a damaged line (cut off
 * mid-JSON, NUL padding left by an interrupted append, an invalid record) is skipped, reported
 * with its line number and byte offset, and copied to a quarantine side file; the rest of the
 * session loads and the original file is never modified (handed case G03,
 * anthropics/claude-code#50347: one truncated line silently dropped days of messages after it).
 * A damaged header does not hide the session: its id comes from the file name.
 */
import { constants, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ChatMessage } from '../model/types.ts';
import { decodeLine, type SessionHeaderRecord, type SessionRecord } from './session-format.ts';
import type { Todo } from './todos.ts';

/** A line that could not be used. `line` is 1-based; `byteOffset` is where it starts in the file. */
export interface SkippedLine {
  line: number;
  byteOffset: number;
  bytes: number;
  reason: string;
}

/** A session as loaded. `messages` is the conversation after applying rewinds, compactions and repairs. */
export interface LoadedSession {
  id: string;
  file: string;
  header?: SessionHeaderRecord;
  messages: ChatMessage[];
  todos: Todo[];
  /** Call ids the user interrupted (`interrupt` events). */
  interrupted: Set<string>;
  skipped: SkippedLine[];
  /** The side file holding the skipped raw lines, when there were any. */
  quarantineFile?: string;
  /** Records of a newer format version or unknown type, ignored. */
  ignored: number;
  /** Records applied. */
  records: number;
}

/** The quarantine side file of a session file: `<file>.quarantine.jsonl`. */
export function quarantinePath(file: string): string {
  return `${file}.quarantine.jsonl`;
}

/** The session id a file name stands for (`s-001.jsonl` → `s-001`). */
export function idFromFileName(file: string): string {
  return path.basename(file).replace(/\.jsonl$/, '');
}

/** Applies one record to the state being built. Exported for the writer's mirror of the file. */
function applyRecord(
  state: { messages: ChatMessage[]; todos: Todo[]; interrupted: Set<string>; header?: SessionHeaderRecord },
  record: SessionRecord,
): void {
  switch (record.type) {
    case 'session':
      state.header ??= record;
      break;
    case 'message':
      state.messages.push(record.message);
      break;
    case 'rewind':
      state.messages.length = Math.min(state.messages.length, record.to);
      break;
    case 'compacted':
      state.messages.splice(0, state.messages.length, ...record.messages);
      break;
    case 'repair': {
      for (const drop of [...record.dropped].sort((a, b) => b.index - a.index)) {
        const target = state.messages[drop.index];
        if (target?.role === 'tool' && target.tool_call_id === drop.toolCallId)
          state.messages.splice(drop.index, 1);
      }
      for (const insert of record.inserted) {
        const at = state.messages.findIndex(
          (m) => m.role === 'assistant' && (m.tool_calls ?? []).some((c) => c.id === insert.afterCallId),
        );
        if (at < 0) continue;
        const answered = state.messages.some(
          (m, k) => k > at && m.role === 'tool' && m.tool_call_id === insert.afterCallId,
        );
        if (answered) continue;
        let end = at + 1;
        while (end < state.messages.length && state.messages[end]!.role === 'tool') end += 1;
        state.messages.splice(end, 0, insert.message);
      }
      break;
    }
    case 'todos':
      state.todos = record.todos.map((t) => ({ ...t }));
      break;
    case 'event':
      if (record.name === 'interrupt' && typeof record.target === 'string')
        state.interrupted.add(record.target);
      break;
  }
}

/**
 * Loads a session file. Damaged lines are skipped and reported (and copied to
 * {@link quarantinePath}, rewritten on every load that finds any); blank lines are ignored.
 * @throws the file system's error when the file cannot be read (e.g. `ENOENT`).
 */
export async function loadSessionFile(file: string): Promise<LoadedSession> {
  const buffer = await readFile(file);
  const state = {
    messages: [] as ChatMessage[],
    todos: [] as Todo[],
    interrupted: new Set<string>(),
    header: undefined as SessionHeaderRecord | undefined,
  };
  const skipped: (SkippedLine & { raw: Buffer })[] = [];
  let ignored = 0;
  let records = 0;
  let offset = 0;
  let line = 0;
  while (offset < buffer.length) {
    let end = buffer.indexOf(0x0a, offset);
    if (end < 0) end = buffer.length;
    line += 1;
    const raw = buffer.subarray(offset, end);
    const text = raw.toString('utf8');
    if (text.trim() !== '') {
      const decoded = decodeLine(text);
      if ('error' in decoded)
        skipped.push({
          line,
          byteOffset: offset,
          bytes: raw.length,
          reason: decoded.error.slice(0, 200),
          raw,
        });
      else if ('unknown' in decoded.record) ignored += 1;
      else {
        applyRecord(state, decoded.record);
        records += 1;
      }
    }
    offset = end + 1;
  }
  let quarantineFile: string | undefined;
  if (skipped.length > 0) {
    quarantineFile = quarantinePath(file);
    const lines = skipped.map((s) =>
      JSON.stringify({
        line: s.line,
        byteOffset: s.byteOffset,
        bytes: s.bytes,
        reason: s.reason,
        rawBase64: s.raw.toString('base64'),
      }),
    );
    try {
      // Never through a link planted where the quarantine file goes.
      await writeFile(quarantineFile, `${lines.join('\n')}\n`, {
        encoding: 'utf8',
        flag: constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
      });
    } catch {
      quarantineFile = undefined;
    }
  }
  return {
    id: state.header?.id ?? idFromFileName(file),
    file,
    ...(state.header ? { header: state.header } : {}),
    messages: state.messages,
    todos: state.todos,
    interrupted: state.interrupted,
    skipped: skipped.map(({ raw: _raw, ...rest }) => rest),
    ...(quarantineFile ? { quarantineFile } : {}),
    ignored,
    records,
  };
}
