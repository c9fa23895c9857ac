import { describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../../harness/model/scripted-model.ts';
import type { RecordedRequest } from '../serve/server.ts';
import { looksLikeError, projectForeignRun, unmapRequest } from './project.ts';

const SCRIPT: ScriptedTurn[] = [
  {
    tool_calls: [
      { id: 'a', name: 'read_file', arguments: '{"path": "x",}' },
      { id: 'b', name: 'read_file', arguments: '{"path": "x"}' },
    ],
  },
  { content: 'done' },
];

const served = (
  turn: number | null,
  messages: unknown[],
  outcome: RecordedRequest['outcome'] = 'turn',
): RecordedRequest => ({
  method: 'POST',
  path: '/v1/chat/completions',
  body: { model: 'm', messages },
  turn,
  stream: false,
  status: outcome === 'exhausted' ? 400 : 200,
  outcome,
});

const assistant = (ids: string[], name = 'readFile') => ({
  role: 'assistant',
  content: null,
  tool_calls: ids.map((id) => ({ id, type: 'function', function: { name, arguments: '{"filePath":"x"}' } })),
});

describe('projectForeignRun', () => {
  it('pairs each scripted call with the tool message the harness sent back, by id', () => {
    const second = [
      { role: 'user', content: 't' },
      assistant(['a', 'b']),
      { role: 'tool', tool_call_id: 'a', content: 'Error: bad JSON' },
      { role: 'tool', tool_call_id: 'b', content: 'hello' },
    ];
    const run = projectForeignRun(
      [served(0, [{ role: 'user', content: 't' }]), served(1, second)],
      SCRIPT,
      { read_file: { name: 'readFile', args: { path: 'filePath' } } },
      'done',
    );
    expect(run.ending).toBe('final_answer');
    expect(run.modelCalls).toBe(2);
    expect(run.calls.map((c) => [c.id, c.sentId, c.answer, c.observable])).toEqual([
      ['a', 'a', 'Error: bad JSON', true],
      ['b', 'b', 'hello', true],
    ]);
    // The requests are in our names and keys.
    const call = (
      run.requests[1]!.messages[1] as { tool_calls: { function: { name: string; arguments: string } }[] }
    ).tool_calls[0]!;
    expect(call.function).toEqual({ name: 'read_file', arguments: '{"path":"x"}' });
  });

  it('finds rewritten ids by position and reports them; a call after which nothing was sent is not observable', () => {
    const second = [
      assistant(['x1', 'x2'], 'read_file'),
      { role: 'tool', tool_call_id: 'x1', content: 'e' },
      { role: 'tool', tool_call_id: 'x2', content: 'f' },
    ];
    const run = projectForeignRun([served(0, []), served(1, second)], SCRIPT, undefined, null);
    expect(run.calls.map((c) => [c.sentId, c.answer])).toEqual([
      ['x1', 'e'],
      ['x2', 'f'],
    ]);
    const stopped = projectForeignRun([served(0, [])], SCRIPT, undefined, null);
    expect(stopped.ending).toBe('tool_calls');
    expect(stopped.calls.every((c) => !c.observable && c.answer === undefined)).toBe(true);
  });

  it('credits a call the harness dropped from the history with nothing, not with the next call under its own id', () => {
    const three: ScriptedTurn[] = [
      {
        tool_calls: [
          { id: 'call_ia1', name: 'read_file', arguments: '{"path": "a.txt"' },
          { id: 'call_ia2', name: 'read_file', arguments: '["a.txt"]' },
          { id: 'call_ia3', name: 'read_file', arguments: 3 },
        ],
      },
      { content: 'done' },
    ];
    const second = [
      assistant(['call_ia2', 'call_ia3'], 'read_file'),
      { role: 'tool', tool_call_id: 'call_ia2', content: 'Error: not an object' },
      { role: 'tool', tool_call_id: 'call_ia3', content: 'Error: not an object' },
    ];
    const run = projectForeignRun([served(0, []), served(1, second)], three, undefined, 'done');
    expect(run.calls.map((c) => [c.id, c.sentId, c.answer])).toEqual([
      ['call_ia1', undefined, undefined],
      ['call_ia2', 'call_ia2', 'Error: not an object'],
      ['call_ia3', 'call_ia3', 'Error: not an object'],
    ]);
  });

  it('classifies how the harness stopped: exhausted, after an error turn, no request', () => {
    expect(
      projectForeignRun(
        [served(0, []), served(1, []), served(null, [], 'exhausted')],
        SCRIPT,
        undefined,
        null,
      ),
    ).toMatchObject({
      ending: 'script_exhausted',
      exhaustedRequests: 1,
      modelCalls: 3,
      servedTurns: 2,
      scriptTurns: 2,
    });
    const errors: ScriptedTurn[] = [{ error: { status: 500 } }, { content: 'x' }];
    expect(projectForeignRun([served(0, [], 'error_turn')], errors, undefined, null).ending).toBe(
      'error_turn',
    );
    expect(projectForeignRun([], SCRIPT, undefined, null).ending).toBe('no_request');
    expect(projectForeignRun([], SCRIPT, undefined, null).scriptCallIds).toEqual(['a', 'b']);
  });
});

describe('unmapRequest and looksLikeError', () => {
  it('maps the tools list back to our names and leaves unlisted tools alone', () => {
    const request = unmapRequest(
      {
        model: 'm',
        messages: [],
        tools: [
          { type: 'function', function: { name: 'readFile', parameters: {} } },
          { type: 'function', function: { name: 'other', parameters: {} } },
        ],
      },
      { read_file: { name: 'readFile' } },
    );
    expect(request.tools!.map((t) => t.function.name)).toEqual(['read_file', 'other']);
  });

  it('reads error words and error-shaped JSON as an error, plain content as none', () => {
    for (const text of [
      'Error: x',
      'invalid JSON',
      'unknown tool foo',
      '{"error":"x"}',
      '{"ok":false}',
      'ENOENT: no such file',
    ])
      expect(looksLikeError(text), text).toBe(true);
    for (const text of ['Ship on Friday.', '{"ok":true,"content":"hi"}', '42'])
      expect(looksLikeError(text), text).toBe(false);
  });
});
