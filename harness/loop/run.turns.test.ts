import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deterministicDeps } from '../deps.ts';
import type { HarnessEvent } from '../events.ts';
import { FILE_TOOLS } from '../tools/builtin/files.ts';
import { TEXT_TOOL_CALL_NOTE, WRAP_UP_NOTE } from './notes.ts';
import {
  executedIds,
  expectRunConsistent,
  recordingTool,
  runScript,
  tempWorkspace,
  toolResult,
} from '../testing.ts';

let space: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  space = tempWorkspace();
  writeFileSync(path.join(space.ws, 'README.md'), '# readme\n');
});
afterEach(() => space.dispose());

const search = () =>
  recordingTool('search', (args) => `results for ${String(args.query)}`, {
    parameters: { type: 'object', required: ['query'], properties: { query: { type: 'string' } } },
  });

describe('runHarness: wrap-up turn', () => {
  it('on a spent budget, sends one request without tools; its calls are recorded as not_executed (case C04)', async () => {
    const tool = search();
    const call = (id: string, q: string) => ({ id, name: 'search', arguments: JSON.stringify({ query: q }) });
    const result = await runScript(
      space.ws,
      [
        { tool_calls: [call('call_k1', 'q1')] },
        { tool_calls: [call('call_k2', 'q2')] },
        { tool_calls: [call('call_k3', 'q3')] },
        { content: 'Partial answer: A and B; C unverified.', tool_calls: [call('call_k4', 'q4')] },
      ],
      {
        tools: [tool],
        config: {
          limits: { maxTurns: 3, wrapUpTurn: true },
          model: { settings: { tool_choice: 'auto', temperature: 0 } },
        },
      },
    );
    expect(result.stopReason).toBe('max_turns');
    expect(result.usage).toMatchObject({ modelCalls: 4, turns: 3 });
    expect(tool.calls.map((a) => a.query)).toEqual(['q1', 'q2', 'q3']);
    const wrap = result.requests[3]!;
    expect(wrap.tools).toBeUndefined();
    expect(wrap.tool_choice).toBeUndefined();
    expect(wrap.settings).toEqual({ temperature: 0 });
    expect(result.requests[2]!.tools?.map((t) => t.function.name)).toEqual(['search']);
    expect(result.requests[2]!.tool_choice).toBe('auto');
    expect(wrap.messages.at(-1)).toEqual({ role: 'user', content: WRAP_UP_NOTE });
    expect(toolResult(result, 'call_k4').error).toMatchObject({
      type: 'not_executed',
      message: expect.stringContaining('not executed'),
    });
    expect(result.finalAnswer).toBe('Partial answer: A and B; C unverified.');
    expect(result.ledger.turns.map((t) => t.wrapUp)).toEqual([false, false, false, true]);
    expect(result.events.filter((e) => e.type === 'budget_exhausted')).toHaveLength(1);
    expectRunConsistent(result);
  });

  it('is not spent on stops that are not budgets', async () => {
    const result = await runScript(space.ws, [{ error: { status: 500 } }, { content: 'never asked' }], {
      config: { limits: { wrapUpTurn: true } },
    });
    expect(result.stopReason).toBe('model_error');
    expect(result.usage.modelCalls).toBe(1);
  });

  it('without wrapUpTurn, a spent budget ends the run with no extra request', async () => {
    const result = await runScript(
      space.ws,
      [
        { tool_calls: [{ id: 'a', name: 'read_file', arguments: '{"path":"README.md"}' }] },
        { content: 'never asked' },
      ],
      {
        config: { limits: { maxTurns: 1 } },
      },
    );
    expect(result.usage.modelCalls).toBe(1);
    expect(result.finalAnswer).toBeNull();
  });
});

describe('runHarness: tool calls written as text', () => {
  const textCall = '{"name": "read_file", "arguments": {"path": "README.md"}}';

  it('gets exactly one corrective note, is never executed, and a repeat ends the run (case B02)', async () => {
    const result = await runScript(space.ws, [
      { content: textCall },
      { content: `<tool_call>${textCall}</tool_call>` },
      { content: 'never asked' },
    ]);
    expect(result.stopReason).toBe('final_answer');
    expect(result.usage.modelCalls).toBe(2);
    expect(result.ledger.calls).toEqual([]);
    expect(
      result.messages.filter((m) => m.role === 'user' && m.content === TEXT_TOOL_CALL_NOTE),
    ).toHaveLength(1);
    expect(result.requests[1]!.messages.at(-1)).toEqual({ role: 'user', content: TEXT_TOOL_CALL_NOTE });
    expect(result.ledger.turns.map((t) => t.textToolCall)).toEqual(['read_file', 'read_file']);
    expect(result.finalAnswer).toBe(`<tool_call>${textCall}</tool_call>`);
    expectRunConsistent(result);
  });

  it('after the note, a real call runs and the run ends with the answer', async () => {
    const result = await runScript(space.ws, [
      { content: textCall },
      { tool_calls: [{ id: 'call_c1', name: 'read_file', arguments: '{"path":"README.md"}' }] },
      { content: 'The title is readme.' },
    ]);
    expect(result.stopReason).toBe('final_answer');
    expect(result.usage.modelCalls).toBe(3);
    expect(executedIds(result)).toEqual(['call_c1']);
  });

  it('with textToolCalls "ignore", the text is the answer', async () => {
    const result = await runScript(space.ws, [{ content: textCall }], {
      config: { textToolCalls: 'ignore' },
    });
    expect(result.stopReason).toBe('final_answer');
    expect(result.usage.modelCalls).toBe(1);
  });
});

