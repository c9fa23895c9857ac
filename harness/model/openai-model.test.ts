import { describe, expect, it } from 'vitest';
import { chunk, completion, json, sse, usageChunk, useStub } from '../testing/stub-server.ts';
import { liveModelSettings, OpenAIModel, wireBody } from './openai-model.ts';
import { ModelError, type ModelRequest } from './types.ts';

const stub = useStub();

function model(options: { maxAttempts?: number; backoffMs?: number } = {}) {
  const waits: number[] = [];
  const live = new OpenAIModel({
    baseURL: stub().baseURL,
    apiKey: 'sk-test-key',
    deps: { sleep: async (ms) => void waits.push(ms), random: () => 0.5 },
    ...options,
  });
  return { live, waits };
}
const request: ModelRequest = {
  model: 'gpt-test',
  messages: [{ role: 'user', content: 'read a.txt' }],
  tools: [
    {
      type: 'function',
      function: {
        name: 'read_file',
        parameters: { type: 'object', properties: { path: { type: 'string' } } },
      },
    },
  ],
  settings: { temperature: 0 },
};

describe('OpenAIModel.generate', () => {
  it('returns a whole (non-streamed) response as one turn, sending the wire body with the key', async () => {
    stub().queue.push(
      json(
        200,
        completion(
          {
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'read_file', arguments: '{"path":"a.txt"}' },
              },
            ],
          },
          'tool_calls',
        ),
      ),
    );
    const { live } = model();
    const turn = await live.generate(request);
    expect(turn).toEqual({
      content: null,
      toolCalls: [
        { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
      ],
      finishReason: 'tool_calls',
      usage: { prompt_tokens: 40, completion_tokens: 8, total_tokens: 48 },
      modelServed: 'stub-model-2025',
    });
    expect(stub().received).toHaveLength(1);
    expect(stub().received[0]!.path).toBe('/v1/chat/completions');
    expect(stub().received[0]!.authorization).toBe('Bearer sk-test-key');
    expect(stub().received[0]!.body).toEqual({
      model: 'gpt-test',
      messages: request.messages,
      tools: request.tools,
      temperature: 0,
      stream: false,
    });
  });

  it('assembles a streamed (SSE) response by index, ids only on the first delta', async () => {
    stub().queue.push(
      sse([
        chunk({ role: 'assistant', content: 'Reading' }),
        chunk({ content: ' now.' }),
        chunk({
          tool_calls: [
            { index: 0, id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":' } }] }),
        chunk({
          tool_calls: [
            {
              index: 1,
              id: 'call_b',
              type: 'function',
              function: { name: 'list_dir', arguments: '{"path"' },
            },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"a.txt"}' } }] }),
        chunk({ tool_calls: [{ index: 1, function: { arguments: ':"."}' } }] }),
        chunk({}, 'tool_calls'),
        usageChunk(20, 9),
      ]),
    );
    const { live } = model();
    const turn = await live.generate({ ...request, stream: true });
    expect(stub().received[0]!.body.stream).toBe(true);
    expect(turn.content).toBe('Reading now.');
    expect(turn.finishReason).toBe('tool_calls');
    expect(turn.usage).toEqual({ prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 });
    expect(turn.toolCalls.map((c) => [c.id, c.function?.name, c.function?.arguments])).toEqual([
      ['call_a', 'read_file', '{"path":"a.txt"}'],
      ['call_b', 'list_dir', '{"path":"."}'],
    ]);
  });

  it('retries a 429, waiting retry-after seconds on the injected sleep', async () => {
    stub().queue.push(
      json(429, { error: { message: 'slow down', type: 'rate_limit' } }, { 'retry-after': '2' }),
      json(200, completion({ content: 'ok' })),
    );
    const { live, waits } = model();
    const turn = await live.generate(request);
    expect(turn.content).toBe('ok');
    expect(stub().received).toHaveLength(2);
    expect(waits).toEqual([2000]);
  });

  it('backs off exponentially (with injected jitter) on 5xx and gives up after maxAttempts with a retryable http_error', async () => {
    stub().queue.push(
      json(503, { error: { message: 'busy' } }),
      json(502, { error: { message: 'bad gateway' } }),
      json(500, { error: { message: 'oops' } }),
      json(200, completion({ content: 'unused' })),
    );
    const { live, waits } = model({ maxAttempts: 3, backoffMs: 100 });
    const error = await live.generate(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ code: 'http_error', retryable: true, data: { status: 500 } });
    expect(stub().received).toHaveLength(3);
    expect(waits).toEqual([100, 200]);
  });

  it('does not retry a 400: ModelError http_error with status and body', async () => {
    stub().queue.push(
      json(400, { error: { message: 'messages: invalid tool_call_id', type: 'invalid_request_error' } }),
      json(200, completion({ content: 'unused' })),
    );
    const { live, waits } = model();
    const error = await live.generate(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ code: 'http_error', retryable: false, data: { status: 400 } });
    expect((error as ModelError).message).toContain('HTTP 400');
    expect((error as ModelError).message).toContain('invalid tool_call_id');
    expect(stub().received).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('an aborted signal rejects with aborted and is not retried', async () => {
    stub().queue.push(json(200, completion({ content: 'ok' })));
    const controller = new AbortController();
    controller.abort();
    const { live, waits } = model();
    await expect(live.generate(request, controller.signal)).rejects.toMatchObject({ code: 'aborted' });
    expect(waits).toEqual([]);
  });
});

describe('wireBody', () => {
  it('leaves out an empty tools list and undefined settings; settings win over named fields', () => {
    expect(
      wireBody({ model: 'm', messages: [], tools: [], settings: { max_tokens: 5, seed: undefined } }),
    ).toEqual({ model: 'm', messages: [], max_tokens: 5 });
    expect(
      wireBody({
        model: 'm',
        messages: [],
        tool_choice: 'auto',
        stream: true,
        settings: { tool_choice: 'none' },
      }),
    ).toEqual({ model: 'm', messages: [], tool_choice: 'none', stream: true });
  });
});

describe('liveModelSettings', () => {
  it('prefers HARNESS_API_KEY over OPENAI_API_KEY, and falls back to it', () => {
    expect(liveModelSettings({}, { HARNESS_API_KEY: 'h', OPENAI_API_KEY: 'o' }).apiKey).toBe('h');
    expect(liveModelSettings({}, { OPENAI_API_KEY: 'o' }).apiKey).toBe('o');
    expect(liveModelSettings({}, {}).apiKey).toBeUndefined();
  });

  it('flags win over the environment', () => {
    const env = { HARNESS_API_KEY: 'h', HARNESS_BASE_URL: 'http://env/v1', HARNESS_MODEL: 'env-model' };
    expect(liveModelSettings({ apiKey: 'f', baseUrl: 'http://flag/v1', model: 'flag-model' }, env)).toEqual({
      apiKey: 'f',
      baseURL: 'http://flag/v1',
      model: 'flag-model',
    });
    expect(liveModelSettings({}, env)).toEqual({ apiKey: 'h', baseURL: 'http://env/v1', model: 'env-model' });
  });
});
