/**
 * `save_note {note}` and `search_notes {query}`: notes that persist across runs in SQLite
 * (better-sqlite3), at the file the run names (`ToolContext.notesPath`). A note equal to a saved
 * one ignoring case and runs of whitespace is not saved twice; `search_notes "*"` lists every
 * note; any other query matches notes that contain every one of its words, ignoring case.
 * The database is the harness's own state, not the workspace's, so it is opened directly
 * rather than through the sandbox.
 */
import Database from 'better-sqlite3';
import { describeSystemError } from '../../path-display.ts';
import type { ToolContext, ToolDefinition, ToolOutput } from '../types.ts';

/** Longest note in characters. */
export const NOTE_MAX_CHARS = 2000;
/** Notes listed at most by one search. */
export const SEARCH_NOTES_MAX = 50;

/** One stored note. `createdMs`: the injected clock when it was saved. */
export interface Note {
  id: number;
  note: string;
  createdMs: number;
}

/** The deduplication key: NFKC, whitespace runs collapsed, trimmed, lower-cased (Unicode-aware). */
export function noteKey(text: string): string {
  return text.normalize('NFKC').replace(/\s+/gu, ' ').trim().toLowerCase();
}

/**
 * Opens (creating if needed) the notes database at `file` (`:memory:` for a throwaway one).
 * @throws the SQLite error when the file cannot be opened or is not a notes database.
 */
export function openNotes(file: string): Database.Database {
  const db = new Database(file, { timeout: 5000 });
  db.exec(
    'CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, note TEXT NOT NULL, key TEXT NOT NULL UNIQUE, created_ms INTEGER NOT NULL)',
  );
  return db;
}

/** Saves `note` unless an equal one (by {@link noteKey}) exists. Returns the note's id and whether it was new. */
export function saveNote(
  db: Database.Database,
  note: string,
  createdMs: number,
): { id: number; created: boolean } {
  const key = noteKey(note);
  const inserted = db
    .prepare('INSERT OR IGNORE INTO notes (note, key, created_ms) VALUES (?, ?, ?)')
    .run(note.trim(), key, createdMs);
  if (inserted.changes === 1) return { id: Number(inserted.lastInsertRowid), created: true };
  const existing = db.prepare('SELECT id FROM notes WHERE key = ?').get(key) as { id: number };
  return { id: existing.id, created: false };
}

/** Notes matching `query` (`*`: all; otherwise every word, ignoring case), oldest first, at most `limit`, and how many matched. */
export function searchNotes(
  db: Database.Database,
  query: string,
  limit = SEARCH_NOTES_MAX,
): { notes: Note[]; total: number } {
  const words =
    query.trim() === '*'
      ? []
      : noteKey(query)
          .split(' ')
          .filter((w) => w !== '');
  const where = words.length > 0 ? `WHERE ${words.map(() => 'instr(key, ?) > 0').join(' AND ')}` : '';
  const total = (db.prepare(`SELECT count(*) AS n FROM notes ${where}`).get(...words) as { n: number }).n;
  const rows = db
    .prepare(`SELECT id, note, created_ms AS createdMs FROM notes ${where} ORDER BY id LIMIT ?`)
    .all(...words, limit) as Note[];
  return { notes: rows, total };
}

/** Opens the run's notes database, runs `use`, closes it; every failure becomes a `tool_failed` output. */
function withNotes<T>(
  context: ToolContext,
  doing: string,
  use: (db: Database.Database) => T,
): { ok: true; value: T } | { ok: false; output: ToolOutput } {
  const fail = (message: string) => ({
    ok: false as const,
    output: { ok: false as const, errorType: 'tool_failed' as const, message },
  });
  if (!context.notesPath)
    return fail('notes are not available in this run (no notes database is configured)');
  let db: Database.Database;
  try {
    db = openNotes(context.notesPath);
  } catch (error) {
    return fail(`the notes database could not be opened: ${describeSystemError(error)}`);
  }
  try {
    return { ok: true, value: use(db) };
  } catch (error) {
    return fail(`the notes could not be ${doing}: ${describeSystemError(error)}`);
  } finally {
    db.close();
  }
}

/** `save_note`: stores a note for later runs; a note already saved (ignoring case and spacing) is not stored twice. */
export const saveNoteTool: ToolDefinition<{ note: string }> = {
  name: 'save_note',
  description:
    'Save a short note (a fact, a decision, a command that worked) that later runs can find with search_notes. Saving the same note twice keeps one.',
  parameters: {
    type: 'object',
    additionalProperties: false,
    required: ['note'],
    properties: {
      note: {
        type: 'string',
        minLength: 1,
        maxLength: NOTE_MAX_CHARS,
        pattern: '\\S',
        description: `The note, at most ${NOTE_MAX_CHARS} characters.`,
      },
    },
  },
  effect: 'write',
  harnessState: true,
  async execute(args, context): Promise<ToolOutput> {
    const result = withNotes(context, 'saved', (db) => saveNote(db, args.note, context.deps.now()));
    if (!result.ok) return result.output;
    const saved = result.value;
    return saved.created
      ? { ok: true, content: `saved as note #${saved.id}`, details: { id: saved.id, created: true } }
      : {
          ok: true,
          content: `already saved as note #${saved.id} (same text ignoring case and spacing); nothing changed`,
          details: { id: saved.id, created: false },
        };
  },
};

/** `search_notes`: notes containing every word of the query, or all notes for `*`. */
export const searchNotesTool: ToolDefinition<{ query: string }> = {
  name: 'search_notes',
  description:
    'Search saved notes: every word of the query must appear (case-insensitive); "*" lists all notes.',
  parameters: {
    type: 'object',
    additionalProperties: false,
    required: ['query'],
    properties: {
      query: {
        type: 'string',
        minLength: 1,
        pattern: '\\S',
        description: 'Words to look for, or "*" for every note.',
      },
    },
  },
  effect: 'read',
  async execute(args, context): Promise<ToolOutput> {
    const result = withNotes(context, 'searched', (db) => searchNotes(db, args.query));
    if (!result.ok) return result.output;
    const found = result.value;
    if (found.total === 0)
      return {
        ok: true,
        content: args.query.trim() === '*' ? 'no notes saved yet' : `no notes match "${args.query}"`,
        details: { total: 0 },
      };
    const lines = found.notes.map((n) => `#${n.id} ${n.note}`);
    if (found.total > found.notes.length)
      lines.push(
        `[${found.total - found.notes.length} more notes match; use more words to narrow the search]`,
      );
    return { ok: true, content: lines.join('\n'), details: { total: found.total } };
  },
};