describe('runHarness: one turn, several calls', () => {
  it('a second write to the same resolved path in one turn is a write_conflict, whatever the spelling', async () => {
    const write = (id: string, p: string, content: string) => ({
      id,
      name: 'write_file',
      arguments: JSON.stringify({ path: p, content }),
    });
    const result = await runScript(
      space.ws,
      [
        {
          tool_calls: [
            write('w1', 'out.txt', 'first'),
            write('w2', './sub/../out.txt', 'second'),
            write('w3', 'other.txt', 'x'),
          ],
        },
        { content: 'done' },
      ],
      {
        config: { permissions: { mode: 'auto' } },
      },
    );
    expect(toolResult(result, 'w2').error).toMatchObject({ type: 'write_conflict', retryable: false });
    expect(toolResult(result, 'w2').error!.message).toContain('out.txt');
    expect(executedIds(result)).toEqual(['w1', 'w3']);
    expect(readFileSync(path.join(space.ws, 'out.txt'), 'utf8')).toBe('first');
    expectRunConsistent(result);
  });

  it('writes to the same path in different turns are fine', async () => {
    const write = (id: string, content: string) => ({
      tool_calls: [{ id, name: 'write_file', arguments: JSON.stringify({ path: 'out.txt', content }) }],
    });
    const result = await runScript(space.ws, [write('w1', 'a'), write('w2', 'b'), { content: 'done' }], {
      config: { permissions: { mode: 'auto' } },
    });
    expect(executedIds(result)).toEqual(['w1', 'w2']);
    expect(readFileSync(path.join(space.ws, 'out.txt'), 'utf8')).toBe('b');
  });

  it('caps long outputs at toolOutputMaxChars with a marked elision', async () => {
    writeFileSync(
      path.join(space.ws, 'big.txt'),
      Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n'),
    );
    const result = await runScript(
      space.ws,
      [
        { tool_calls: [{ id: 'r', name: 'read_file', arguments: '{"path":"big.txt"}' }] },
        { content: 'done' },
      ],
      {
        config: { context: { toolOutputMaxChars: 300 } },
      },
    );
    const text = toolResult(result, 'r').content;
    expect(text).toMatch(/characters elided of \d+/);
    expect(text.startsWith('  1\tline 0\n')).toBe(true);
    expect(text.endsWith('500\tline 499')).toBe(true);
    expect(text.length).toBeLessThan(300 + 120);
  });

  it('answers bad calls with the right errors and still runs valid siblings (cases A01, A02, A05, B01, B03)', async () => {
    const clock = recordingTool('get_time', () => '2025-01-01T10:00:00Z', {
      parameters: { type: 'object', properties: {} },
    });
    const tool = search();
    const result = await runScript(
      space.ws,
      [
        {
          tool_calls: [
            { id: 'call_a1', name: 'read_file', arguments: '{"path" "README.md"}' },
            { id: 'call_e1', name: 'get_time', arguments: '' },
            { id: 'call_e2', name: 'read_file', arguments: '' },
            { id: 'call_o1', name: 'read_file', arguments: { path: 'README.md' } },
            { id: 'call_o2', name: 'read_file', arguments: ['README.md'] },
            { id: 'call_n1', name: 'multi_tool_use.parallel', arguments: '{"tool_uses":[]}' },
            { id: 'call_n2', name: 'serach', arguments: '{"query":"retry policy"}' },
            { id: 'call_x', name: 'search', arguments: '{"query":"x"}' },
            { id: 'call_x', name: 'search', arguments: '{"query":"x"}' },
            { id: 'call_x', name: 'search', arguments: '{"query":"y"}' },
          ],
        },
        { content: 'done' },
      ],
      { tools: [clock, tool, ...Object.values(FILE_TOOLS)] },
    );
    expect(result.stopReason).toBe('final_answer');
    expect(executedIds(result)).toEqual(['call_e1', 'call_o1', 'call_x', 'call_x~2']);
    expect(tool.calls).toEqual([{ query: 'x' }, { query: 'y' }]);
    expect(toolResult(result, 'call_a1').error).toMatchObject({ type: 'invalid_json', retryable: true });
    expect(toolResult(result, 'call_a1').error!.message).toMatch(
      /not valid JSON.*character offset 8.*received: .*the read_file parameter schema is/,
    );
    expect(toolResult(result, 'call_e2').error!.message).toContain("required property 'path' is missing");
    expect(toolResult(result, 'call_o2').error).toMatchObject({
      type: 'invalid_arguments',
      message: expect.stringContaining('must be a JSON object; got array'),
    });
    expect(toolResult(result, 'call_o2').error!.message).not.toContain('is missing');
    expect(toolResult(result, 'call_n1').error!.message).toContain(
      'no tool named multi_tool_use.parallel; available: get_time, search, read_file',
    );
    expect(toolResult(result, 'call_n2').error!.message).toContain('did you mean search?');
    const replayed = result.requests[1]!.messages.find((m) => m.role === 'assistant')!;
    expect(
      replayed.role === 'assistant' && replayed.tool_calls!.map((c) => [c.id, c.function.arguments]),
    ).toEqual([
      ['call_a1', '{}'],
      ['call_e1', '{}'],
      ['call_e2', '{}'],
      ['call_o1', '{"path":"README.md"}'],
      ['call_o2', '{}'],
      ['call_n1', '{"tool_uses":[]}'],
      ['call_n2', '{"query":"retry policy"}'],
      ['call_x', '{"query":"x"}'],
      ['call_x~2', '{"query":"y"}'],
    ]);
    const verdicts = Object.fromEntries(result.ledger.calls.map((c) => [c.callId, c.verdict]));
    expect(verdicts).toMatchObject({ call_a1: 'none', call_e1: 'allow', call_n1: 'none', call_o1: 'allow' });
    expect(result.ledger.calls.find((c) => c.callId === 'call_o1')!.normalisations).toEqual([
      'object_to_string',
    ]);
    expectRunConsistent(result);
  });
});

