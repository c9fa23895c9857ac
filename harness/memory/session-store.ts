/**
 * Sessions on disk: `<dir>/<id>.jsonl`, append-only. `SessionStore` lists, creates and resumes
 * them by id; `SessionWriter` appends records in order, whole lines only (the records of one
 * call in one write, so a crash cuts at most the lines being written, and a file that does not
 * end in a newline gets one before the next record, so a cut line never swallows the next).
 */
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  appendHarnessFile,
  appendHarnessFileSync,
  checkHarnessFile,
  present,
} from '../sandbox/harness-files.ts';
import { HarnessBenchError } from '../errors.ts';
import type { ChatMessage } from '../model/types.ts';
import { encodeRecord, SESSION_FORMAT_VERSION, type SessionRecord } from './session-format.ts';
import { idFromFileName, loadSessionFile, type LoadedSession } from './session-load.ts';
import type { Todo } from './todos.ts';
import type { RepairReport } from '../context/repair.ts';

/** A session id: letters, digits, `_`, `.` and `-`, not starting with a dot (it is a file name). */
const SESSION_ID_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/;

/** Raised for an id that is not {@link SESSION_ID_PATTERN} or a session that does not exist: a usage error. */
export class SessionError extends HarnessBenchError {
  override readonly name = 'SessionError';
  constructor(message: string) {
    super('SESSION', 'user_input', message);
  }
}

/** One entry of {@link SessionStore.list}. */
export interface SessionInfo {
  id: string;
  file: string;
  bytes: number;
  /** The header's creation time (ms), when the header is readable. */
  createdMs?: number;
  /** False when the first line is not a readable header (the session is still listed and resumable). */
  headerOk: boolean;
}

/**
 * Appends records to one session file. Messages are appended by identity: `sync(history)`
 * writes every message object of `history` it has not written (or been told about) before, so
 * a caller can hand it the working conversation before every model call.
 *
 * Writes are appends, one per call (`sync` writes its new messages in one), each through
 * `appendHarnessFile` (below the workspace without following links, `sandbox/harness-files.ts`),
 * in order: synchronously when nothing is in flight and the file allows it (below the workspace
 * on Linux, `appendHarnessFileSync`: the same opens and checks without a thread-pool round trip
 * per record), else chained. The first write error is kept and raised by
 * {@link SessionWriter.flush}; the returned promises never reject, so callers may `void` them.
 */
export class SessionWriter {
  private readonly known = new WeakSet<object>();
  private chain: Promise<void> = Promise.resolve();
  /** Chained appends not finished yet: while any is, later ones are chained too (order). */
  private inFlight = 0;
  private failure: Error | undefined;

  /** @param root the workspace when the file lives below it: written without following links (`sandbox/harness-files.ts`). */
  constructor(
    readonly id: string,
    readonly file: string,
    private readonly now: () => number,
    private readonly root?: string,
  ) {}

  /** Marks messages as already in the file (loaded ones, or rewritten copies the loader reproduces). */
  markKnown(messages: readonly ChatMessage[]): void {
    for (const m of messages) this.known.add(m);
  }

  private write(lines: string): Promise<void> {
    if (lines === '') return this.chain;
    if (this.inFlight === 0)
      try {
        if (appendHarnessFileSync(this.root, this.file, lines)) return this.chain;
      } catch (error) {
        this.failure ??= error as Error;
        return this.chain;
      }
    this.inFlight += 1;
    this.chain = this.chain
      .then(() => appendHarnessFile(this.root, this.file, lines))
      .catch((error: Error) => {
        this.failure ??= error;
      })
      .finally(() => {
        this.inFlight -= 1;
      });
    return this.chain;
  }

  private append(record: SessionRecord): Promise<void> {
    return this.write(encodeRecord(record));
  }

  /** Appends the messages of `history` not yet written, in order (new messages are at the end), in one write. */
  sync(history: readonly ChatMessage[]): Promise<void> {
    let first = history.length;
    while (first > 0 && !this.known.has(history[first - 1]!)) first -= 1;
    let lines = '';
    for (let i = first; i < history.length; i += 1) {
      const message = history[i]!;
      this.known.add(message);
      lines += encodeRecord({ v: SESSION_FORMAT_VERSION, type: 'message', message, atMs: this.now() });
    }
    return this.write(lines);
  }

  /** Records a compaction: the working conversation is now `messages`. */
  compacted(
    messages: readonly ChatMessage[],
    info: { layer: string; beforeTokens: number; afterTokens: number },
  ): Promise<void> {
    this.markKnown(messages);
    return this.append({
      v: SESSION_FORMAT_VERSION,
      type: 'compacted',
      messages: [...messages],
      ...info,
      atMs: this.now(),
    });
  }

  /** Records a transcript repair (an audit record; loading applies it). */
  repair(report: RepairReport): Promise<void> {
    this.markKnown(report.inserted.map((i) => i.message));
    return this.append({
      v: SESSION_FORMAT_VERSION,
      type: 'repair',
      dropped: report.dropped,
      inserted: report.inserted,
      ...(report.argumentsReplaced.length > 0 ? { argumentsReplaced: report.argumentsReplaced } : {}),
      atMs: this.now(),
    });
  }

