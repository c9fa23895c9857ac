/**
 * The session file format: append-only JSONL, one record per line, whatever the content
 * (`docs/architecture.md` §8). Records carry a format version `v`; lines without
 * one come from older writers (the handed cases' `{"type":"message","role":…}` lines, the chat's
 * version-1 `{"type":"session"}` / `{"type":"message","message":…}` lines) and are migrated on
 * read, so old files stay readable and nothing is rewritten in place.
 *
 * Encoding: `JSON.stringify` escapes every control character (so a newline in a string never
 * splits a record) and, since ES2019 ("well-formed JSON.stringify"), lone surrogates as
 * `\udXXX`, which `JSON.parse` turns back into the same code unit. U+2028 and U+2029 are escaped
 * too, for readers that treat them as line ends. So `decode(encode(r))` equals `r` for any
 * strings, of any length.
 */
import type { ChatMessage, ToolMessage } from '../model/types.ts';
import type { Todo } from './todos.ts';

/** The format version this code writes. */
export const SESSION_FORMAT_VERSION = 2;

/** Header: who and where. `id` is also the file name (`<id>.jsonl`). */
export interface SessionHeaderRecord {
  v: 2;
  type: 'session';
  id: string;
  /** ms since the epoch (injected clock). */
  createdMs?: number;
  cwd?: string;
  [extra: string]: unknown;
}

/** One message appended to the conversation. */
export interface MessageRecord {
  v: 2;
  type: 'message';
  message: ChatMessage;
  atMs?: number;
}

/** The conversation goes back to its first `to` messages; later records append after that point. */
export interface RewindRecord {
  v: 2;
  type: 'rewind';
  to: number;
  atMs?: number;
}

/** Compaction replaced the working conversation with `messages` (head, summary, recent turns). */
export interface CompactedRecord {
  v: 2;
  type: 'compacted';
  messages: ChatMessage[];
  /** The context layer that did it (`summary`). */
  layer: string;
  beforeTokens?: number;
  afterTokens?: number;
  atMs?: number;
}

/**
 * An audit of a transcript repair: tool messages `dropped` (index in the conversation as loaded
 * up to this record, and the call id they claimed to answer) and synthetic results `inserted`
 * after the assistant message holding `afterCallId`. Loading applies it, so a second resume
 * produces the same conversation; the original records stay untouched.
 */
export interface RepairRecord {
  v: 2;
  type: 'repair';
  dropped: { index: number; toolCallId: string; reason: string }[];
  inserted: { afterCallId: string; message: ToolMessage }[];
  /** Calls whose arguments were not a JSON object and are replayed as `{}` (TI-4). */
  argumentsReplaced?: string[];
  atMs?: number;
}

/** The todo list after a `write_todos`. */
export interface TodosRecord {
  v: 2;
  type: 'todos';
  todos: Todo[];
  atMs?: number;
}

/** Something that happened to the session: `interrupt` (target: a call id), `end`, …. */
export interface EventRecord {
  v: 2;
  type: 'event';
  name: string;
  target?: string;
  atMs?: number;
  [extra: string]: unknown;
}

/** Any record of the current version. */
export type SessionRecord =
  | SessionHeaderRecord
  | MessageRecord
  | RewindRecord
  | CompactedRecord
  | RepairRecord
  | TodosRecord
  | EventRecord;

/** A record of a type this version does not know (kept, ignored on load: a newer writer's data). */
export interface UnknownRecord {
  v: number;
  type: string;
  unknown: true;
}

