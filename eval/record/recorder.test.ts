import { beforeEach, describe, expect, it } from 'vitest';
import { OpenAIModel } from '../../harness/model/openai-model.ts';
import type { ModelRequest } from '../../harness/model/types.ts';
import { CassetteRecorder } from './recorder.ts';
import { redactHeaders, redactValues, secretValuesFromEnv, REDACTED } from './redact.ts';
import { SseCapture } from './sse-capture.ts';
import {
  chunk,
  completion,
  gate,
  json,
  sse,
  useStub,
  textChunks,
  type StubServer,
} from '../../harness/testing/stub-server.ts';

const getStub = useStub();
let stub: StubServer;
beforeEach(() => {
  stub = getStub();
});

const request: ModelRequest = {
  model: 'stub-model',
  messages: [{ role: 'user', content: 'hello' }],
  stream: true,
};
const noWait = { sleep: async () => {}, random: () => 0.5 };
const encode = (text: string) => new TextEncoder().encode(text);

/** Waits for `promise` or gives up after `ms` (a safety valve so a buffering recorder fails instead of hanging). */
async function within(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const result = await Promise.race([promise.then(() => true), timeout]);
  clearTimeout(timer);
  return result;
}

/**
 * A fetch between the recorder and the SDK that opens `gates[k]` when the SDK has been handed
 * the k-th SSE event (gate 0: the headers).
 */
function observing(inner: typeof fetch, gates: ReturnType<typeof gate>[]): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    gates[0]?.open();
    let seen = 0;
    const reader = response.body!.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        seen += (new TextDecoder().decode(value).match(/^data:/gm) ?? []).length;
        for (let k = 1; k <= seen; k++) gates[k]?.open();
        controller.enqueue(value);
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

describe('SseCapture', () => {
  it('cuts events on blank lines across chunk boundaries, joins data lines, drops comments and other fields', () => {
    let now = 100;
    const capture = new SseCapture(() => now, 100);
    capture.push(encode(': keep-alive\n\nevent: message\nid: 1\ndata: {"a"'));
    now = 110;
    capture.push(encode(':1}\r\n\r\ndata: line one\ndata: line two\n'));
    now = 125;
    capture.push(encode('\ndata: [DONE]'));
    expect(capture.finish()).toEqual([
      { data: '{"a":1}', delayMs: 10 },
      { data: 'line one\nline two', delayMs: 15 },
      { data: '[DONE]', delayMs: 0 },
    ]);
  });

  it('a multi-byte character split over two chunks stays whole', () => {
    const capture = new SseCapture(() => 0, 0);
    const bytes = encode('data: café\n\n');
    capture.push(bytes.subarray(0, 9));
    capture.push(bytes.subarray(9));
    expect(capture.finish()).toEqual([{ data: 'café', delayMs: 0 }]);
  });
});

describe('redaction', () => {
  it('headers: allowlisted ones kept, identity ones REDACTED, everything else dropped', () => {
    const headers = new Headers({
      'content-type': 'application/json',
      'retry-after': '2',
      'x-ratelimit-remaining-requests': '9',
      'openai-organization': 'org-abcdefgh12345678',
      'openai-project': 'proj_abcdefgh12345678',
      'set-cookie': '__cf_bm=abc; path=/',
      'x-request-id': 'req_123',
      'x-echo-key': 'sk-test-secret-value-1234567890',
    });
    expect(redactHeaders(headers)).toEqual({
      'content-type': 'application/json',
      'retry-after': '2',
      'x-ratelimit-remaining-requests': '9',
      'openai-organization': REDACTED,
      'openai-project': REDACTED,
      'set-cookie': REDACTED,
    });
  });

  it('values: secrets and organisation ids replaced in every string, keys kept', () => {
    const secrets = secretValuesFromEnv({
      OPENAI_API_KEY: 'sk-live-0123456789abcdefghij',
      SHORT_TOKEN: 'abc',
      PATH: '/usr/bin',
    });
    expect(secrets).toEqual(['sk-live-0123456789abcdefghij']);
    expect(
      redactValues(
        {
          a: ['x sk-live-0123456789abcdefghij y'],
          'org-keyname1234': 'Rate limit for org-AbCdEf123456 reached',
          n: 3,
        },
        secrets,
      ),
    ).toEqual({
      a: [`x ${REDACTED} y`],
      'org-keyname1234': `Rate limit for ${REDACTED} reached`,
      n: 3,
    });
  });
});

