import { describe, expect, it } from 'vitest';
import { ScriptedModel, chunksForTurn, expandScript, splitPieces } from './scripted-model.ts';
import { ModelError, type ModelRequest } from './types.ts';

const request: ModelRequest = { model: 'm', messages: [{ role: 'user', content: 'go' }] };

describe('ScriptedModel.generate', () => {
  it('plays turns in order, sending arguments exactly as given and missing ids missing', async () => {
    const model = new ScriptedModel([
      {
        tool_calls: [
          { id: 'a', name: 'read_file', arguments: '{"path" "x"}' },
          { name: 'read_file', arguments: { path: 'y' } },
          { id: 'c', name: 'read_file', arguments: ['y'] },
        ],
      },
      { content: 'done', usage: { prompt_tokens: 10, completion_tokens: 2 } },
    ]);
    const first = await model.generate(request);
    expect(first.finishReason).toBe('tool_calls');
    expect(first.content).toBeNull();
    expect(first.toolCalls).toEqual([
      { id: 'a', type: 'function', function: { name: 'read_file', arguments: '{"path" "x"}' } },
      { type: 'function', function: { name: 'read_file', arguments: { path: 'y' } } },
      { id: 'c', type: 'function', function: { name: 'read_file', arguments: ['y'] } },
    ]);
    expect('id' in first.toolCalls[1]!).toBe(false);
    const second = await model.generate(request);
    expect(second).toEqual({
      content: 'done',
      toolCalls: [],
      finishReason: 'stop',
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    });
    expect(model.calls).toHaveLength(2);
    expect(model.lastCall).toEqual(request);
    model.assertComplete();
  });

  it('keeps every request as received, never a copy (serving a turn does not grow with the history)', async () => {
    const model = new ScriptedModel([{ content: 'a' }, { content: 'b' }]);
    const long: ModelRequest = {
      model: 'm',
      messages: Array.from({ length: 500 }, (_, i) => ({ role: 'user' as const, content: `message ${i}` })),
    };
    await model.generate(request);
    await model.generate(long);
    expect(model.calls[0]).toBe(request);
    expect(model.lastCall).toBe(long);
  });

  it('returns copies, so a harness that mutates a turn cannot change the script', async () => {
    const model = new ScriptedModel([
      { tool_calls: [{ id: 'a', name: 't', arguments: { k: 1 } }], repeat: 2 },
    ]);
    const first = await model.generate(request);
    (first.toolCalls[0]!.function!.arguments as { k: number }).k = 99;
    const second = await model.generate(request);
    expect(second.toolCalls[0]!.function!.arguments).toEqual({ k: 1 });
  });

  it('expands repeat: N into N turns with ids <id>_2, <id>_3 …', async () => {
    const model = new ScriptedModel([
      {
        tool_calls: [
          { id: 'r', name: 't', arguments: '{}' },
          { name: 'u', arguments: '{}' },
        ],
        repeat: 3,
      },
      { content: 'end' },
    ]);
    expect(model.length).toBe(4);
    const ids = [];
    for (let i = 0; i < 3; i += 1)
      ids.push((await model.generate(request)).toolCalls.map((c) => c.id ?? null));
    expect(ids).toEqual([
      ['r', null],
      ['r_2', null],
      ['r_3', null],
    ]);
    expect(expandScript([{ content: 'x', repeat: 2 }])).toEqual([{ content: 'x' }, { content: 'x' }]);
  });

  it('rejects with ModelError http_error for an error entry, retryable for 429 and 5xx only', async () => {
    const model = new ScriptedModel([
      { error: { status: 429, body: { error: { message: 'slow down' } } } },
      { error: { status: 503 } },
      { error: { status: 400, body: { error: { code: 'tool_use_failed', message: 'bad call' } } } },
    ]);
    const errors: ModelError[] = [];
    for (let i = 0; i < 3; i += 1)
      errors.push(
        await model.generate(request).then(
          () => {
            throw new Error('resolved');
          },
          (e: ModelError) => e,
        ),
      );
    expect(errors.map((e) => [e.code, e.data.status, e.retryable, e.message])).toEqual([
      ['http_error', 429, true, 'HTTP 429: slow down'],
      ['http_error', 503, true, 'HTTP 503'],
      ['http_error', 400, false, 'HTTP 400: bad call'],
    ]);
    expect(errors[2]!.data.body).toEqual({ error: { code: 'tool_use_failed', message: 'bad call' } });
    expect(errors[0]).toBeInstanceOf(ModelError);
  });

  it('rejects with script_exhausted naming the script length when the harness asks for one turn too many', async () => {
    const model = new ScriptedModel([{ content: 'a' }, { content: 'b' }]);
    await model.generate(request);
    expect(() => model.assertComplete()).toThrow('the scenario script has 2 turns; 1 were used');
    await model.generate(request);
    const error = await model.generate(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({
      code: 'script_exhausted',
      message: 'the scenario script has 2 turns and the harness asked for turn 3',
    });
    expect(model.calls).toHaveLength(3);
  });

  it('rejects with aborted when the signal is already aborted, without using a turn', async () => {
    const model = new ScriptedModel([{ content: 'a' }]);
    const controller = new AbortController();
    controller.abort();
    await expect(model.generate(request, controller.signal)).rejects.toMatchObject({ code: 'aborted' });
    expect(model.remaining).toBe(1);
  });

  it('keeps finish_reason as scripted, including length and the empty string', async () => {
    const model = new ScriptedModel([
      { tool_calls: [{ id: 'a', name: 't', arguments: '{"x": "tru' }], finish_reason: 'length' },
      { content: 'x', finish_reason: '' },
    ]);
    expect((await model.generate(request)).finishReason).toBe('length');
    expect((await model.generate(request)).finishReason).toBe('');
  });
});

describe('ScriptedModel streaming', () => {
  it('serves stream: true as chunk deltas and assembles the same turn', async () => {
    const turn = {
      content: 'Reading both files now.',
      reasoning_content: 'need a and b',
      tool_calls: [
        { id: 'call_1', name: 'read_file', arguments: '{"path": "a.txt"}' },
        { id: 'call_2', name: 'read_file', arguments: "{'path': 'b.txt'}" },
        { name: 'list_dir', arguments: '' },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 7 },
    };
    const streamed = new ScriptedModel([{ ...turn, stream: true }]);
    const plain = new ScriptedModel([turn]);
    const a = await streamed.generate(request);
    const b = await plain.generate(request);
    expect(a.content).toBe(b.content);
    expect(a.reasoningContent).toBe('need a and b');
    expect(a.finishReason).toBe('tool_calls');
    expect(a.usage).toEqual(b.usage);
    expect(a.toolCalls.map((c) => [c.id ?? null, c.function?.name, c.function?.arguments])).toEqual([
      ['call_1', 'read_file', '{"path": "a.txt"}'],
      ['call_2', 'read_file', "{'path': 'b.txt'}"],
      [null, 'list_dir', ''],
    ]);
    // Arguments really were split over several deltas, and ids came only on the first delta of each call.
    const deltas = streamed.lastChunks.flatMap((chunk) =>
      (chunk as { choices: { delta: { tool_calls?: { index: number; id?: string }[] } }[] }).choices.flatMap(
        (c) => c.delta.tool_calls ?? [],
      ),
    );
    expect(deltas.filter((d) => d.index === 0).length).toBeGreaterThan(2);
    expect(deltas.filter((d) => d.id !== undefined).map((d) => d.id)).toEqual(['call_1', 'call_2']);
  });

  it('streams non-string arguments whole (the assembler keeps them as JSON text)', async () => {
    const model = new ScriptedModel([
      { stream: true, tool_calls: [{ id: 'o', name: 't', arguments: { path: 'README.md' } }] },
    ]);
    const turn = await model.generate(request);
    expect(turn.toolCalls[0]!.function!.arguments).toBe('{"path":"README.md"}');
  });

  it('chunksForTurn ends with the finish reason and a usage chunk', () => {
    const chunks = chunksForTurn({ content: 'hi', usage: { prompt_tokens: 1, completion_tokens: 1 } }, 1) as {
      choices: { finish_reason: string | null }[];
      usage?: unknown;
    }[];
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.at(-1)!.usage).toEqual({ prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 });
  });

  it('splitPieces never splits a surrogate pair and keeps the text', () => {
    expect(splitPieces('a😀b😀c').join('')).toBe('a😀b😀c');
    expect(splitPieces('a😀b😀c').every((p) => !/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(p))).toBe(true);
    expect(splitPieces('')).toEqual(['']);
  });
});
