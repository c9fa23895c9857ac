import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../harness/model/types.ts';
import { ScriptedModel } from '../../harness/model/scripted-model.ts';
import type { Cassette, Exchange } from '../cassette/types.ts';
import { CassetteFetch, HttpReplayModel, responseFromRecorded } from './http-replay.ts';

const body = (content: string) => ({ model: 'm', messages: [{ role: 'user', content }], stream: false });
const ok = (content: string) => ({
  status: 200,
  headers: {},
  body: {
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  },
});
const cassette = (exchanges: Exchange[]): Cassette => ({
  format: 'harness-bench.cassette',
  version: 1,
  meta: {
    id: 'c',
    title: 'c',
    recordedAt: 'unknown',
    host: null,
    modelRequested: 'm',
    modelServed: 'm',
    task: 't',
    toolSchemasHash: null,
    responseOnly: false,
  },
  deps: {},
  exchanges,
});
const request = (content: string): ModelRequest => ({ model: 'm', messages: [{ role: 'user', content }] });
const deps = { sleep: async () => {}, random: () => 0.5 };

describe('HttpReplayModel', () => {
  it('serves recorded turns through the live client, retrying a recorded 429 and 500 like it did live', async () => {
    const model = new HttpReplayModel(
      cassette([
        {
          request: { method: 'POST', path: '/v1/chat/completions', body: body('hi') },
          response: {
            status: 429,
            headers: { 'retry-after': '3' },
            body: { error: { message: 'slow down' } },
          },
        },
        {
          request: { method: 'POST', path: '/v1/chat/completions', body: body('hi') },
          response: { status: 500, headers: {}, body: { error: { message: 'oops' } } },
        },
        {
          request: { method: 'POST', path: '/v1/chat/completions', body: body('hi') },
          response: ok('hello'),
        },
      ]),
      { mode: 'strict', deps },
    );
    expect((await model.generate(request('hi'))).content).toBe('hello');
    expect(model.used).toBe(3);
    expect(model.unusedExchanges()).toEqual([]);
  });

  it('strict: a different request stops with recording_mismatch naming the path', async () => {
    const model = new HttpReplayModel(
      cassette([
        {
          request: { method: 'POST', path: '/v1/chat/completions', body: body('hi') },
          response: ok('hello'),
        },
      ]),
      { mode: 'strict', deps },
    );
    await expect(model.generate(request('bye'))).rejects.toMatchObject({
      code: 'recording_mismatch',
      message: expect.stringContaining('/messages/0/content: recorded "hi", replayed "bye"'),
    });
    expect(model.divergences).toHaveLength(1);
  });

  it('sequential serves anyway; one request too many is recording_exhausted', async () => {
    const model = new HttpReplayModel(
      cassette([
        {
          request: { method: 'POST', path: '/v1/chat/completions', body: body('hi') },
          response: ok('hello'),
        },
      ]),
      { mode: 'sequential', deps },
    );
    expect((await model.generate(request('bye'))).content).toBe('hello');
    expect(model.divergences[0]).toMatchObject({ exchange: 0, path: '/messages/0/content', kind: 'changed' });
    await expect(model.generate(request('again'))).rejects.toMatchObject({ code: 'recording_exhausted' });
  });

  it('counterfactual hands over to the next model at the first divergence and stays there', async () => {
    const then = new ScriptedModel([{ content: 'from the script' }, { content: 'still the script' }]);
    const model = new HttpReplayModel(
      cassette([
        {
          request: { method: 'POST', path: '/v1/chat/completions', body: body('a') },
          response: ok('recorded a'),
        },
        {
          request: { method: 'POST', path: '/v1/chat/completions', body: body('b') },
          response: ok('recorded b'),
        },
      ]),
      { mode: 'counterfactual', deps, then },
    );
    expect((await model.generate(request('a'))).content).toBe('recorded a');
    expect((await model.generate(request('changed'))).content).toBe('from the script');
    expect((await model.generate(request('b'))).content).toBe('still the script');
    expect(model.source.handoverAt).toBe(1);
    expect(model.unusedExchanges().map((u) => u.index)).toEqual([1]);
  });

  it('swaps $WORKSPACE for the replay folder in responses, and back in requests before comparing', async () => {
    const source = new CassetteFetch(
      cassette([
        {
          request: { method: 'POST', path: '/v1/chat/completions', body: body('see $WORKSPACE/a') },
          response: { status: 200, headers: {}, body: { text: 'at $WORKSPACE/a' } },
        },
      ]),
      'strict',
      '/tmp/replay-xyz',
    );
    const response = await source.fetch('http://x/v1/chat/completions', {
      method: 'POST',
      body: JSON.stringify(body('see /tmp/replay-xyz/a')),
    });
    expect(await response.json()).toEqual({ text: 'at /tmp/replay-xyz/a' });
    expect(source.divergences).toEqual([]);
  });

  it('never serves non-model traffic, and compares the method and the endpoint of the request', async () => {
    const source = new CassetteFetch(
      cassette([
        {
          request: { method: 'GET', path: '/info' },
          response: { status: 200, headers: {}, body: { version: '0.10.1' } },
        },
        {
          request: { method: 'POST', path: '/api/v1/chat/completions', body: body('q') },
          response: { status: 200, headers: {}, body: { text: 'the model turn' } },
        },
      ]),
      'sequential',
    );
    const sent = { method: 'POST', body: JSON.stringify(body('q')) };
    const response = await source.fetch('http://cassette.replay.invalid/v1/chat/completions', sent);
    expect(await response.json()).toEqual({ text: 'the model turn' });
    expect(source.divergences).toEqual([]);
    expect(source.unusedExchanges()).toEqual([]);
    const again = new CassetteFetch(cassette([{ ...source.cassette.exchanges[1]! }]), 'sequential');
    await again.fetch('http://cassette.replay.invalid/v1/embeddings', { ...sent, method: 'PUT' });
    expect(again.divergences.map((d) => [d.path, d.recorded, d.replayed])).toEqual([
      ['(method)', 'POST', 'PUT'],
      ['(path)', '/api/v1/chat/completions', '/v1/embeddings'],
    ]);
  });
});

describe('responseFromRecorded', () => {
  it('a stream becomes one SSE event per chunk, multi-line data kept', async () => {
    const response = responseFromRecorded({
      status: 200,
      headers: {},
      events: [{ data: '{"a":1}' }, { data: 'x\ny' }, { data: '[DONE]' }],
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe('data: {"a":1}\n\ndata: x\ndata: y\n\ndata: [DONE]\n\n');
  });
});