  /** The conversation goes back to its first `to` messages (as the file reads). */
  rewind(to: number): Promise<void> {
    return this.append({ v: SESSION_FORMAT_VERSION, type: 'rewind', to, atMs: this.now() });
  }

  /** The todo list changed. */
  todos(todos: readonly Todo[]): Promise<void> {
    return this.append({
      v: SESSION_FORMAT_VERSION,
      type: 'todos',
      todos: todos.map((t) => ({ ...t })),
      atMs: this.now(),
    });
  }

  /** Something happened (`interrupt` of a call id, `end`, …). */
  event(name: string, fields: Record<string, unknown> = {}): Promise<void> {
    return this.append({ ...fields, v: SESSION_FORMAT_VERSION, type: 'event', name, atMs: this.now() });
  }

  /** Waits for every record written so far. @throws the first write error, if any. */
  async flush(): Promise<void> {
    await this.chain;
    if (this.failure) throw this.failure;
  }
}

/** Sessions of one folder, by id. */
export class SessionStore {
  /**
   * @param options.root the workspace, when `dir` is below it: session files are then written and
   *   read without following any link below it (a `.harness-bench` link cannot redirect them).
   */
  constructor(
    readonly dir: string,
    private readonly now: () => number,
    private readonly options: { root?: string } = {},
  ) {}

  /** The file of a session id. @throws SessionError for an id that is not a plain file name. */
  fileOf(id: string): string {
    if (!SESSION_ID_PATTERN.test(id))
      throw new SessionError(`not a session id (letters, digits, _ . - only): ${JSON.stringify(id)}`);
    return path.join(this.dir, `${id}.jsonl`);
  }

  /** Every session of the folder, sorted by id; a session whose header is damaged is listed too. */
  async list(): Promise<SessionInfo[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const out: SessionInfo[] = [];
    for (const name of names.filter((n) => n.endsWith('.jsonl') && !n.endsWith('.quarantine.jsonl')).sort()) {
      const file = path.join(this.dir, name);
      const info = await stat(file);
      const text = (await readFile(file, 'utf8').catch(() => '')).split('\n', 1)[0] ?? '';
      let header: { createdMs?: unknown } | undefined;
      try {
        const first = JSON.parse(text) as { type?: unknown; createdMs?: unknown };
        header = first.type === 'session' || first.type === 'meta' ? first : undefined;
      } catch {
        header = undefined;
      }
      out.push({
        id: idFromFileName(file),
        file,
        bytes: info.size,
        headerOk: header !== undefined,
        ...(typeof header?.createdMs === 'number' ? { createdMs: header.createdMs } : {}),
      });
    }
    return out;
  }

  /** Creates a new session file with its header. @throws SessionError when the id exists. */
  async create(id: string, header: Record<string, unknown> = {}): Promise<SessionWriter> {
    const file = this.fileOf(id);
    if (await present(file)) throw new SessionError(`session ${id} exists already; resume it instead`);
    const writer = new SessionWriter(id, file, this.now, this.options.root);
    await appendHarnessFile(
      this.options.root,
      file,
      encodeRecord({ ...header, v: SESSION_FORMAT_VERSION, type: 'session', id, createdMs: this.now() }),
    );
    await ignoreFolder(this.dir);
    return writer;
  }

  /** Loads a session. @throws SessionError when there is no such session. */
  async load(id: string): Promise<LoadedSession> {
    const file = this.fileOf(id);
    if (!(await exists(file))) throw new SessionError(`no session ${id} in ${this.dir}`);
    try {
      await checkHarnessFile(this.options.root, file);
    } catch (error) {
      throw new SessionError(
        `session ${id} cannot be read safely (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): a link or hard link is in the way below the workspace`,
      );
    }
    return loadSessionFile(file);
  }

  /**
   * Resumes a session: loads it and returns a writer that appends to the same file (after a
   * newline when the file ends in a cut line). Loaded messages count as written.
   */
  async resume(id: string): Promise<{ loaded: LoadedSession; writer: SessionWriter }> {
    const loaded = await this.load(id);
    const buffer = await readFile(loaded.file);
    if (buffer.length > 0 && buffer[buffer.length - 1] !== 0x0a)
      await appendHarnessFile(this.options.root, loaded.file, '\n');
    const writer = new SessionWriter(loaded.id, loaded.file, this.now, this.options.root);
    writer.markKnown(loaded.messages);
    return { loaded, writer };
  }

  /** Deletes a session file and its quarantine file. */
  async remove(id: string): Promise<void> {
    const file = this.fileOf(id);
    await rm(file, { force: true });
    await rm(`${file}.quarantine.jsonl`, { force: true });
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes `.gitignore` (`*`) into the harness folder that holds `dir` when that folder is named
 * `.harness-bench`, so sessions and spill files stay out of version control.
 */
export async function ignoreFolder(dir: string): Promise<void> {
  let folder = dir;
  while (path.basename(folder) !== '.harness-bench' && path.dirname(folder) !== folder)
    folder = path.dirname(folder);
  if (path.basename(folder) !== '.harness-bench') return;
  const file = path.join(folder, '.gitignore');
  // Written below the folder that holds `.harness-bench`, without following links: a `.harness-bench` link is refused.
  if (!(await present(file)))
    await appendHarnessFile(path.dirname(folder), file, '*\n').catch(() => undefined);
}
