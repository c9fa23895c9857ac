/**
 * A rejected generation is the same turn whichever transport carries it: Groq's 400
 * `tool_use_failed` body and the same error as an `error` event after a 200 stream that already
 * sent reasoning (payloads trimmed from pydantic/pydantic-ai `tests/models/cassettes/test_groq/
 * test_tool_use_failed_error{,_streaming,_streaming_with_text}.yaml`, MIT, commit 4fda38988f29),
 * through the live client against a stub server on 127.0.0.1, and in the scripted model.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIModel } from './openai-model.ts';
import { callsFromFailedGeneration, providerErrorTurn } from './provider-errors.ts';
import { ScriptedModel } from './scripted-model.ts';
import type { ModelRequest } from './types.ts';

const FAILED = {
  message:
    "Tool call validation failed: tool call validation failed: parameters for tool get_something_by_name did not match schema: errors: [missing properties: 'name', additionalProperties 'invalid_param' not allowed]",
  type: 'invalid_request_error',
  code: 'tool_use_failed',
  failed_generation: '{"name": "get_something_by_name", "arguments": {\n  "invalid_param": "value"\n}}',
};
const chunk = (delta: Record<string, unknown>) => ({
  id: 'chatcmpl-4f39f3af-3267-4ac1-a0cf-6aa7451877dc',
  object: 'chat.completion.chunk',
  created: 1771434740,
  model: 'openai/gpt-oss-120b',
  choices: [{ index: 0, delta, logprobs: null, finish_reason: null }],
});
const STREAM_BEFORE_ERROR = [
  chunk({ role: 'assistant', content: '' }),
  chunk({ reasoning: 'We', channel: 'analysis' }),
  chunk({ reasoning: ' need', channel: 'analysis' }),
  chunk({ reasoning: '.', channel: 'analysis' }),
];
const EXPECTED_CALLS = [
  { type: 'function', function: { name: 'get_something_by_name', arguments: { invalid_param: 'value' } } },
];

type Responder = (req: IncomingMessage, res: ServerResponse) => void;
let server: Server;
let baseURL: string;
const queue: Responder[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => (queue.shift() ?? json(500, { error: { message: 'nothing queued' } }))(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openai/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  queue.length = 0;
});
const json =
  (status: number, body: unknown): Responder =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
const sse =
  (events: unknown[]): Responder =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const event of events) res.write(`data: ${JSON.stringify(event)}\n\n`);
    res.end();
  };
const live = () =>
  new OpenAIModel({
    baseURL,
    apiKey: 'gsk-test',
    maxAttempts: 1,
    deps: { sleep: async () => {}, random: () => 0 },
  });
const request = (stream: boolean): ModelRequest => ({
  model: 'openai/gpt-oss-120b',
  messages: [{ role: 'user', content: 'call get_something_by_name with wrong args' }],
  stream,
});

describe('a rejected generation (tool_use_failed) in any transport', () => {
  it('a 400 body becomes the rejected call, with no id so the harness assigns one', async () => {
    queue.push(json(400, { error: FAILED }));
    const turn = await live().generate(request(false));
    expect(turn).toEqual({ content: null, toolCalls: EXPECTED_CALLS, finishReason: 'tool_calls' });
  });

  it('an error event after a 200 stream becomes the same call, keeping the reasoning streamed before it', async () => {
    queue.push(sse([...STREAM_BEFORE_ERROR, { error: { ...FAILED, status_code: 400 } }]));
    const turn = await live().generate(request(true));
    expect(turn).toEqual({
      content: null,
      toolCalls: EXPECTED_CALLS,
      finishReason: 'tool_calls',
      reasoningContent: 'We need.',
      reasoningField: 'reasoning',
    });
  });

  it('a generation that names no call (text where a tool was required) is the streamed text', async () => {
    queue.push(
      sse([
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'maybe' }),
        {
          error: {
            message: 'Tool choice is required, but model did not call a tool',
            type: 'invalid_request_error',
            code: 'tool_use_failed',
            failed_generation: '',
            status_code: 400,
          },
        },
      ]),
    );
    const turn = await live().generate(request(true));
    expect(turn).toMatchObject({ content: 'maybe', toolCalls: [], finishReason: 'stop' });
  });

  it('any other stream error event still fails the call', async () => {
    queue.push(sse([...STREAM_BEFORE_ERROR, { error: { message: 'boom', type: 'server_error' } }]));
    await expect(live().generate(request(true))).rejects.toMatchObject({ code: 'http_error' });
  });

  it("an error chunk that also carries choices (OpenRouter's mid-stream error) fails the call like any error event", async () => {
    queue.push(
      sse([
        chunk({ role: 'assistant', content: '', reasoning: 'We need' }),
        {
          ...chunk({ content: '' }),
          error: { code: 400, message: 'Token limit reached' },
          choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
        },
      ]),
    );
    await expect(live().generate(request(true))).rejects.toMatchObject({ code: 'http_error' });
  });

  it('an error body under HTTP 200 is the same turn or error as under its own status (Azure, gateways)', async () => {
    queue.push(
      json(200, { error: { code: 'content_filter', message: 'filtered', param: 'prompt', status: 400 } }),
    );
    expect(await live().generate(request(false))).toEqual({
      content: null,
      toolCalls: [],
      finishReason: 'content_filter',
    });
    queue.push(json(200, { error: { message: 'upstream failed', type: 'server_error' } }));
    await expect(live().generate(request(false))).rejects.toMatchObject({
      code: 'http_error',
      retryable: true,
      message: 'error body in a 200 response: upstream failed',
    });
  });

  it('the scripted model gives the same turn for a scripted 400', async () => {
    const scripted = new ScriptedModel([{ error: { status: 400, body: { error: FAILED } } }]);
    const turn = await scripted.generate(request(false));
    expect(turn).toEqual({ content: null, toolCalls: EXPECTED_CALLS, finishReason: 'tool_calls' });
  });
});

describe('providerErrorTurn', () => {
  it("Azure's filtered prompt (400 content_filter) is a content_filter turn", () => {
    const body = {
      error: {
        message:
          "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.",
        type: null,
        param: 'prompt',
        code: 'content_filter',
        status: 400,
      },
    };
    expect(providerErrorTurn(body)).toEqual({ content: null, toolCalls: [], finishReason: 'content_filter' });
  });

  it('accepts the error object itself (the SDK hands over `error.error`) and rejects other errors', () => {
    expect(providerErrorTurn(FAILED)?.toolCalls).toEqual(EXPECTED_CALLS);
    expect(providerErrorTurn({ error: { code: 'rate_limit_exceeded' } })).toBeUndefined();
    expect(providerErrorTurn('text')).toBeUndefined();
    expect(providerErrorTurn({ error: { code: 'tool_use_failed', failed_generation: '' } })).toBeUndefined();
  });

  it('reads a list of calls and `parameters`, and refuses anything else', () => {
    expect(callsFromFailedGeneration('[{"name":"a","parameters":{"x":1}},{"name":"b"}]')).toEqual([
      { type: 'function', function: { name: 'a', arguments: { x: 1 } } },
      { type: 'function', function: { name: 'b' } },
    ]);
    expect(callsFromFailedGeneration('<function=a>{}</function>')).toBeNull();
    expect(callsFromFailedGeneration('[]')).toBeNull();
    expect(callsFromFailedGeneration('{"name":""}')).toBeNull();
  });
});
