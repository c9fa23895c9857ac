import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ModelError, type ChatMessage } from '../../harness/model/types.ts';
import { loadCassette } from '../cassette/load.ts';
import type { RecordedResponse } from '../cassette/types.ts';
import { ReplayModel, defaultReplayMode } from './replay-model.ts';
import { DIVERGENCE_CAP, VALUE_CAP } from './request-diff.ts';
import {
  REAL_DIR,
  cassetteOf,
  completion,
  exchange,
  realCassette,
  requestFromBody,
} from './fixtures.test-helpers.ts';

async function rejection(promise: Promise<unknown>): Promise<ModelError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ModelError);
    return error as ModelError;
  }
  throw new Error('expected a ModelError');
}

const user = (content: string): ChatMessage => ({ role: 'user', content });

describe('ReplayModel: recorded turns', () => {
  it('serves a real two-turn loop in order with no divergence when the requests match', async () => {
    const cassette = realCassette('openai-gpt5mini-tool-auto-loop');
    const model = new ReplayModel(cassette, 'strict');
    const first = await model.generate(requestFromBody(cassette.exchanges[0]!.request.body!));
    expect(first.toolCalls).toEqual([
      {
        id: 'call_aDdJTteHrpMdhdkEkyxjxEHH',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
      },
    ]);
    expect(first.finishReason).toBe('tool_calls');
    const second = await model.generate(requestFromBody(cassette.exchanges[1]!.request.body!));
    expect(second.content).toMatch(/^It's sunny in Paris/);
    expect(second.modelServed).toBe('gpt-5-mini-2025-08-07');
    expect(model.divergences).toEqual([]);
    expect(model.used).toBe(2);
    expect(model.unusedExchanges()).toEqual([]);
  });

  it('replays every committed recording without divergence when fed its own requests', async () => {
    for (const file of readdirSync(REAL_DIR).filter((f) => f.endsWith('.json'))) {
      const cassette = loadCassette(`${REAL_DIR}${file}`);
      const model = new ReplayModel(cassette, 'strict');
      for (const recorded of cassette.exchanges) {
        const request = recorded.request.body
          ? requestFromBody(recorded.request.body, 'gpt-5-nano')
          : { model: 'x', messages: [user('anything')] };
        // Recorded provider errors (a 404 for a removed model, an error body under 200) replay as
        // errors, or as the turn they stand for (a rejected generation's calls, a filtered prompt).
        const body = recorded.response.body as { error?: unknown; choices?: unknown } | undefined;
        const errorEvent = (recorded.response.events ?? []).some((e) => /^\{.*"error":\{/.test(e.data));
        if (recorded.response.status >= 400 || (body?.error && !Array.isArray(body.choices)) || errorEvent) {
          const served = await model.generate(request).then(
            (r) => (r.finishReason === 'content_filter' ? 1 : r.toolCalls.length),
            (error: unknown) => (error instanceof Error ? -1 : 0),
          );
          expect(served, file).not.toBe(0);
          continue;
        }
        const response = await model.generate(request);
        expect(response.finishReason, file).not.toBeNull();
      }
      expect(model.divergences, file).toEqual([]);
      await expect(model.generate({ model: 'x', messages: [] })).rejects.toMatchObject({
        code: 'recording_exhausted',
      });
    }
  });

  it('throws recording_exhausted when the harness asks for one more turn', async () => {
    const model = new ReplayModel(cassetteOf([exchange([user('hi')], completion({ content: 'hello' }))]));
    await model.generate({ model: 'm', messages: [user('hi')] });
    const error = await rejection(model.generate({ model: 'm', messages: [user('hi')] }));
    expect(error.code).toBe('recording_exhausted');
    expect(error.message).toMatch(/1 model exchange and all were used/);
  });

  it('rejects with aborted when the signal is aborted', async () => {
    const model = new ReplayModel(cassetteOf([exchange([user('hi')], completion({ content: 'hello' }))]));
    const error = await rejection(model.generate({ model: 'm', messages: [] }, AbortSignal.abort()));
    expect(error.code).toBe('aborted');
    expect(model.used).toBe(0);
  });

  it('lists unused exchanges', async () => {
    const model = new ReplayModel(
      cassetteOf([
        exchange([user('a')], completion({ content: '1' })),
        exchange([user('b')], completion({ content: '2' })),
      ]),
    );
    await model.generate({ model: 'm', messages: [user('a')] });
    expect(model.unusedExchanges().map((u) => u.index)).toEqual([1]);
  });

  it('defaults to sequential for imported cassettes and strict for our own', () => {
    expect(defaultReplayMode(cassetteOf([], true))).toBe('sequential');
    expect(defaultReplayMode(cassetteOf([], false))).toBe('strict');
  });
});

describe('ReplayModel: divergences', () => {
  const cassette = realCassette('openai-gpt5mini-tool-auto-loop');
  const changed = (): ReturnType<typeof requestFromBody> => {
    const request = requestFromBody(structuredClone(cassette.exchanges[1]!.request.body!));
    (request.messages[2] as { content: string }).content = 'Rainy, 9C in Paris';
    return request;
  };

  it('reports a changed message with its JSON path and still serves the turn (sequential)', async () => {
    const model = new ReplayModel(cassette, 'sequential');
    await model.generate(requestFromBody(cassette.exchanges[0]!.request.body!));
    const response = await model.generate(changed());
    expect(response.content).toMatch(/sunny/);
    expect(model.divergences).toEqual([
      {
        exchange: 1,
        path: '/messages/2/content',
        kind: 'changed',
        recorded: 'Sunny, 22C in Paris',
        replayed: 'Rainy, 9C in Paris',
      },
    ]);
  });

  it('rejects with recording_mismatch naming the first difference (strict)', async () => {
    const model = new ReplayModel(cassette, 'strict');
    await model.generate(requestFromBody(cassette.exchanges[0]!.request.body!));
    const error = await rejection(model.generate(changed()));
    expect(error.code).toBe('recording_mismatch');
    expect(error.message).toBe(
      'request 1 differs from the recording at /messages/2/content: recorded "Sunny, 22C in Paris", replayed "Rainy, 9C in Paris"',
    );
    expect(model.divergences).toHaveLength(1);
  });

  it('compares tool-call ids by position, ignores volatile fields, key order, null vs absent and argument whitespace', async () => {
    const recorded = [
      user('q'),
      {
        role: 'assistant',
        tool_calls: [
          { id: 'pyd_ai_1', type: 'function', function: { name: 'f', arguments: '{"b": 2, "a": 1}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'pyd_ai_1', content: 'r' },
    ];
    const model = new ReplayModel(
      cassetteOf([
        exchange(recorded, completion({ content: 'ok' }), {
          user: 'u1',
          stream_options: { include_usage: true },
          temperature: 0,
        }),
      ]),
      'strict',
    );
    await model.generate({
      model: 'm',
      messages: [
        user('q'),
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_0001', type: 'function', function: { name: 'f', arguments: '{"a":1,"b":2}' } },
          ],
        },
        { content: 'r', tool_call_id: 'call_0001', role: 'tool' } as ChatMessage,
      ],
      settings: { temperature: 0, metadata: { run: 'x' } },
    });
    expect(model.divergences).toEqual([]);
  });

  it('marks a tool result the harness decided itself as explained; a call the replay could not answer is not', async () => {
    const calls = [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }];
    const recorded = [
      user('q'),
      { role: 'assistant', tool_calls: calls },
      { role: 'tool', tool_call_id: 'a', content: '42' },
    ];
    const envelope = (type: string) =>
      JSON.stringify({ error: { type, retryable: false, message: `${type} by the harness` } });
    for (const [type, explained] of [
      ['approval_denied', true],
      ['invalid_arguments', true],
      ['not_executed', false],
    ] as const) {
      const model = new ReplayModel(
        cassetteOf([exchange(recorded, completion({ content: 'ok' }))]),
        'sequential',
        {
          servedResult: () => undefined,
        },
      );
      const replayed = structuredClone(recorded) as ChatMessage[];
      (replayed[2] as { content: string }).content = envelope(type);
      await model.generate({ model: 'm', messages: replayed });
      expect(
        model.divergences.map((d) => [d.path, Boolean(d.explained)]),
        type,
      ).toEqual([['/messages/2/content', explained]]);
    }
  });

  it('still sees a tool result answering the wrong call', async () => {
    const calls = [
      { id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } },
      { id: 'b', type: 'function', function: { name: 'f', arguments: '{}' } },
    ];
    const recorded = [
      user('q'),
      { role: 'assistant', tool_calls: calls },
      { role: 'tool', tool_call_id: 'a', content: '1' },
    ];
    const model = new ReplayModel(
      cassetteOf([exchange(recorded, completion({ content: 'ok' }))]),
      'sequential',
    );
    const replayed = structuredClone(recorded) as ChatMessage[];
    (replayed[2] as { tool_call_id: string }).tool_call_id = 'b';
    await model.generate({ model: 'm', messages: replayed });
    expect(model.divergences).toEqual([
      {
        exchange: 0,
        path: '/messages/2/tool_call_id',
        kind: 'changed',
        recorded: 'f#0',
        replayed: 'f#1',
      },
    ]);
  });

  it('reports missing and extra fields', async () => {
    const model = new ReplayModel(
      cassetteOf([exchange([user('q')], completion({ content: 'ok' }), { tool_choice: 'auto' })]),
      'sequential',
    );
    await model.generate({ model: 'm', messages: [user('q')], settings: { temperature: 0.2 } });
    expect(model.divergences).toEqual([
      { exchange: 0, path: '/temperature', kind: 'extra', replayed: 0.2 },
      { exchange: 0, path: '/tool_choice', kind: 'missing', recorded: 'auto' },
    ]);
  });

  it('does not count the model of an Azure deployment body (no model field) as a divergence', async () => {
    const cassette = realCassette('crewai-azure-gpt5nano-parallel-3-tools');
    const model = new ReplayModel(cassette, 'strict');
    await model.generate(requestFromBody(cassette.exchanges[0]!.request.body!, 'gpt-5-nano'));
    expect(model.divergences).toEqual([]);
  });

  it('caps values and the number of divergences per exchange', async () => {
    const long = 'x'.repeat(1000);
    const recorded = Array.from({ length: 30 }, (_, i) => user(`m${i}`));
    const model = new ReplayModel(
      cassetteOf([exchange(recorded, completion({ content: 'ok' }))]),
      'sequential',
    );
    await model.generate({ model: 'm', messages: Array.from({ length: 30 }, () => user(long)) });
    expect(model.divergences).toHaveLength(DIVERGENCE_CAP + 1);
    expect(model.divergences.at(-1)).toEqual({ exchange: 0, path: '', kind: 'omitted', omitted: 10 });
    const first = model.divergences[0]!;
    expect(first.path).toBe('/messages/0/content');
    expect(String(first.replayed)).toHaveLength(VALUE_CAP + '…(+800 chars)'.length);
  });

  it('compares nothing for a response-only cassette', async () => {
    const model = new ReplayModel(realCassette('vercel-groq-llama33-tool-call'), 'strict');
    const response = await model.generate({ model: 'anything', messages: [user('whatever')] });
    expect(response.toolCalls).toMatchObject([
      { id: 'tk85n1k4m', function: { name: 'weather', arguments: '{}' } },
    ]);
    expect(response.usage).toMatchObject({ prompt_tokens: 210, completion_tokens: 15 });
    expect(model.divergences).toEqual([]);
  });
});

describe('ReplayModel: recorded failures and odd streams', () => {
  it('turns a Groq tool_use_failed 400 into the malformed call, without an id', async () => {
    const cassette = realCassette('groq-gptoss120b-tool-use-failed');
    const model = new ReplayModel(cassette, 'sequential');
    const response = await model.generate(requestFromBody(cassette.exchanges[0]!.request.body!));
    expect(response).toEqual({
      content: null,
      toolCalls: [
        { type: 'function', function: { name: 'get_something_by_name', arguments: { foo: 'bar' } } },
      ],
      finishReason: 'tool_calls',
    });
  });

  it('reads an array of failed calls; a failed_generation that names no call is the text the model wrote', async () => {
    const failed = (generation: string): RecordedResponse => ({
      status: 400,
      headers: {},
      body: { error: { code: 'tool_use_failed', failed_generation: generation, message: 'bad' } },
    });
    const model = new ReplayModel(
      cassetteOf([
        exchange([user('q')], failed('[{"name":"a","arguments":"{}"},{"name":"b","parameters":{"x":1}}]')),
        exchange([user('q')], failed('I will call a')),
      ]),
      'sequential',
    );
    const response = await model.generate({ model: 'm', messages: [user('q')] });
    expect(response.toolCalls).toEqual([
      { type: 'function', function: { name: 'a', arguments: '{}' } },
      { type: 'function', function: { name: 'b', arguments: { x: 1 } } },
    ]);
    expect(await model.generate({ model: 'm', messages: [user('q')] })).toEqual({
      content: 'I will call a',
      toolCalls: [],
      finishReason: 'stop',
    });
  });

  it('raises recorded HTTP errors: 429 retryable with retry-after, 500 retryable, 401 not', async () => {
    const error = (status: number, headers: Record<string, string> = {}): RecordedResponse => ({
      status,
      headers,
      body: { error: { message: `e${status}` } },
    });
    const request = (q: string) => ({ model: 'm', messages: [user(q)] });
    const model = new ReplayModel(
      cassetteOf([
        exchange([user('a')], error(429, { 'retry-after': '2' })),
        exchange([user('b')], error(500)),
        exchange([user('c')], error(401)),
      ]),
      'sequential',
    );
    expect(await rejection(model.generate(request('a')))).toMatchObject({
      code: 'http_error',
      retryable: true,
      data: { status: 429, retryAfterMs: 2000 },
    });
    expect(await rejection(model.generate(request('b')))).toMatchObject({
      code: 'http_error',
      retryable: true,
      data: { status: 500 },
    });
    const unauthorised = await rejection(model.generate(request('c')));
    expect(unauthorised).toMatchObject({ code: 'http_error', retryable: false });
    expect(unauthorised.message).toMatch(/recorded HTTP 401 \(exchange 2\): e401/);
    expect(model.served).toBe(0);
  });

  it('retries a retryable failure when the client recorded the same request again, as the live client does', async () => {
    const model = new ReplayModel(
      cassetteOf([
        exchange([user('q')], { status: 429, headers: {}, body: { error: { message: 'slow down' } } }),
        exchange([user('q')], { status: 500, headers: {}, body: { error: { message: 'oops' } } }),
        exchange([user('q')], completion({ content: 'finally' })),
        exchange([user('other')], { status: 503, headers: {}, body: { error: { message: 'down' } } }),
        exchange([user('next')], completion({ content: 'never' })),
      ]),
      'sequential',
    );
    expect((await model.generate({ model: 'm', messages: [user('q')] })).content).toBe('finally');
    expect(model.used).toBe(3);
    expect(model.served).toBe(1);
    // A retryable failure whose retry was not recorded (a different request follows) is raised.
    expect(await rejection(model.generate({ model: 'm', messages: [user('other')] }))).toMatchObject({
      retryable: true,
      data: { status: 503 },
    });
    expect(model.used).toBe(4);
  });

  it('raises an error event that arrives after a 200 stream started', async () => {
    const events = [
      { data: '{"choices":[{"index":0,"delta":{"content":"par"}}]}' },
      { data: '{"error":{"message":"The server had an error","type":"server_error"}}' },
    ];
    const model = new ReplayModel(
      cassetteOf([exchange([user('q')], { status: 200, headers: {}, events })]),
      'sequential',
    );
    const error = await rejection(model.generate({ model: 'm', messages: [user('q')] }));
    expect(error).toMatchObject({ code: 'http_error', retryable: true, data: { status: 200 } });
    expect(error.message).toMatch(/error event in a 200 stream/);
  });

  it('reports an event that is not JSON as invalid_response', async () => {
    const model = new ReplayModel(
      cassetteOf([exchange([user('q')], { status: 200, headers: {}, events: [{ data: '{oops' }] })]),
      'sequential',
    );
    expect(await rejection(model.generate({ model: 'm', messages: [user('q')] }))).toMatchObject({
      code: 'invalid_response',
    });
  });

  it('assembles the sparse-index stream (index 1 only) into one call after the text', async () => {
    const model = new ReplayModel(realCassette('vercel-anthropic-compat-sparse-index'));
    const response = await model.generate({ model: 'm', messages: [user('read a.txt')] });
    expect(response).toEqual({
      content: 'Reading it.',
      toolCalls: [
        {
          id: 'toolu_sanitized',
          type: 'function',
          function: { name: 'read_file', arguments: '{"path": "a.txt"}' },
          index: 1,
        },
      ],
      finishReason: 'tool_calls',
      modelServed: 'claude-haiku-4-5-20251001',
    });
  });

  it('assembles streamed argument fragments, reasoning and usage from the real streams', async () => {
    const openai = await new ReplayModel(realCassette('openai-gpt4omini-stream-tool-loop')).generate({
      model: 'm',
      messages: [],
    });
    expect(openai.toolCalls).toMatchObject([
      {
        id: 'call_ZR5UUuTt3pf61kjwAJIYdVMj',
        function: { name: 'get_capital', arguments: '{"country":"UK"}' },
      },
    ]);
    expect(openai.usage).toMatchObject({ prompt_tokens: 53, completion_tokens: 15 });
    const crewai = await new ReplayModel(realCassette('crewai-gpt4o-stream-tool-call')).generate({
      model: 'm',
      messages: [],
    });
    expect(crewai.toolCalls[0]!.function!.arguments).toBe('{"location":"New York, NY"}');
    const deepseek = await new ReplayModel(realCassette('vercel-deepseek-reasoner-tool-call')).generate({
      model: 'm',
      messages: [],
    });
    expect(deepseek.reasoningContent!.length).toBeGreaterThan(50);
    expect(deepseek.toolCalls).toMatchObject([
      { function: { name: 'weather', arguments: '{"location": "San Francisco"}' } },
    ]);
    expect(deepseek.finishReason).toBe('tool_calls');
    const xai = await new ReplayModel(realCassette('vercel-xai-grok3mini-tool-call')).generate({
      model: 'm',
      messages: [],
    });
    expect(xai.toolCalls).toMatchObject([
      { id: 'call_79382389', function: { name: 'weather', arguments: '{"location":"San Francisco"}' } },
    ]);
    expect(xai.usage).toMatchObject({ prompt_tokens: 307 });
    expect(xai.content).toBeNull();
  });
});
