import { appendFileSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../model/types.ts';
import { decodeLine, encodeRecord } from './session-format.ts';
import { loadSessionFile, quarantinePath } from './session-load.ts';
import { SessionError, SessionStore } from './session-store.ts';

let dir: string;
let clock = 0;
const now = () => (clock += 1);
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-session-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const user = (content: string): ChatMessage => ({ role: 'user', content });
const call = (id: string, name = 'bash', args = '{}'): ChatMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: args } }],
});

// The lines of handed case G03 (anthropics/claude-code#50347), verbatim.
const G03 = [
  '{"type":"meta","session_id":"s-001","cwd":"/ws"}',
  '{"type":"message","role":"user","content":"start"}',
  '{"type":"message","role":"assistant","content":"ok"}',
  '{"type":"snapshot","files":[{"path":"a.ts","h',
  '\u0000'.repeat(200),
  '{"type":"message","role":"user","content":"next step"}',
  '{"type":"message","role":"assistant","content":"done with next step"}',
];

describe('session records', () => {
  it('one record per line whatever the content: newlines, NUL, U+2028, lone surrogates round-trip', () => {
    const message: ChatMessage = {
      role: 'tool',
      tool_call_id: 'c\n1',
      content: 'a\nb\r\n\u0000\u2028\u2029\ud800x\udfff "q" \\',
    };
    const line = encodeRecord({ v: 2, type: 'message', message });
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toMatch(/[\n\r\u2028\u2029]/);
    const decoded = decodeLine(line.slice(0, -1));
    expect(decoded).toEqual({ record: { v: 2, type: 'message', message } });
  });

  it('migrates the older shapes: case lines inline, chat v1 header and wrapped messages', () => {
    expect(decodeLine('{"type":"message","role":"user","content":"x"}')).toEqual({
      record: { v: 2, type: 'message', message: { role: 'user', content: 'x' } },
    });
    expect(decodeLine('{"type":"message","message":{"role":"assistant","content":"y"}}')).toEqual({
      record: { v: 2, type: 'message', message: { role: 'assistant', content: 'y' } },
    });
    expect(decodeLine('{"type":"session","version":1,"id":"abc","model":"m"}')).toEqual({
      record: { v: 2, type: 'session', id: 'abc', model: 'm' },
    });
    expect(decodeLine('{"type":"meta","session_id":"s-1","cwd":"/ws"}')).toEqual({
      record: { v: 2, type: 'session', id: 's-1', cwd: '/ws' },
    });
    expect(decodeLine('{"v":9,"type":"hologram"}')).toEqual({
      record: { v: 9, type: 'hologram', unknown: true },
    });
    expect(decodeLine('{"type":"message","role":"wizard","content":"x"}')).toEqual({
      error: 'unknown role "wizard"',
    });
  });
});

describe('loading a damaged session (G03)', () => {
  it('skips the cut line and the NUL padding, reports them, quarantines the raw bytes, loads the rest and leaves the file alone', async () => {
    const file = path.join(dir, 's-001.jsonl');
    const text = `${G03.join('\n')}\n`;
    writeFileSync(file, text);
    const loaded = await loadSessionFile(file);
    expect(loaded.messages).toEqual([
      user('start'),
      { role: 'assistant', content: 'ok' },
      user('next step'),
      { role: 'assistant', content: 'done with next step' },
    ]);
    expect(loaded.skipped.map((s) => s.line)).toEqual([4, 5]);
    expect(loaded.skipped[0]!.byteOffset).toBe(Buffer.byteLength(`${G03.slice(0, 3).join('\n')}\n`));
    expect(loaded.id).toBe('s-001');
    expect(readFileSync(file, 'utf8')).toBe(text);
    const quarantine = readFileSync(quarantinePath(file), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { line: number; rawBase64: string });
    expect(quarantine.map((q) => q.line)).toEqual([4, 5]);
    expect(Buffer.from(quarantine[0]!.rawBase64, 'base64').toString('utf8')).toBe(G03[3]);
    expect(Buffer.from(quarantine[1]!.rawBase64, 'base64').toString('utf8')).toBe('\u0000'.repeat(200));
  });

  it('a damaged header: the id comes from the file name, the session is listed and resumable', async () => {
    const store = new SessionStore(dir, now);
    writeFileSync(
      path.join(dir, 's-001.jsonl'),
      `${['{"type":"meta","sess', ...G03.slice(1, 3), ...G03.slice(5)].join('\n')}\n`,
    );
    expect(await store.list()).toMatchObject([{ id: 's-001', headerOk: false }]);
    const { loaded } = await store.resume('s-001');
    expect(loaded.id).toBe('s-001');
    expect(loaded.skipped.map((s) => s.line)).toEqual([1]);
    expect(loaded.messages.at(-1)).toEqual({ role: 'assistant', content: 'done with next step' });
  });

  it('a file ending in a cut line gets a newline before the next record, so nothing else is lost', async () => {
    const store = new SessionStore(dir, now);
    const writer = await store.create('s1');
    await writer.sync([user('one')]);
    await writer.flush();
    appendFileSync(path.join(dir, 's1.jsonl'), '{"v":2,"type":"message","mess');
    const { writer: again } = await store.resume('s1');
    await again.sync([user('two')]);
    await again.flush();
    const loaded = await store.load('s1');
    expect(loaded.messages).toEqual([user('one'), user('two')]);
    expect(loaded.skipped.map((s) => s.line)).toEqual([3]);
  });
});

