import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { liveModelSettings, OpenAIModel, wireBody } from './openai-model.ts';
import { ModelError, type ModelRequest } from './types.ts';

type Responder = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let baseURL: string;
const queue: Responder[] = [];
const received: { path: string; auth: string | undefined; body: Record<string, unknown> }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        auth: req.headers.authorization,
        body: JSON.parse(text || '{}') as Record<string, unknown>,
      });
      const next = queue.shift();
      if (next) next(req, res);
      else json(500, { error: { message: 'no stub response queued' } })(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  queue.length = 0;
  received.length = 0;
});

function json(status: number, body: unknown, headers: Record<string, string> = {}): Responder {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}
function sse(chunks: unknown[]): Responder {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const chunk of chunks) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    res.end('data: [DONE]\n\n');
  };
}
const completion = (message: Record<string, unknown>, finish = 'stop') => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-test-2025',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
  usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
});
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-test-2025',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

function model(options: { maxAttempts?: number; backoffMs?: number } = {}) {
  const waits: number[] = [];
  const live = new OpenAIModel({
    baseURL,
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
    queue.push(
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
      usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
      modelServed: 'gpt-test-2025',
    });
    expect(received).toHaveLength(1);
    expect(received[0]!.path).toBe('/v1/chat/completions');
    expect(received[0]!.auth).toBe('Bearer sk-test-key');
    expect(received[0]!.body).toEqual({
      model: 'gpt-test',
      messages: request.messages,
      tools: request.tools,
      temperature: 0,
      stream: false,
    });
  });

  it('assembles a streamed (SSE) response by index, ids only on the first delta', async () => {
    queue.push(
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
        {
          id: 'c',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'gpt-test-2025',
          choices: [],
          usage: { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 },
        },
      ]),
    );
    const { live } = model();
    const turn = await live.generate({ ...request, stream: true });
    expect(received[0]!.body.stream).toBe(true);
    expect(turn.content).toBe('Reading now.');
    expect(turn.finishReason).toBe('tool_calls');
    expect(turn.usage).toEqual({ prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 });
    expect(turn.toolCalls.map((c) => [c.id, c.function?.name, c.function?.arguments])).toEqual([
      ['call_a', 'read_file', '{"path":"a.txt"}'],
      ['call_b', 'list_dir', '{"path":"."}'],
    ]);
  });

  it('retries a 429, waiting retry-after seconds on the injected sleep', async () => {
    queue.push(
      json(429, { error: { message: 'slow down', type: 'rate_limit' } }, { 'retry-after': '2' }),
      json(200, completion({ content: 'ok' })),
    );
    const { live, waits } = model();
    const turn = await live.generate(request);
    expect(turn.content).toBe('ok');
    expect(received).toHaveLength(2);
    expect(waits).toEqual([2000]);
  });

  it('backs off exponentially (with injected jitter) on 5xx and gives up after maxAttempts with a retryable http_error', async () => {
    queue.push(
      json(503, { error: { message: 'busy' } }),
      json(502, { error: { message: 'bad gateway' } }),
      json(500, { error: { message: 'oops' } }),
      json(200, completion({ content: 'unused' })),
    );
    const { live, waits } = model({ maxAttempts: 3, backoffMs: 100 });
    const error = await live.generate(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ code: 'http_error', retryable: true, data: { status: 500 } });
    expect(received).toHaveLength(3);
    expect(waits).toEqual([100, 200]);
  });

  it('does not retry a 400: ModelError http_error with status and body', async () => {
    queue.push(
      json(400, { error: { message: 'messages: invalid tool_call_id', type: 'invalid_request_error' } }),
      json(200, completion({ content: 'unused' })),
    );
    const { live, waits } = model();
    const error = await live.generate(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ code: 'http_error', retryable: false, data: { status: 400 } });
    expect((error as ModelError).message).toContain('HTTP 400');
    expect((error as ModelError).message).toContain('invalid tool_call_id');
    expect(received).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('an aborted signal rejects with aborted and is not retried', async () => {
    queue.push(json(200, completion({ content: 'ok' })));
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