describe('runHarness: pathological arguments', () => {
  it('arguments nested deeper than the call stack are results, not a crashed run', async () => {
    const deepValid = `{"path":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    const deepInvalid = '['.repeat(20_000);
    const result = await runScript(space.ws, [
      {
        tool_calls: [
          { id: 'v', name: 'read_file', arguments: deepValid },
          { id: 'i', name: 'read_file', arguments: deepInvalid },
        ],
      },
      { content: 'done' },
    ]);
    expect(result.stopReason).toBe('final_answer');
    expect(toolResult(result, 'v').error).toMatchObject({
      type: 'invalid_arguments',
      message: expect.stringContaining('path: expected string, got array'),
    });
    expect(toolResult(result, 'i').error).toMatchObject({ type: 'invalid_json' });
    expectRunConsistent(result);
  });
});

describe('runHarness: events and ledger', () => {
  it('every event has increasing seq, the run is bracketed by run_start/run_end, and each call has its event sequence', async () => {
    const seen: HarnessEvent[] = [];
    const deps = deterministicDeps();
    deps.onEvent = (event) => seen.push(event);
    const result = await runScript(
      space.ws,
      [
        {
          tool_calls: [
            { id: 'r', name: 'read_file', arguments: '{"path":"README.md"}' },
            { id: 'w', name: 'write_file', arguments: '{"path":"a.txt","content":"x"}' },
          ],
        },
        { content: 'ok' },
      ],
      {
        deps,
        config: { permissions: { mode: 'headless' } },
      },
    );
    expect(seen).toEqual(result.events);
    // The read runs concurrently with the next call's checks; the end events follow in call order.
    expect(result.events.map((e) => e.type)).toEqual([
      'run_start',
      'turn_start',
      'model_call_end',
      'tool_call_start',
      'policy_decision',
      'tool_call_start',
      'policy_decision',
      'approval_decision',
      'tool_call_end',
      'tool_call_end',
      'turn_start',
      'model_call_end',
      'run_end',
    ]);
    expect(result.ledger.calls.map((c) => [c.callId, c.verdict, c.executed, c.errorType ?? null])).toEqual([
      ['r', 'allow', true, null],
      ['w', 'ask:denied', false, 'approval_denied'],
    ]);
    expect(result.ledger.calls[1]!.approvedBy).toBe('headless');
    expect(result.runId).toBe('run_0001');
    expectRunConsistent(result);
  });
});
