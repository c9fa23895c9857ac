/**
 * Transient model-API failures against a local 127.0.0.1 stub server: 429 with retry-after, 5xx
 * and connection resets are retried with backoff on the injected clock, each attempt is exactly
 * one HTTP exchange (the SDK's own retries are off), deterministic failures come back at once.
 */
import { describe, expect, it } from 'vitest';
import { chunk, completion, json, sse, useStub, type Responder } from '../testing/stub-server.ts';
import { OpenAIModel } from './openai-model.ts';
import { ModelError, type ModelRequest } from './types.ts';

const stub = useStub();
/** HTTP exchanges the stub has served in this test. */
const exchanges = () => stub().received.length;

/** Closes the connection without an answer (ECONNRESET / "socket hang up" on the client). */
const reset: Responder = (req) => void req.socket.destroy();
/** Starts a stream, sends one chunk, then drops the connection. */
const cutStream: Responder = (req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(`data: ${JSON.stringify(chunk({ content: 'Half a ' }))}\n\n`);
  setTimeout(() => req.socket.destroy(), 20);
};
/** A whole stream with `content` and a finish reason. */
const okStream = (content: string): Responder =>
  sse([chunk({ role: 'assistant', content }), chunk({}, 'stop')]);
const ok = (content: string) => json(200, completion({ content }));

function model(options: { maxAttempts?: number; backoffMs?: number; onSleep?: () => void } = {}) {
  const waits: number[] = [];
  const live = new OpenAIModel({
    baseURL: stub().baseURL,
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
    stub().queue.push(json(429, { error: { message: 'rate limited' } }, { 'retry-after': '7' }), ok('done'));
    const { live, waits } = model();
    expect((await live.generate(request)).content).toBe('done');
    expect(waits).toEqual([7000]);
    expect(exchanges()).toBe(2);
  });

  it('a retry-after longer than a minute is capped at 60 s', async () => {
    stub().queue.push(
      json(429, { error: { message: 'come back in an hour' } }, { 'retry-after': '3600' }),
      ok('done'),
    );
    const { live, waits } = model();
    await live.generate(request);
    expect(waits).toEqual([60_000]);
  });

  it('5xx: exponential backoff with the injected jitter, then success', async () => {
    stub().queue.push(
      json(500, { error: { message: 'oops' } }),
      json(503, { error: { message: 'busy' } }),
      ok('done'),
    );
    const { live, waits } = model({ backoffMs: 100 });
    expect((await live.generate(request)).content).toBe('done');
    expect(waits).toEqual([100, 200]);
    expect(exchanges()).toBe(3);
  });

  it('a connection reset is retried', async () => {
    stub().queue.push(reset, ok('after the reset'));
    const { live, waits } = model({ backoffMs: 100 });
    expect((await live.generate(request)).content).toBe('after the reset');
    expect(waits).toEqual([100]);
    expect(exchanges()).toBe(2);
  });

  it('a stream cut off mid-way is retried whole; the half turn is never returned', async () => {
    stub().queue.push(cutStream, okStream('whole answer'));
    const { live } = model({ backoffMs: 100 });
    const turn = await live.generate({ ...request, stream: true });
    expect(turn.content).toBe('whole answer');
    expect(exchanges()).toBe(2);
  });

  it('resets on every attempt: gives up after maxAttempts exchanges with a retryable network_error', async () => {
    stub().queue.push(reset, reset, reset, ok('too late'));
    const { live, waits } = model({ maxAttempts: 3, backoffMs: 100 });
    const error = await live.generate(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ code: 'network_error', retryable: true });
    expect(exchanges()).toBe(3);
    expect(waits).toEqual([100, 200]);
  });

  it('with one attempt a 503 is exactly one exchange: the SDK does not retry on its own', async () => {
    stub().queue.push(json(503, { error: { message: 'busy' } }), ok('unused'));
    const { live, waits } = model({ maxAttempts: 1 });
    await expect(live.generate(request)).rejects.toMatchObject({ code: 'http_error', data: { status: 503 } });
    expect(exchanges()).toBe(1);
    expect(waits).toEqual([]);
  });

  it.each([400, 401, 403, 404, 422])(
    'a deterministic failure (%i) is returned at once, without waiting',
    async (status) => {
      stub().queue.push(json(status, { error: { message: `status ${status}` } }), ok('unused'));
      const { live, waits } = model();
      await expect(live.generate(request)).rejects.toMatchObject({
        code: 'http_error',
        retryable: false,
        data: { status },
      });
      expect(exchanges()).toBe(1);
      expect(waits).toEqual([]);
    },
  );

  it('a cancel during the backoff ends the call as aborted without another exchange', async () => {
    const controller = new AbortController();
    stub().queue.push(json(503, { error: { message: 'busy' } }), ok('unused'));
    const { live } = model({ onSleep: () => controller.abort() });
    await expect(live.generate(request, controller.signal)).rejects.toMatchObject({ code: 'aborted' });
    expect(exchanges()).toBe(1);
  });
});