/** One line as text, ending in `\n`. */
export function encodeRecord(record: SessionRecord): string {
  return `${JSON.stringify(record)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')}\n`;
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A chat message of a valid shape (role, content, tool calls with string ids and argument strings), or why not. */
function checkMessage(value: unknown): ChatMessage | string {
  if (!isObject(value)) return 'message is not an object';
  const role = value.role;
  if (typeof role !== 'string' || !ROLES.has(role)) return `unknown role ${JSON.stringify(role)}`;
  const content = value.content;
  if (role === 'assistant') {
    if (content !== null && content !== undefined && typeof content !== 'string')
      return 'assistant content is neither text nor null';
    const out: ChatMessage = { role: 'assistant', content: typeof content === 'string' ? content : null };
    if (value.tool_calls !== undefined) {
      if (!Array.isArray(value.tool_calls)) return 'tool_calls is not a list';
      const calls = [];
      for (const call of value.tool_calls) {
        if (
          !isObject(call) ||
          typeof call.id !== 'string' ||
          !isObject(call.function) ||
          typeof call.function.name !== 'string'
        )
          return 'a tool call lacks its id or function name';
        const args = call.function.arguments;
        calls.push({
          id: call.id,
          type: 'function' as const,
          function: {
            name: call.function.name,
            arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
          },
        });
      }
      if (calls.length > 0) out.tool_calls = calls;
    }
    return out;
  }
  if (typeof content !== 'string') return `${role} content is not text`;
  if (role === 'tool') {
    if (typeof value.tool_call_id !== 'string') return 'tool message without tool_call_id';
    return { role: 'tool', tool_call_id: value.tool_call_id, content };
  }
  return { role: role as 'system' | 'user', content };
}

/**
 * Turns a parsed line into a current record. Lines without `v` are migrated: `meta` and
 * `session` headers (chat v1: `{type, version, id}`; cases: `{type: "meta", session_id}`), and
 * messages inline (`{type: "message", role, content, …}`) or wrapped (`{type: "message", message}`).
 * @returns the record, an {@link UnknownRecord} for a well-formed record of an unknown type, or a reason
 * string when the line is damaged.
 */
function migrateRecord(raw: unknown): SessionRecord | UnknownRecord | string {
  if (!isObject(raw)) return 'not a JSON object';
  if (typeof raw.type !== 'string') return 'no record type';
  const version = raw.v === undefined ? 1 : raw.v;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    return `bad format version ${JSON.stringify(raw.v)}`;
  if (version > SESSION_FORMAT_VERSION) return { v: version, type: raw.type, unknown: true };
  const atMs = typeof raw.atMs === 'number' ? { atMs: raw.atMs } : {};
  switch (raw.type) {
    case 'meta':
    case 'session': {
      const id =
        typeof raw.id === 'string' ? raw.id : typeof raw.session_id === 'string' ? raw.session_id : undefined;
      if (id === undefined) return 'session header without id';
      const { v: _v, type: _t, version: _version, session_id: _sid, id: _id, ...rest } = raw;
      return { ...rest, v: 2, type: 'session', id };
    }
    case 'message': {
      const message = checkMessage(isObject(raw.message) ? raw.message : raw);
      return typeof message === 'string' ? message : { v: 2, type: 'message', message, ...atMs };
    }
    case 'rewind':
      return typeof raw.to === 'number' && Number.isInteger(raw.to) && raw.to >= 0
        ? { v: 2, type: 'rewind', to: raw.to, ...atMs }
        : 'rewind without a message count';
    case 'compacted': {
      if (!Array.isArray(raw.messages)) return 'compacted without messages';
      const messages: ChatMessage[] = [];
      for (const m of raw.messages) {
        const checked = checkMessage(m);
        if (typeof checked === 'string') return `compacted: ${checked}`;
        messages.push(checked);
      }
      return {
        v: 2,
        type: 'compacted',
        messages,
        layer: typeof raw.layer === 'string' ? raw.layer : 'summary',
        ...(typeof raw.beforeTokens === 'number' ? { beforeTokens: raw.beforeTokens } : {}),
        ...(typeof raw.afterTokens === 'number' ? { afterTokens: raw.afterTokens } : {}),
        ...atMs,
      };
    }
    case 'repair': {
      if (!Array.isArray(raw.dropped) || !Array.isArray(raw.inserted))
        return 'repair without dropped/inserted lists';
      const inserted: RepairRecord['inserted'] = [];
      for (const item of raw.inserted) {
        const message = isObject(item) ? checkMessage(item.message) : 'not an object';
        if (
          !isObject(item) ||
          typeof item.afterCallId !== 'string' ||
          typeof message === 'string' ||
          message.role !== 'tool'
        )
          return 'repair: bad inserted entry';
        inserted.push({ afterCallId: item.afterCallId, message });
      }
      const dropped: RepairRecord['dropped'] = [];
      for (const item of raw.dropped) {
        if (!isObject(item) || typeof item.index !== 'number' || typeof item.toolCallId !== 'string')
          return 'repair: bad dropped entry';
        dropped.push({
          index: item.index,
          toolCallId: item.toolCallId,
          reason: typeof item.reason === 'string' ? item.reason : '',
        });
      }
      const replaced = Array.isArray(raw.argumentsReplaced)
        ? raw.argumentsReplaced.filter((x): x is string => typeof x === 'string')
        : undefined;
      return {
        v: 2,
        type: 'repair',
        dropped,
        inserted,
        ...(replaced && replaced.length > 0 ? { argumentsReplaced: replaced } : {}),
        ...atMs,
      };
    }
    case 'todos': {
      if (!Array.isArray(raw.todos)) return 'todos without a list';
      const todos: Todo[] = [];
      for (const t of raw.todos) {
        if (
          !isObject(t) ||
          typeof t.content !== 'string' ||
          !['pending', 'in_progress', 'completed'].includes(t.status as string)
        )
          return 'todos: bad item';
        todos.push({
          content: t.content,
          activeForm: typeof t.activeForm === 'string' ? t.activeForm : t.content,
          status: t.status as Todo['status'],
        });
      }
      return { v: 2, type: 'todos', todos, ...atMs };
    }
    case 'event': {
      if (typeof raw.name !== 'string') return 'event without a name';
      const { v: _v, type: _t, ...rest } = raw;
      return { ...rest, v: 2, type: 'event', name: raw.name } as EventRecord;
    }
    default:
      return { v: version, type: raw.type, unknown: true };
  }
}

/**
 * Decodes one line (without its `\n`). A trailing `\r` is ignored.
 * @returns the record (current version), an unknown-type record, or `{ error }` for a damaged line.
 */
export function decodeLine(line: string): { record: SessionRecord | UnknownRecord } | { error: string } {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { error: `not JSON: ${(error as Error).message}` };
  }
  const migrated = migrateRecord(raw);
  return typeof migrated === 'string' ? { error: migrated } : { record: migrated };
}
