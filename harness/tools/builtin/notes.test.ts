import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolRegistry } from '../registry.ts';
import type { ToolDefinition } from '../types.ts';
import { outputText, runTool } from './builtin.test-helpers.ts';
import {
  noteKey,
  openNotes,
  saveNote,
  saveNoteTool,
  SEARCH_NOTES_MAX,
  searchNotes,
  searchNotesTool,
} from './notes.ts';

let dir: string;
let notesPath: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-notes-')));
  notesPath = path.join(dir, 'notes.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const save = (note: string) => runTool(saveNoteTool, { note }, dir, { notesPath });
const find = (query: string) => runTool(searchNotesTool, { query }, dir, { notesPath });

describe('notes', () => {
  it('saves and finds notes; they persist in the file across openings', async () => {
    expect(outputText(await save('The tests run with npm test'))).toBe('saved as note #1');
    expect(outputText(await save('Deploys go through CI only'))).toBe('saved as note #2');
    expect(outputText(await find('npm'))).toBe('#1 The tests run with npm test');
    const db = openNotes(notesPath);
    expect(searchNotes(db, '*').total).toBe(2);
    db.close();
  });

  it('does not save a note twice, ignoring case and spacing (Unicode too)', async () => {
    await save('Use ÉCOLE mode');
    expect(outputText(await save('  use   école MODE '))).toBe(
      'already saved as note #1 (same text ignoring case and spacing); nothing changed',
    );
    expect(outputText(await find('*'))).toBe('#1 Use ÉCOLE mode');
  });

  it('a query matches notes containing every word, in any case; "*" lists all', async () => {
    await save('Database migrations live in db/migrate');
    await save('The database password is in the vault');
    await save('Run migrations with make migrate');
    expect(outputText(await find('DATABASE migrations'))).toBe('#1 Database migrations live in db/migrate');
    expect(outputText(await find('migrat'))).toBe(
      '#1 Database migrations live in db/migrate\n#3 Run migrations with make migrate',
    );
    expect(outputText(await find('*')).split('\n')).toHaveLength(3);
  });

  it('says so when nothing matches or nothing is saved', async () => {
    expect(outputText(await find('*'))).toBe('no notes saved yet');
    await save('something');
    expect(outputText(await find('else'))).toBe('no notes match "else"');
  });

  it('treats LIKE and SQL characters in a query as plain text', async () => {
    await save('100% done');
    await save('1000 done');
    expect(outputText(await find('%'))).toBe('#1 100% done');
    expect(outputText(await find("'; DROP TABLE notes; --"))).toBe(
      `no notes match "'; DROP TABLE notes; --"`,
    );
    expect(outputText(await find('*')).split('\n')).toHaveLength(2);
  });

  it('caps a listing and says how many more match', () => {
    const db = openNotes(':memory:');
    for (let i = 0; i < SEARCH_NOTES_MAX + 5; i += 1) saveNote(db, `note ${i}`, i);
    expect(searchNotes(db, '*')).toMatchObject({ total: SEARCH_NOTES_MAX + 5 });
    expect(searchNotes(db, '*').notes).toHaveLength(SEARCH_NOTES_MAX);
    db.close();
  });

  it('without a notes database in the run, both tools fail and say why', async () => {
    expect(outputText(await runTool(saveNoteTool, { note: 'x' }, dir))).toBe(
      'ERROR tool_failed: notes are not available in this run (no notes database is configured)',
    );
    expect(outputText(await runTool(searchNotesTool, { query: '*' }, dir))).toContain(
      'ERROR tool_failed: notes are not available',
    );
  });

  it('a file that is not a database, or a folder that does not exist, is tool_failed', async () => {
    writeFileSync(path.join(dir, 'junk.db'), 'this is not sqlite '.repeat(100));
    expect(
      outputText(await runTool(saveNoteTool, { note: 'x' }, dir, { notesPath: path.join(dir, 'junk.db') })),
    ).toMatch(/^ERROR tool_failed: the notes database could not be opened: .*not a database/);
    expect(
      outputText(
        await runTool(searchNotesTool, { query: 'x' }, dir, { notesPath: path.join(dir, 'missing', 'n.db') }),
      ),
    ).toMatch(/^ERROR tool_failed: the notes database could not be opened/);
  });

  it('the schemas refuse empty and blank notes and queries, and overlong notes', () => {
    const registry = new ToolRegistry([saveNoteTool, searchNotesTool] as unknown as ToolDefinition[]);
    const saveValid = registry.get('save_note')!.validate;
    const findValid = registry.get('search_notes')!.validate;
    expect(saveValid({ note: 'ok' })).toBe(true);
    for (const bad of [{}, { note: '' }, { note: '   ' }, { note: 'x'.repeat(2001) }])
      expect(saveValid(bad)).toBe(false);
    expect(findValid({ query: '*' })).toBe(true);
    for (const bad of [{}, { query: '' }, { query: ' \n' }]) expect(findValid(bad)).toBe(false);
  });

  it('save_note is a write, search_notes a read', () => {
    expect(saveNoteTool.effect).toBe('write');
    expect(searchNotesTool.effect).toBe('read');
    expect(noteKey(' A\tB ')).toBe('a b');
  });
});