describe('CassetteRecorder', () => {
  it('hands the stream to the client as soon as it arrives: the first event reaches the SDK before the last is sent', async () => {
    const delays = [40, 25, 10, 5, 3, 2];
    const gates = delays.map(() => gate());
    const clock = { now: 1000 };
    const arrivedInTime: boolean[] = [];
    const chunks = textChunks('hi there');
    expect(chunks.length + 1).toBe(delays.length);
    stub.queue.push(
      sse(chunks, {
        before: async (i) => {
          arrivedInTime[i] = await within(gates[i]!.wait(), 10_000);
          clock.now += delays[i]!;
        },
      }),
    );
    const recorder = new CassetteRecorder({ now: () => clock.now });
    const model = new OpenAIModel({
      baseURL: stub.baseURL,
      apiKey: 'sk-test',
      fetch: observing(recorder.fetch, gates),
      deps: noWait,
    });
    const turn = await model.generate(request);
    expect(turn.content).toBe('hi there');
    expect(arrivedInTime).toEqual(delays.map(() => true));
    const [exchange] = recorder.exchanges();
    expect(exchange!.response.events!.map((e) => e.delayMs)).toEqual(delays);
    expect(exchange!.response.events!.at(-1)).toEqual({ data: '[DONE]', delayMs: 2 });
    expect(exchange!.request).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      body: { model: 'stub-model', stream: true },
    });
  });

  it('the check above fails for a recorder that buffers the body (negative control)', async () => {
    const gates = [gate(), gate(), gate()];
    const arrivedInTime: boolean[] = [];
    stub.queue.push(
      sse([chunk({ content: 'a' }), chunk({}, 'stop')], {
        before: async (i) => void (arrivedInTime[i] = await within(gates[i]!.wait(), 300)),
      }),
    );
    const buffering: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const text = await response.text();
      return new Response(text, { status: response.status, headers: response.headers });
    };
    const model = new OpenAIModel({
      baseURL: stub.baseURL,
      apiKey: 'sk-test',
      fetch: observing(buffering, gates),
      deps: noWait,
    });
    await model.generate(request);
    expect(arrivedInTime[1]).toBe(false);
  });

  it('records HTTP errors as exchanges, each retry attempt its own, and whole JSON bodies as body', async () => {
    stub.queue.push(
      json(
        429,
        { error: { message: 'Rate limit reached for org-AbCdEf123456', type: 'rate_limit_error' } },
        { 'retry-after': '1', 'openai-organization': 'org-AbCdEf123456' },
      ),
      json(500, { error: { message: 'boom', type: 'server_error' } }),
      json(200, completion({ content: 'ok' })),
    );
    const waits: number[] = [];
    const recorder = new CassetteRecorder();
    const model = new OpenAIModel({
      baseURL: stub.baseURL,
      apiKey: 'sk-test',
      fetch: recorder.fetch,
      deps: { sleep: async (ms) => void waits.push(ms), random: () => 0.5 },
    });
    const turn = await model.generate({ ...request, stream: false });
    expect(turn.content).toBe('ok');
    expect(waits[0]).toBe(1000);
    const exchanges = recorder.exchanges();
    expect(exchanges.map((e) => e.response.status)).toEqual([429, 500, 200]);
    expect(exchanges[0]!.response.headers).toEqual({
      'content-type': 'application/json',
      'retry-after': '1',
      'openai-organization': REDACTED,
    });
    expect(exchanges[2]!.response.body).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { content: 'ok' } }],
    });
    expect(recorder.incomplete()).toEqual([]);
  });

  it('keeps the error event of a 200 stream, and the request user id is REDACTED', async () => {
    stub.queue.push(
      sse([chunk({ content: 'par' }), { error: { message: 'upstream overloaded', type: 'server_error' } }], {
        noDone: true,
      }),
    );
    const recorder = new CassetteRecorder();
    const model = new OpenAIModel({
      baseURL: stub.baseURL,
      apiKey: 'sk-test',
      fetch: recorder.fetch,
      deps: noWait,
      maxAttempts: 1,
    });
    await expect(
      model.generate({ ...request, settings: { user: 'alice@example.com' } }),
    ).rejects.toMatchObject({ code: 'http_error' });
    const [exchange] = recorder.exchanges();
    expect(exchange!.request.body!.user).toBe(REDACTED);
    expect(exchange!.response.events!.map((e) => JSON.parse(e.data))).toEqual([
      chunk({ content: 'par' }),
      { error: { message: 'upstream overloaded', type: 'server_error' } },
    ]);
  });

  it('a connection failure is a note, not an exchange', async () => {
    const recorder = new CassetteRecorder({
      fetch: async () => Promise.reject(new TypeError('fetch failed')),
    });
    const model = new OpenAIModel({
      baseURL: stub.baseURL,
      apiKey: 'sk-test',
      fetch: recorder.fetch,
      deps: noWait,
      maxAttempts: 1,
    });
    await expect(model.generate(request)).rejects.toMatchObject({ code: 'network_error' });
    expect(recorder.exchanges()).toEqual([]);
    expect(recorder.notes[0]).toMatch(/connection failed, not recorded/);
  });
});
