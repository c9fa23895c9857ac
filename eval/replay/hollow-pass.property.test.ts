/**
 * Property: no imported cassette passes without serving a recorded model turn, and nothing
 * that is not model traffic is ever served. Cassettes are generated with fast-check from
 * interactions of every kind a real recording holds: chat completions (valid JSON, valid
 * streams, errors), invalid bodies (compressed bytes kept as text, JSON without `choices`,
 * streams of non-JSON or of no chunk), and non-model traffic (telemetry, tracing, `GET /info`,
 * embeddings, a chat path with another method or without messages, a 200 without a body) left
 * among the exchanges as a hand-written cassette could, plus the cassette-level `nonModel` list an
 * importer writes. The replay classifies every exchange with the importers' classifier.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Exchange, NonModelTraffic } from '../cassette/types.ts';
import { loadConfig } from '../config-load.ts';
import { runRecording } from '../run-recording.ts';
import { cassetteOf } from './fixtures.test-helpers.ts';
import { decodeRecordedResponse } from './decode.ts';
import { classifyExchange } from '../import/classify.ts';

const base = loadConfig();
const question = [{ role: 'user', content: 'What is the capital of France?' }];
const chat = (response: Exchange['response'], messages: unknown[] = question): Exchange => ({
  request: { method: 'POST', path: '/v1/chat/completions', body: { model: 'm', messages } },
  response,
});
const ok = (content: string) => ({
  status: 200,
  headers: {},
  body: {
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  },
});

const validModel = fc.oneof(
  fc.string({ minLength: 1, maxLength: 20 }).map((text) => chat(ok(text))),
  fc.string({ minLength: 1, maxLength: 20 }).map((text) =>
    chat({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      events: [
        {
          data: JSON.stringify({
            object: 'chat.completion.chunk',
            choices: [{ index: 0, delta: { content: text } }],
          }),
        },
        {
          data: JSON.stringify({
            object: 'chat.completion.chunk',
            choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
          }),
        },
        { data: '[DONE]' },
      ],
    }),
  ),
);
const failingModel = fc
  .constantFrom<Exchange['response']>(
    { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'slow down' } } },
    { status: 500, headers: {}, body: { error: { message: 'server error' } } },
    { status: 401, headers: {}, body: { error: { message: 'bad key' } } },
  )
  .map((response) => chat(response));
const invalidModel = fc
  .constantFrom<Exchange['response']>(
    {
      status: 200,
      headers: { 'content-encoding': 'gzip' },
      body: '\u001f\u008b\b\u0000\u0000\u0000\u0000\u0000\u0000\u0003',
    },
    { status: 200, headers: {}, body: { trace_id: 'test-trace-id-12345', status: 'initialized' } },
    { status: 200, headers: {}, body: ['not', 'an', 'object'] },
    { status: 200, headers: {} },
    { status: 200, headers: {}, events: [{ data: 'not json' }] },
    { status: 200, headers: {}, events: [{ data: '{"ok":true}' }, { data: '[DONE]' }] },
  )
  .map((response) => chat(response));
const nonModel = fc.constantFrom<Exchange>(
  {
    request: { method: 'POST', path: '/v1/traces', body: { resourceSpans: [] } },
    response: { status: 200, headers: {}, body: { partialSuccess: {} } },
  },
  {
    request: { method: 'POST', path: '/crewai_plus/api/v1/tracing/batches', body: { trace_id: 't' } },
    response: { status: 200, headers: {}, body: { trace_id: 't', status: 'initialized' } },
  },
  {
    request: { method: 'GET', path: '/info' },
    response: { status: 200, headers: {}, body: { version: '0.10.1' } },
  },
  {
    request: {
      method: 'POST',
      path: '/v1/embeddings',
      body: { input: 'q', model: 'text-embedding-3-small' },
    },
    response: { status: 200, headers: {}, body: { object: 'list', data: [] } },
  },
  { request: { method: 'GET', path: '/v1/chat/completions' }, response: ok('a GET is not a completion') },
  {
    request: { method: 'POST', path: '/v1/chat/completions', body: { prompt: 'no messages' } },
    response: ok('a body without messages is not a completion'),
  },
  {
    request: { method: 'POST', path: '/v1/chat/completions', body: { model: 'm', messages: question } },
    response: { status: 200, headers: {}, body: '' },
  },
);
/** Non-model traffic kept apart by the importer, as the cassette's `nonModel` list holds it. */
const listed = fc.constantFrom<NonModelTraffic>(
  {
    index: 0,
    method: 'GET',
    url: 'https://api.smith.langchain.com/info',
    status: 200,
    note: 'LangSmith API',
  },
  {
    index: 2,
    method: 'POST',
    url: 'https://telemetry.crewai.com:4319/v1/traces',
    status: 200,
    note: 'telemetry',
  },
);