describe('SessionStore and SessionWriter', () => {
  it('appends by identity, records rewind, compaction, repair and todos, and loads them in order', async () => {
    const store = new SessionStore(dir, now);
    const writer = await store.create('abc', { cwd: '/ws' });
    const history = [
      user('task'),
      call('c1'),
      { role: 'tool', tool_call_id: 'c1', content: 'out' } as ChatMessage,
    ];
    await writer.sync(history);
    await writer.sync(history);
    await writer.todos([{ content: 'a', activeForm: 'doing a', status: 'in_progress' }]);
    history.push(user('second'), { role: 'assistant', content: 'answer' });
    await writer.sync(history);
    await writer.rewind(4);
    const compacted: ChatMessage[] = [
      user('task'),
      { role: 'system', content: '[harness context note] summary' },
      user('second'),
    ];
    await writer.compacted(compacted, { layer: 'summary', beforeTokens: 100, afterTokens: 10 });
    await writer.sync([...compacted, user('third')]);
    await writer.flush();
    const loaded = await store.load('abc');
    expect(loaded.messages).toEqual([...compacted, user('third')]);
    expect(loaded.todos).toEqual([{ content: 'a', activeForm: 'doing a', status: 'in_progress' }]);
    expect(loaded.header).toMatchObject({ id: 'abc', cwd: '/ws' });
    expect(loaded.skipped).toEqual([]);
  });

  it('a rewind cuts the conversation back; later messages append after that point', async () => {
    const store = new SessionStore(dir, now);
    const writer = await store.create('r');
    await writer.sync([user('a'), user('b'), user('c')]);
    await writer.rewind(1);
    await writer.sync([user('a'), user('d')].slice(1));
    await writer.flush();
    expect((await store.load('r')).messages).toEqual([user('a'), user('d')]);
  });

  it('a repair record is applied on load: dropped misplaced results, inserted interrupted results', async () => {
    const store = new SessionStore(dir, now);
    const writer = await store.create('g');
    const misplaced: ChatMessage = { role: 'tool', tool_call_id: 'c1', content: 'late' };
    await writer.sync([user('go'), call('c1'), user('stop'), misplaced]);
    const synthetic = {
      role: 'tool' as const,
      tool_call_id: 'c1',
      content: '{"error":{"type":"interrupted"}}',
    };
    await writer.repair({
      dropped: [{ index: 3, toolCallId: 'c1', reason: 'misplaced' }],
      inserted: [{ afterCallId: 'c1', message: synthetic }],
      argumentsReplaced: [],
      reordered: 0,
    });
    await writer.flush();
    expect((await store.load('g')).messages).toEqual([user('go'), call('c1'), synthetic, user('stop')]);
  });

  it('ids are plain file names; a missing or existing session is a SessionError', async () => {
    const store = new SessionStore(dir, now);
    expect(() => store.fileOf('../etc/passwd')).toThrow(SessionError);
    expect(() => store.fileOf('.hidden')).toThrow(SessionError);
    await expect(store.load('nope')).rejects.toThrow(SessionError);
    await store.create('x');
    await expect(store.create('x')).rejects.toThrow(/exists already/);
  });
});
