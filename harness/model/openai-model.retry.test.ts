/**
 * Transient model-API failures against a local 127.0.0.1 stub server: 429 with retry-after, 5xx
 * and connection resets are retried with backoff on the injected clock, each attempt is exactly
 * one HTTP exchange (the SDK's own retries are off), deterministic failures come back at once.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIModel } from './openai-model.ts';
import { ModelError, type ModelRequest } from './types.ts';

type Responder = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let baseURL: string;
const queue: Responder[] = [];
let exchanges = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      exchanges += 1;
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
  exchanges = 0;
});

function json(status: number, body: unknown, headers: Record<string, string> = {}): Responder {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}
/** Closes the connection without an answer (ECONNRESET / "socket hang up" on the client). */
const reset: Responder = (req) => req.socket.destroy();
/** Starts a stream, sends one chunk, then drops the connection. */
const cutStream: Responder = (req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'Half a ' }, finish_reason: null }] })}\n\n`,
  );
  setTimeout(() => req.socket.destroy(), 20);
};
/** A whole stream with `content` and a finish reason. */
const okStream =
  (content: string): Responder =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content }, finish_reason: null }] })}\n\n`,
    );
    res.write(
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
    );
    res.end('data: [DONE]\n\n');
  };
const ok = (content: string) =>
  json(200, {
    id: 'x',
    object: 'chat.completion',
    created: 1,
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  });

function model(options: { maxAttempts?: number; backoffMs?: number; onSleep?: () => void } = {}) {
  const waits: number[] = [];
  const live = new OpenAIModel({
    baseURL,
    apiKey: 'sk-test',
    deps: {
      sleep: async (ms) => {
        waits.push(ms);
        options.onSleep?.();
      },
      random: () => 0.5,
    },
    ...(options.maxAttempts ? { maxAttempts: options.maxAttempts } : {}),
    ...(options.backoffMs ? { backoffMs: options.backoffMs } : {}),
  });
  return { live, waits };
}
const request: ModelRequest = { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] };

describe('OpenAIModel: transient failures are retried on the injected clock', () => {
  it('429 with retry-after: waits that many seconds, one exchange per attempt', async () => {
    queue.push(json(429, { error: { message: 'rate limited' } }, { 'retry-after': '7' }), ok('done'));
    const { live, waits } = model();
    expect((await live.generate(request)).content).toBe('done');
    expect(waits).toEqual([7000]);
    expect(exchanges).toBe(2);
  });

  it('a retry-after longer than a minute is capped at 60 s', async () => {
    queue.push(
      json(429, { error: { message: 'come back in an hour' } }, { 'retry-after': '3600' }),
      ok('done'),
    );
    const { live, waits } = model();
    await live.generate(request);
    expect(waits).toEqual([60_000]);
  });

  it('5xx: exponential backoff with the injected jitter, then success', async () => {
    queue.push(
      json(500, { error: { message: 'oops' } }),
      json(503, { error: { message: 'busy' } }),
      ok('done'),
    );
    const { live, waits } = model({ backoffMs: 100 });
    expect((await live.generate(request)).content).toBe('done');
    expect(waits).toEqual([100, 200]);
    expect(exchanges).toBe(3);
  });

  it('a connection reset is retried', async () => {
    queue.push(reset, ok('after the reset'));
    const { live, waits } = model({ backoffMs: 100 });
    expect((await live.generate(request)).content).toBe('after the reset');
    expect(waits).toEqual([100]);
    expect(exchanges).toBe(2);
  });

  it('a stream cut off mid-way is retried whole; the half turn is never returned', async () => {
    queue.push(cutStream, okStream('whole answer'));
    const { live } = model({ backoffMs: 100 });
    const turn = await live.generate({ ...request, stream: true });
    expect(turn.content).toBe('whole answer');
    expect(exchanges).toBe(2);
  });

  it('resets on every attempt: gives up after maxAttempts exchanges with a retryable network_error', async () => {
    queue.push(reset, reset, reset, ok('too late'));
    const { live, waits } = model({ maxAttempts: 3, backoffMs: 100 });
    const error = await live.generate(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ code: 'network_error', retryable: true });
    expect(exchanges).toBe(3);
    expect(waits).toEqual([100, 200]);
  });

  it('with one attempt a 503 is exactly one exchange: the SDK does not retry on its own', async () => {
    queue.push(json(503, { error: { message: 'busy' } }), ok('unused'));
    const { live, waits } = model({ maxAttempts: 1 });
    await expect(live.generate(request)).rejects.toMatchObject({ code: 'http_error', data: { status: 503 } });
    expect(exchanges).toBe(1);
    expect(waits).toEqual([]);
  });

  it.each([400, 401, 403, 404, 422])(
    'a deterministic failure (%i) is returned at once, without waiting',
    async (status) => {
      queue.push(json(status, { error: { message: `status ${status}` } }), ok('unused'));
      const { live, waits } = model();
      await expect(live.generate(request)).rejects.toMatchObject({
        code: 'http_error',
        retryable: false,
        data: { status },
      });
      expect(exchanges).toBe(1);
      expect(waits).toEqual([]);
    },
  );

  it('a cancel during the backoff ends the call as aborted without another exchange', async () => {
    const controller = new AbortController();
    queue.push(json(503, { error: { message: 'busy' } }), ok('unused'));
    const { live } = model({ onSleep: () => controller.abort() });
    await expect(live.generate(request, controller.signal)).rejects.toMatchObject({ code: 'aborted' });
    expect(exchanges).toBe(1);
  });
});