/** A recorded tool loop: a turn that calls `lookup`, then the request carrying its result, answered by `then`. */
const toolLoop = (then: Exchange['response']): Exchange[] => {
  const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }];
  const call = { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{}' } };
  const first: Exchange = {
    request: {
      method: 'POST',
      path: '/v1/chat/completions',
      body: { model: 'm', messages: question, tools },
    },
    response: {
      status: 200,
      headers: {},
      body: {
        model: 'm',
        choices: [
          { index: 0, message: { role: 'assistant', tool_calls: [call] }, finish_reason: 'tool_calls' },
        ],
      },
    },
  };
  const history = [
    ...question,
    { role: 'assistant', tool_calls: [call] },
    { role: 'tool', tool_call_id: 'call_1', content: 'Paris' },
  ];
  return [
    first,
    {
      request: {
        method: 'POST',
        path: '/v1/chat/completions',
        body: { model: 'm', messages: history, tools },
      },
      response: then,
    },
  ];
};
const loops = fc.oneof(validModel, failingModel, invalidModel).map((e) => toolLoop(e.response));

describe('no hollow pass (property)', () => {
  it('an imported cassette passes only when it served a recorded model turn, and non-model traffic is never served', async () => {
    const kinds = { passed: 0, failed: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(listed, { maxLength: 2 }),
        fc
          .array(
            fc.oneof(
              { weight: 3, arbitrary: nonModel.map((e) => [e]) },
              validModel.map((e) => [e]),
              failingModel.map((e) => [e]),
              invalidModel.map((e) => [e]),
              loops,
            ),
            { minLength: 1, maxLength: 5 },
          )
          .map((groups) => groups.flat()),
        async (nonModel, exchanges) => {
          const cassette = { ...cassetteOf(exchanges, true), ...(nonModel.length > 0 ? { nonModel } : {}) };
          const isNonModel = (e: Exchange) => !classifyExchange(e, cassette.meta).model;
          const { result, model } = await runRecording(cassette, 'generated.json', base);
          const replay = model as import('./replay-model.ts').ReplayModel;
          const taken = replay.takenExchanges();
          for (const index of taken) expect(isNonModel(cassette.exchanges[index]!)).toBe(false);
          // Judged apart from the replay model: a taken exchange whose response is no turn fails the case.
          const invalid = taken.some((index) => {
            try {
              decodeRecordedResponse(cassette.exchanges[index]!.response, index);
              return false;
            } catch (error) {
              return (error as { code?: string }).code === 'invalid_response';
            }
          });
          if (invalid) expect(result.status).toBe('fail');
          if (result.status === 'pass') {
            kinds.passed += 1;
            // A recorded turn, or a recorded provider error raised as the live client would.
            expect(result.findings!.servedTurns! + (result.findings!.raisedErrors ?? 0)).toBeGreaterThan(0);
            expect(replay.invalid).toEqual([]);
          } else kinds.failed += 1;
          if (exchanges.every(isNonModel)) expect(result.status).toBe('fail');
          expect(result.findings!.nonModelTraffic!.length).toBe(
            nonModel.length + exchanges.filter(isNonModel).length,
          );
        },
      ),
      { numRuns: 120 },
    );
    // Both outcomes were generated: the property is not vacuous.
    expect(kinds.passed).toBeGreaterThan(0);
    expect(kinds.failed).toBeGreaterThan(0);
  });
});
