import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  chunk,
  completion,
  gate,
  json,
  sse,
  textChunks,
  toolCallChunks,
  useStub,
} from '../../harness/testing/stub-server.ts';
import { validateCassette } from '../cassette/load.ts';
import { RecordRefusedError } from '../record/session-recorder.ts';
import { NothingRecordedError, type PassthroughServer, startPassthroughServer } from './passthrough.ts';

const KEY = 'sk-test-upstream-0123456789abcdefghij';
const stub = useStub();
let proxy: PassthroughServer | undefined;

afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

async function start(extra: Partial<Parameters<typeof startPassthroughServer>[0]> = {}) {
  proxy = await startPassthroughServer({ upstream: stub().baseURL, apiKey: KEY, env: {}, ...extra });
  return proxy;
}

function client(p: PassthroughServer) {
  return new OpenAI({ baseURL: p.baseURL, apiKey: 'dummy-key-of-the-harness', maxRetries: 0 });
}

const ask = { model: 'gpt-test', messages: [{ role: 'user' as const, content: 'Say hi' }] };

describe('pass-through relay', () => {
  it('relays a whole completion byte for byte, with the upstream key in place of the client one', async () => {
    const p = await start({ wallClock: () => Date.parse('2026-12-07T06:00:00Z') });
    const body = { ...completion({ content: 'hi there' }), created: 1_000_000 };
    stub().queue.push(json(200, body, { 'x-request-id': 'req_1' }), json(200, body));
    const raw = await fetch(`${p.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer dummy' },
      body: JSON.stringify(ask),
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('x-request-id')).toBe('req_1');
    expect(await raw.text()).toBe(JSON.stringify(body));
    const answer = await client(p).chat.completions.create(ask);
    expect(answer).toEqual(body);
    expect(stub().received.map((r) => r.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
    expect(stub().received.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
    expect(stub().received[1]!.body).toEqual(ask);
    const cassette = p.cassette({ id: 'whole' });
    expect(cassette.meta.imported).toEqual({ format: 'passthrough', file: 'whole.json' });
    // The recording's own time, not the upstream's `created` (1970 here).
    expect(cassette.meta.recordedAt).toBe('2026-12-07T06:00:00.000Z');
    expect(cassette.meta).toMatchObject({ task: 'Say hi', modelRequested: 'gpt-test', host: '127.0.0.1' });
    expect(cassette.exchanges).toHaveLength(2);
    expect(cassette.exchanges[0]!.response).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(validateCassette(cassette, 'whole.json')).toEqual([]);
  });

  it('relays a stream chunk by chunk as it arrives, and records its events', async () => {
    const p = await start();
    const chunks = textChunks('one two three');
    const firstSeen = gate();
    stub().queue.push(sse(chunks, { before: (i) => (i === 1 ? firstSeen.wait() : Promise.resolve()) }));
    const stream = await client(p).chat.completions.create({ ...ask, stream: true });
    const got: unknown[] = [];
    for await (const part of stream) {
      got.push(part);
      // The upstream holds event 1 until the client has event 0: a buffering relay never gets here.
      if (got.length === 1) firstSeen.open();
    }
    expect(got).toEqual(chunks);
    const [exchange] = p.cassette({ id: 'stream' }).exchanges;
    expect(exchange!.response.headers['content-type']).toBe('text/event-stream');
    expect(exchange!.response.events!.map((e) => e.data)).toEqual([
      ...chunks.map((c) => JSON.stringify(c)),
      '[DONE]',
    ]);
  });

  it('relays the raw stream bytes unchanged (comments and event fields included)', async () => {
    const p = await start();
    const text = `: OPENROUTER PROCESSING\n\nevent: message\ndata: ${JSON.stringify(chunk({ content: 'x' }, 'stop'))}\n\ndata: [DONE]\n\n`;
    stub().queue.push((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(text);
    });
    const raw = await fetch(`${p.baseURL}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ ...ask, stream: true }),
    });
    expect(await raw.text()).toBe(text);
    expect(p.cassette({ id: 's' }).exchanges[0]!.response.events!.map((e) => e.data)).toEqual([
      JSON.stringify(chunk({ content: 'x' }, 'stop')),
      '[DONE]',
    ]);
  });

  it('passes error statuses through unchanged and records them as exchanges', async () => {
    const p = await start();
    const error = { error: { message: 'Rate limit reached for org-abcdefgh1234', type: 'rate_limit' } };
    stub().queue.push(json(429, error, { 'retry-after': '7' }));
    const failure = await client(p)
      .chat.completions.create(ask)
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    expect((failure as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after')).toBe('7');
    const [exchange] = p.cassette({ id: 'err' }).exchanges;
    expect(exchange!.response.status).toBe(429);
    expect(exchange!.response.headers['retry-after']).toBe('7');
    // The organisation id shape is redacted, as the recorder does.
    expect(JSON.stringify(exchange!.response.body)).toContain('for REDACTED');
    expect(JSON.stringify(exchange!.response.body)).not.toContain('org-abcdefgh1234');
  });

  it('passes GET /models through and lists it as non-model traffic', async () => {
    const p = await start();
    const models = { object: 'list', data: [{ id: 'gpt-test', object: 'model' }] };
    stub().queue.push(json(200, models), json(200, completion({ content: 'ok' })));
    expect(
      await client(p)
        .models.list()
        .then((page) => page.data),
    ).toEqual(models.data);
    await client(p).chat.completions.create(ask);
    expect(stub().received[0]!.path).toBe('/v1/models');
    const cassette = p.cassette({ id: 'm' });
    expect(cassette.exchanges).toHaveLength(1);
    expect(cassette.nonModel).toEqual([
      {
        index: 0,
        method: 'GET',
        url: `${new URL(stub().baseURL).origin}/v1/models`,
        status: 200,
        note: 'model listing',
      },
    ]);
  });

  it('answers 502 when the upstream cannot be reached, and records nothing for it', async () => {
    const p = await start({ upstream: 'http://127.0.0.1:1/v1' });
    const raw = await fetch(`${p.baseURL}/chat/completions`, { method: 'POST', body: JSON.stringify(ask) });
    expect(raw.status).toBe(502);
    expect(((await raw.json()) as { error: { message: string } }).error.message).toMatch(
      /could not be reached/,
    );
    expect(p.notes).toHaveLength(1);
    expect(() => p.cassette({ id: 'none' })).toThrow(NothingRecordedError);
  });

  it('refuses to make a cassette when no chat completion went through', async () => {
    const p = await start();
    stub().queue.push(json(200, { object: 'list', data: [] }));
    await client(p).models.list();
    expect(() => p.cassette({ id: 'x' })).toThrow(
      /none of the 1 request was a chat completion.*model listing/,
    );
  });
});

