import { describe, expect, it } from 'vitest';
import { deterministicDeps } from '../deps.ts';
import type { RawToolCall } from '../model/types.ts';
import { assembleCalls, type AssembleOptions } from './assemble.ts';
import { FILE_TOOLS } from './builtin/files.ts';
import { ToolRegistry } from './registry.ts';
import type { ToolDefinition } from './types.ts';

const clockTool: ToolDefinition = {
  name: 'get_time',
  description: 'Now.',
  parameters: { type: 'object', properties: {} },
  effect: 'read',
  execute: async () => ({ ok: true, content: 'now' }),
};
const registry = new ToolRegistry([...Object.values(FILE_TOOLS), clockTool]);

function call(id: unknown, name: unknown, args: unknown): RawToolCall {
  return { ...(id !== undefined ? { id } : {}), type: 'function', function: { name, arguments: args } };
}

function options(overrides: Partial<AssembleOptions> = {}): AssembleOptions {
  return { registry, deps: deterministicDeps(), usedIds: new Set(), truncated: false, ...overrides };
}

describe('assembleCalls', () => {
  it('reads a custom tool call (whole or streamed) by its name, its free-form input as {"input": …}', () => {
    const whole: RawToolCall = { id: 'c1', type: 'custom', custom: { name: 'apply_patch', input: 'a "b"' } };
    const streamed: RawToolCall = {
      id: 'c2',
      type: 'custom',
      function: { name: 'apply_patch', arguments: 'x' },
    };
    const { calls } = assembleCalls([whole, streamed], options());
    expect(calls.map((c) => [c.name, c.wire.function.arguments])).toEqual([
      ['apply_patch', '{"input":"a \\"b\\""}'],
      ['apply_patch', '{"input":"x"}'],
    ]);
  });

  it('keeps ids, names and JSON-object arguments as sent', () => {
    const { calls, dropped } = assembleCalls([call('call_a', 'read_file', '{"path":"a.txt"}')], options());
    expect(dropped).toEqual([]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      callId: 'call_a',
      name: 'read_file',
      position: 0,
      truncated: false,
      normalisations: [],
    });
    expect(calls[0]!.originalId).toBeUndefined();
    expect(calls[0]!.wire).toEqual({
      id: 'call_a',
      type: 'function',
      function: { name: 'read_file', arguments: '{"path":"a.txt"}' },
    });
  });

  it('gives a call without an id (or with a blank or non-string id) a fresh one from deps.newId', () => {
    const opts = options();
    const { calls } = assembleCalls(
      [
        call(undefined, 'read_file', '{"path":"a"}'),
        call('  ', 'read_file', '{"path":"b"}'),
        call(7, 'read_file', '{"path":"c"}'),
      ],
      opts,
    );
    expect(calls.map((c) => c.callId)).toEqual(['call_0001', 'call_0002', 'call_0003']);
    expect(calls.every((c) => c.originalId === null && c.normalisations[0] === 'id_assigned')).toBe(true);
    expect([...opts.usedIds]).toEqual(['call_0001', 'call_0002', 'call_0003']);
  });

  it('skips generated ids the model already used', () => {
    const opts = options();
    const { calls } = assembleCalls(
      [call('call_0001', 'read_file', '{"path":"a"}'), call(undefined, 'read_file', '{"path":"b"}')],
      opts,
    );
    expect(calls.map((c) => c.callId)).toEqual(['call_0001', 'call_0002']);
  });

  it('drops a call with the same id, name and arguments as an earlier one of the turn (stream artifact)', () => {
    const { calls, dropped } = assembleCalls(
      [
        call('call_x', 'read_file', '{"path":"a.txt"}'),
        call('call_x', 'read_file', '{"path":"a.txt"}'),
        call('call_y', 'read_file', '{"path":"b.txt"}'),
      ],
      options(),
    );
    expect(dropped).toEqual(['call_x']);
    expect(calls.map((c) => [c.callId, c.position])).toEqual([
      ['call_x', 0],
      ['call_y', 1],
    ]);
    expect(calls[0]!.normalisations).toContain('duplicate_dropped');
  });

  it('gives the same id with different arguments a fresh <id>~2 (handed case B03)', () => {
    const { calls, dropped } = assembleCalls(
      [
        call('call_x', 'read_file', '{"path":"a.txt"}'),
        call('call_x', 'read_file', '{"path":"a.txt"}'),
        call('call_y', 'read_file', '{"path":"b.txt"}'),
        call('call_y', 'read_file', '{"path":"c.txt"}'),
      ],
      options(),
    );
    expect(dropped).toEqual(['call_x']);
    expect(calls.map((c) => [c.callId, c.wire.function.arguments])).toEqual([
      ['call_x', '{"path":"a.txt"}'],
      ['call_y', '{"path":"b.txt"}'],
      ['call_y~2', '{"path":"c.txt"}'],
    ]);
    expect(calls[2]).toMatchObject({ originalId: 'call_y', normalisations: ['id_rewritten'] });
  });

  it('drops a re-emitted call equal to any earlier call of that id, not only the first', () => {
    const { calls, dropped } = assembleCalls(
      [
        call('x', 'read_file', '{"path":"a"}'),
        call('x', 'read_file', '{"path":"b"}'),
        call('x', 'read_file', '{"path":"a"}'),
        call('x', 'read_file', '{"path":"b"}'),
      ],
      options(),
    );
    expect(calls.map((c) => [c.callId, c.wire.function.arguments])).toEqual([
      ['x', '{"path":"a"}'],
      ['x~2', '{"path":"b"}'],
    ]);
    expect(dropped).toEqual(['x', 'x']);
  });

  it('rewrites ids used in earlier turns, to the first free <id>~n', () => {
    const usedIds = new Set(['call_1', 'call_1~2']);
    const { calls } = assembleCalls(
      [call('call_1', 'read_file', '{"path":"a"}'), call('call_2', 'list_dir', '{"path":"."}')],
      options({ usedIds }),
    );
    expect(calls.map((c) => c.callId)).toEqual(['call_1~3', 'call_2']);
    expect(calls[0]!.originalId).toBe('call_1');
    expect(calls[0]!.wire.id).toBe('call_1~3');
    expect(usedIds.has('call_1~3') && usedIds.has('call_2')).toBe(true);
  });

  it('replays invalid arguments as "{}" and keeps the raw text for the error', () => {
    const raw = '{"path" "src/index.ts"}';
    const { calls } = assembleCalls(
      [call('a', 'read_file', raw), call('b', 'read_file', ['README.md']), call('c', 'read_file', '')],
      options(),
    );
    expect(calls.map((c) => c.wire.function.arguments)).toEqual(['{}', '{}', '{}']);
    expect(calls[0]!.rawArguments).toBe(raw);
    expect(calls[0]!.parsed).toMatchObject({ ok: false, errorType: 'invalid_json' });
    expect(calls[1]!.parsed).toMatchObject({ ok: false, errorType: 'invalid_arguments' });
    expect(calls[2]!.parsed).toMatchObject({
      ok: false,
      errorType: 'invalid_arguments',
      reason: 'arguments are an empty string',
    });
    expect(calls[0]!.normalisations).toContain('invalid_arguments_replaced_by_placeholder');
  });

  it('an empty string for a tool without required parameters is {} (normalisation recorded)', () => {
    const { calls } = assembleCalls([call('a', 'get_time', ''), call('b', 'no_such_tool', '')], options());
    expect(calls[0]!.wire.function.arguments).toBe('{}');
    expect(calls[0]!.parsed.ok).toBe(true);
    expect(calls[0]!.normalisations).toEqual(['empty_string_to_object']);
    expect(calls[1]!.parsed.ok).toBe(true);
  });

  it('replays object arguments as their JSON string, and double-encoded ones unwrapped', () => {
    const { calls } = assembleCalls(
      [call('o', 'read_file', { path: 'README.md' }), call('d', 'read_file', JSON.stringify('{"path":"x"}'))],
      options(),
    );
    expect(calls[0]!.wire.function.arguments).toBe('{"path":"README.md"}');
    expect(calls[0]!.normalisations).toEqual(['object_to_string']);
    expect(calls[1]!.wire.function.arguments).toBe('{"path":"x"}');
    expect(calls[1]!.normalisations).toEqual(['double_encoded_unwrapped']);
  });

  it('marks every call of a truncated turn', () => {
    const { calls } = assembleCalls(
      [call('a', 'read_file', '{"path":"a"}'), call('b', 'write_file', '{"path":"b","content":"par')],
      options({ truncated: true }),
    );
    expect(calls.map((c) => c.truncated)).toEqual([true, true]);
  });

  it('keys loop identity on name + canonical arguments, so key order does not matter', () => {
    const { calls } = assembleCalls(
      [
        call('a', 'read_file', '{"path":"x","limit":5}'),
        call('b', 'read_file', '{"limit":5,"path":"x"}'),
        call('c', 'read_file', '{"limit":6,"path":"x"}'),
        call('d', 'list_dir', '{"path":"x","limit":5}'),
      ],
      options(),
    );
    expect(calls[0]!.loopKey).toBe(calls[1]!.loopKey);
    expect(calls[0]!.loopKey).not.toBe(calls[2]!.loopKey);
    expect(calls[0]!.loopKey).not.toBe(calls[3]!.loopKey);
  });

  it('never throws on malformed call shapes and names', () => {
    const raw = [
      null,
      'text',
      42,
      {},
      { function: null },
      { id: 'q', function: { name: 5, arguments: 1 } },
      { id: 'r', function: { name: '' } },
    ] as unknown as RawToolCall[];
    const { calls } = assembleCalls(raw, options());
    expect(calls).toHaveLength(raw.length);
    expect(calls.map((c) => c.name)).toEqual(['', '', '', '', '', '', '']);
    expect(new Set(calls.map((c) => c.callId)).size).toBe(raw.length);
    for (const c of calls) expect(JSON.parse(c.wire.function.arguments)).toEqual(expect.any(Object));
  });
});
