/**
 * The chat transcript as an append-only JSONL file, `~/.harness-bench/sessions/<id>.jsonl`
 * (`$HARNESS_BENCH_HOME/sessions/` when set), so `chat --resume ID` continues a conversation.
 * The file lives outside the workspace on purpose: the agent's tools must not be able to read
 * or rewrite the transcript a later session resumes from (a place for an injection to persist),
 * and the workspace stays what the model changed. The first line describes the session; every
 * later line is one message. A damaged line is skipped and counted, never the end of the
 * session. (Full sessions with rewind and compaction markers belong to the memory layer; this is
 * the minimal transcript the chat needs.)
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { ChatMessage } from '../harness/model/types.ts';
import { InputError } from '../eval/errors.ts';

/** The first line of a session file. */
export interface SessionHeader {
  type: 'session';
  version: 1;
  id: string;
  /** ISO 8601. */
  createdAt: string;
  model: string;
  baseURL: string;
  /** The workspace the session worked in (absolute). */
  workspace: string;
}

/** The sessions folder: `$HARNESS_BENCH_HOME/sessions`, else `~/.harness-bench/sessions`. */
export function sessionsDirectory(env: NodeJS.ProcessEnv): string {
  return path.join(env.HARNESS_BENCH_HOME ?? path.join(homedir(), '.harness-bench'), 'sessions');
}

/** A session id: letters, digits, `_` and `-` only (it becomes a file name). */
const SESSION_ID = /^[A-Za-z0-9_-]{1,80}$/;

/** `<sessions folder>/<id>.jsonl`. @throws InputError for an id that is not {@link SESSION_ID}. */
export function sessionFile(directory: string, id: string): string {
  if (!SESSION_ID.test(id))
    throw new InputError([
      {
        file: '(flags)',
        path: '--resume',
        reason: `not a session id (letters, digits, _ and - only): ${JSON.stringify(id)}`,
      },
    ]);
  return path.join(directory, `${id}.jsonl`);
}

/** Creates a session file with its header line. */
export function createSession(file: string, header: Omit<SessionHeader, 'type' | 'version'>): void {
  mkdirSync(path.dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify({ type: 'session', version: 1, ...header })}\n`, 'utf8');
}

/** Appends messages, one line each. */
export function appendMessages(file: string, messages: readonly ChatMessage[]): void {
  if (messages.length === 0) return;
  appendFileSync(
    file,
    messages.map((message) => `${JSON.stringify({ type: 'message', message })}\n`).join(''),
    'utf8',
  );
}

const isMessage = (value: unknown): value is ChatMessage =>
  typeof value === 'object' &&
  value !== null &&
  ['system', 'user', 'assistant', 'tool'].includes((value as { role?: unknown }).role as string);

/**
 * Reads a session: its header and messages in order. Damaged lines (not JSON, not a message)
 * are skipped and their 1-based line numbers returned.
 * @throws InputError when the file does not exist.
 */
export function loadSession(file: string): {
  header: SessionHeader | undefined;
  messages: ChatMessage[];
  damaged: number[];
} {
  if (!existsSync(file))
    throw new InputError([
      {
        file,
        path: '',
        reason:
          'no such session (sessions live in ~/.harness-bench/sessions/, or $HARNESS_BENCH_HOME/sessions/)',
      },
    ]);
  const messages: ChatMessage[] = [];
  const damaged: number[] = [];
  let header: SessionHeader | undefined;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        const entry = JSON.parse(line) as { type?: unknown; message?: unknown };
        if (entry.type === 'session' && i === 0) header = entry as SessionHeader;
        else if (entry.type === 'message' && isMessage(entry.message)) messages.push(entry.message);
        else damaged.push(i + 1);
      } catch {
        damaged.push(i + 1);
      }
    });
  return { header, messages, damaged };
}