describe('pass-through secrets', () => {
  it('never writes the key, even when the upstream echoes it or the client sent its own', async () => {
    const p = await start({ apiKey: 'upstream-key-not-shaped-like-one-123' });
    stub().queue.push((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-api-key': 'echo' });
      res.end(JSON.stringify(completion({ content: `you sent ${req.headers.authorization}` })));
    });
    await client(p).chat.completions.create(ask);
    const cassette = p.cassette({ id: 'k' });
    const text = JSON.stringify(cassette);
    expect(text).not.toContain('upstream-key-not-shaped-like-one-123');
    expect(text).toContain('you sent Bearer REDACTED');
    expect(cassette.exchanges[0]!.response.headers['x-api-key']).toBe('REDACTED');
  });

  it('forwards the client credentials when no key is given, and redacts them', async () => {
    const p = await start({ apiKey: undefined });
    stub().queue.push((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(completion({ content: `key ${req.headers.authorization}` })));
    });
    await client(p).chat.completions.create(ask);
    expect(stub().received[0]!.authorization).toBe('Bearer dummy-key-of-the-harness');
    expect(JSON.stringify(p.cassette({ id: 'c' }))).not.toContain('dummy-key-of-the-harness');
  });

  it('redacts the values of secret-named environment variables', async () => {
    const p = await start({ env: { MY_SERVICE_TOKEN: 'tok-very-private-value' } });
    stub().queue.push(json(200, completion({ content: 'the token is tok-very-private-value' })));
    await client(p).chat.completions.create(ask);
    expect(JSON.stringify(p.cassette({ id: 'e' }))).not.toContain('tok-very-private-value');
  });

  it('refuses a cassette that still holds a key shape after redaction', async () => {
    const p = await start();
    const leaked = 'sk-proj-LEAKEDleakedLEAKEDleaked0123456789';
    stub().queue.push(json(200, completion({ content: `here is a key: ${leaked}` })));
    await client(p).chat.completions.create(ask);
    let error: unknown;
    try {
      p.cassette({ id: 'leak' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RecordRefusedError);
    expect((error as RecordRefusedError).findings[0]).toMatchObject({
      path: '/exchanges/0/response/body/choices/0/message/content',
      kind: 'api-key',
    });
    expect((error as Error).message).not.toContain(leaked);
  });
});

describe('pass-through cut-offs', () => {
  it('keeps the events of a stream the client abandoned, and says it was cut off', async () => {
    const p = await start();
    const chunks = textChunks('one two three');
    const never = gate();
    const done = gate();
    stub().queue.push(
      sse(chunks, {
        before: async (i) => {
          if (i === 2) {
            done.open();
            await never.wait();
          }
        },
      }),
    );
    const controller = new AbortController();
    const stream = await client(p).chat.completions.create(
      { ...ask, stream: true },
      { signal: controller.signal },
    );
    const got: unknown[] = [];
    await (async () => {
      for await (const part of stream) {
        got.push(part);
        if (got.length === 2) {
          await done.wait();
          controller.abort();
        }
      }
    })().catch(() => {});
    for (let i = 0; i < 100 && p.incomplete()[0]?.end !== 'error'; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(p.incomplete()).toEqual([{ index: 0, end: 'error' }]);
    expect(p.exchanges[0]!.response.events!.map((e) => e.data)).toEqual(
      chunks.slice(0, 2).map((c) => JSON.stringify(c)),
    );
    never.open();
  });
});

describe('pass-through limits', () => {
  it('forwards at most `concurrency` requests at once', async () => {
    const p = await start({ concurrency: 1 });
    const release = gate();
    stub().queue.push(
      async (_req, res) => {
        await release.wait();
        json(200, completion({ content: 'first' }))(_req, res, {});
      },
      json(200, completion({ content: 'second' })),
    );
    const first = client(p).chat.completions.create(ask);
    const second = client(p).chat.completions.create(ask);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(stub().received).toHaveLength(1);
    release.open();
    const answers = await Promise.all([first, second]);
    expect(answers.map((a) => a.choices[0]!.message.content)).toEqual(['first', 'second']);
  });

  it('records a tool-call stream and the follow-up request of the harness', async () => {
    const p = await start();
    stub().queue.push(
      sse(toolCallChunks('call_1', 'read_file', '{"path":"a.txt"}')),
      json(200, completion({ content: 'done' })),
    );
    const c = client(p);
    const stream = await c.chat.completions.create({ ...ask, stream: true });
    for await (const _ of stream) {
      // drain
    }
    await c.chat.completions.create({
      ...ask,
      messages: [
        ...ask.messages,
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'read_file', arguments: '{"path":"a.txt"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'hello' },
      ],
    });
    const cassette = p.cassette({ id: 't', title: 'tools' });
    expect(cassette.meta.title).toBe('tools');
    expect(cassette.exchanges.map((e) => Boolean(e.response.events))).toEqual([true, false]);
  });
});
