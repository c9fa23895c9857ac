import { mkdtempSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../harness/policy/types.ts';
import { describeApproval, parseApprovalAnswer, suggestedShape, terminalApprover } from './chat-approver.ts';
import { appendMessages, createSession, loadSession, sessionFile } from './chat-session-file.ts';
import { activeTodo, statusText, StatusLine } from './chat-status.ts';

const request = (extra: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  callId: 'call_1',
  tool: 'write_file',
  effect: 'write',
  argumentsText: '{"path":"src/a.ts","content":"x\\u001b[2J"}',
  paths: [{ path: '/ws/src/a.ts', access: 'write' }],
  decision: {
    action: 'ask',
    rule: 'effects:write',
    reason: 'write to "src/a.ts" is subject to approval by rule effects:write',
    parts: [],
  },
  ...extra,
});

describe('chat approvals', () => {
  it('shows the fully resolved call, nothing cut', () => {
    expect(describeApproval(request({ command: 'npm test -- --watch=false' }))).toEqual([
      'approval needed: write_file (write) call call_1',
      '  arguments: {"path":"src/a.ts","content":"x\\u001b[2J"}',
      '  write: /ws/src/a.ts',
      '  command: npm test -- --watch=false',
      '  why: write to "src/a.ts" is subject to approval by rule effects:write',
    ]);
  });

  it('reads y / n / a, an empty line denies, anything else is unrecognised', () => {
    expect(['y', 'YES', ' approve '].map(parseApprovalAnswer)).toEqual(['approve', 'approve', 'approve']);
    expect(['', 'n', 'deny'].map(parseApprovalAnswer)).toEqual(['deny', 'deny', 'deny']);
    expect(['a', 'always'].map(parseApprovalAnswer)).toEqual(['shape', 'shape']);
    expect(parseApprovalAnswer('maybe')).toBeUndefined();
  });

  it('offers the folder for paths, the file at the root, the first word for commands', () => {
    expect(suggestedShape(request(), '/ws')).toBe('src/*');
    expect(suggestedShape(request({ paths: [{ path: '/ws/a.txt', access: 'write' }] }), '/ws')).toBe('a.txt');
    expect(suggestedShape(request({ command: 'npm test', paths: [] }), '/ws')).toBe('npm *');
  });

  it('asks again on an unknown answer, returns a shape grant, and denies when input ends', async () => {
    const answers = ['what', 'a', 'src/**'];
    const asked: string[] = [];
    const approver = terminalApprover(
      async (prompt) => {
        asked.push(prompt);
        return answers.shift();
      },
      () => {},
      '/ws',
    );
    expect(await approver(request())).toEqual({ approveShape: 'src/**' });
    expect(asked).toHaveLength(3);
    const ended = terminalApprover(
      async () => undefined,
      () => {},
      '/ws',
    );
    expect(await ended(request())).toBe('deny');
  });
});

describe('chat status line', () => {
  it('shows the turn, the activity and the active todo', () => {
    expect(
      activeTodo(
        '{"todos":[{"content":"read","status":"completed"},{"content":"fix the parser","status":"in_progress"}]}',
      ),
    ).toBe('fix the parser');
    expect(activeTodo('not json')).toBeUndefined();
    expect(
      activeTodo(
        '{"todos":[{"content":"fix the parser","activeForm":"Fixing the parser","status":"in_progress"}]}',
      ),
    ).toBe('Fixing the parser');
    const lines: string[] = [];
    const status = new StatusLine((t) => lines.push(t), false);
    const base = { seq: 0, atMs: 0, scope: [] };
    status.onEvent({ ...base, type: 'turn_start', turn: 2, wrapUp: false, requestTokens: 10 });
    status.onEvent({
      ...base,
      type: 'tool_call_start',
      turn: 2,
      callId: 'c',
      tool: 'write_todos',
      arguments: '{"todos":[{"content":"fix the parser","status":"in_progress"}]}',
      normalisations: [],
    });
    expect(statusText(status.status)).toBe('turn 2 · running write_todos · todo: fix the parser');
    status.onEvent({
      ...base,
      type: 'tool_call_end',
      callId: 'c',
      tool: 'write_todos',
      ok: false,
      errorType: 'unknown_tool',
      executed: false,
      verdict: 'none',
      content: '',
      durationMs: 0,
    });
    expect(lines).toEqual([
      '  ✗ write_todos({"todos":[{"content":"fix the parser","status":"in_progre...) unknown_tool\n',
    ]);
  });
});

describe('chat session file', () => {
  it('round-trips messages and skips a damaged line without losing the rest', () => {
    const file = sessionFile(mkdtempSync(path.join(tmpdir(), 'hb-sessions-')), 'ses_1');
    createSession(file, {
      id: 'ses_1',
      createdAt: '2026-01-01T00:00:00.000Z',
      model: 'm',
      baseURL: 'http://x',
      workspace: '/ws',
    });
    appendMessages(file, [{ role: 'user', content: 'hi' }]);
    appendFileSync(file, '{"type":"message","message":{"role":"us\n');
    appendMessages(file, [{ role: 'assistant', content: 'hello' }]);
    const loaded = loadSession(file);
    expect(loaded.header).toMatchObject({ id: 'ses_1', workspace: '/ws' });
    expect(loaded.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ]);
    expect(loaded.damaged).toEqual([3]);
  });

  it('an id that is not a plain name is an input error (no path traversal)', () => {
    expect(() => sessionFile('/s', '../etc/passwd')).toThrow(/not a session id/);
  });
});
