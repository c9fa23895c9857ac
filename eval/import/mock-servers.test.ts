/**
 * The mock-server and recorder formats of other ecosystems (`./mock-servers.ts`), each on a
 * recording written to its documented shape (no public recording of a chat completion in these
 * formats was found: `./fixtures/PROVENANCE.md`): detected by content, the request and answer a
 * client saw, non-model traffic kept apart.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { detectRecording } from './detect.ts';
import { importRecordingText } from './index.ts';

const quiet = { onWarning: () => {} };
const request = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Weather in Oslo?' }] };
const answer = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1_709_633_700,
  model: 'gpt-4o-mini-2024-07-18',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        ],
      },
      finish_reason: 'tool_calls',
    },
  ],
});
const json = { 'Content-Type': ['application/json'] };

function imported(text: string) {
  const { cassette, format } = importRecordingText(text, 'rec', quiet);
  const first = cassette.exchanges[0]!;
  return {
    format,
    cassette,
    request: first.request,
    call: (
      first.response.body as { choices: { message: { tool_calls: { function: { name: string } }[] } }[] }
    ).choices[0]!.message.tool_calls[0]!.function.name,
  };
}

describe('Hoverfly simulations', () => {
  it('reads v5 matchers, a base64 (gzip) body, and keeps a non-model pair apart', () => {
    const exact = (value: string) => [{ matcher: 'exact', value }];
    const sim = {
      data: {
        pairs: [
          {
            request: {
              path: exact('/v1/health'),
              method: exact('GET'),
              destination: exact('api.openai.com'),
            },
            response: { status: 200, body: 'ok' },
          },
          {
            request: {
              path: exact('/v1/chat/completions'),
              method: exact('POST'),
              destination: exact('api.openai.com'),
              scheme: exact('https'),
              body: [{ matcher: 'json', value: JSON.stringify(request) }],
            },
            response: {
              status: 200,
              encodedBody: true,
              body: gzipSync(answer).toString('base64'),
              headers: { ...json, 'Content-Encoding': ['gzip'] },
            },
          },
        ],
      },
      meta: { schemaVersion: 'v5.2' },
    };
    const r = imported(JSON.stringify(sim));
    expect(r.format).toBe('hoverfly');
    expect(r.request).toEqual({ method: 'POST', path: '/v1/chat/completions', body: request });
    expect(r.call).toBe('get_weather');
    expect(r.cassette.meta.host).toBe('api.openai.com');
    expect(r.cassette.nonModel).toHaveLength(1);
  });

  it('reads the v1–v3 spelling (exactMatch, plain strings)', () => {
    const sim = {
      data: {
        pairs: [
          {
            request: {
              path: { exactMatch: '/v1/chat/completions' },
              method: 'POST',
              destination: 'api.groq.com',
              body: { exactMatch: JSON.stringify(request) },
            },
            response: { status: 200, body: answer, encodedBody: false },
          },
        ],
      },
      meta: { schemaVersion: 'v3' },
    };
    expect(imported(JSON.stringify(sim))).toMatchObject({
      format: 'hoverfly',
      call: 'get_weather',
      request: { body: request },
    });
  });
});

describe('a chat request whose recorded body is not JSON', () => {
  it('is bad input naming where it is, not a response-only exchange', () => {
    const sim = {
      data: {
        pairs: [
          {
            request: {
              path: '/v1/chat/completions',
              method: 'POST',
              destination: 'api.openai.com',
              body: 'model=gpt',
            },
            response: { status: 200, body: answer },
          },
        ],
      },
      meta: { schemaVersion: 'v3' },
    };
    expect(() => importRecordingText(JSON.stringify(sim), 'sim.json', quiet)).toThrow(
      /the request body is not a JSON object/,
    );
  });
});

describe('MockServer', () => {
  it('reads recorded pairs: JSON bodies typed, headers as name/values lists, the host from Host', () => {
    const pairs = [
      {
        httpRequest: {
          method: 'POST',
          path: '/v1/chat/completions',
          headers: [{ name: 'Host', values: ['api.openai.com'] }],
          body: { type: 'JSON', json: request },
        },
        httpResponse: {
          statusCode: 200,
          headers: [{ name: 'Content-Type', values: ['application/json'] }],
          body: { type: 'STRING', string: answer },
        },
        timestamp: '2024-03-05 10:15:00.000',
      },
    ];
    const r = imported(JSON.stringify(pairs));
    expect(detectRecording(JSON.stringify(pairs), 'm').format).toBe('mockserver');
    expect(r).toMatchObject({ format: 'mockserver', call: 'get_weather', request: { body: request } });
    expect(r.cassette.meta.host).toBe('api.openai.com');
  });
});

describe('Talkback tapes', () => {
  it('reads JSON5 with human-readable bodies stored parsed', () => {
    const tape = `{
    meta: {
        createdAt: '2024-03-05T10:15:00.000Z',
        host: 'https://api.openai.com',
        reqHumanReadable: true,
        resHumanReadable: true,
    },
    req: {
        url: '/v1/chat/completions',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: ${JSON.stringify(request)},
    },
    res: {
        status: 200,
        headers: { 'content-type': ['application/json'] },
        body: ${answer},
    },
}`;
    const r = imported(tape);
    expect(r).toMatchObject({
      format: 'talkback',
      call: 'get_weather',
      request: { path: '/v1/chat/completions', body: request },
    });
    expect(r.cassette.meta.host).toBe('api.openai.com');
  });

  it('reads base64 bodies when they are not human-readable', () => {
    const tape = {
      meta: { createdAt: '2024-03-05T10:15:00.000Z', host: 'https://api.openai.com' },
      req: {
        url: '/v1/chat/completions',
        method: 'POST',
        headers: {},
        body: Buffer.from(JSON.stringify(request)).toString('base64'),
      },
      res: {
        status: 200,
        headers: { 'content-type': ['application/json'] },
        body: Buffer.from(answer).toString('base64'),
      },
    };
    expect(imported(JSON.stringify(tape))).toMatchObject({
      format: 'talkback',
      call: 'get_weather',
      request: { body: request },
    });
  });
});

describe('Python responses recordings and ExVCR', () => {
  it('reads a responses recording as response-only exchanges', () => {
    const rec = {
      responses: [
        {
          response: {
            method: 'POST',
            url: 'https://api.openai.com/v1/chat/completions',
            status: 200,
            body: answer,
            content_type: 'text/plain',
            headers: {},
          },
        },
      ],
    };
    const r = imported(toYaml(rec));
    expect(r.format).toBe('responses-yaml');
    expect(r.call).toBe('get_weather');
    expect(r.request.body).toBeNull();
    expect(r.cassette.meta.responseOnly).toBe(true);
  });

  it('reads an ExVCR cassette (a JSON list of request/response, status_code)', () => {
    const cassette = [
      {
        request: {
          url: 'https://api.openai.com/v1/chat/completions',
          method: 'post',
          body: JSON.stringify(request),
          headers: {},
          options: [],
        },
        response: {
          status_code: 200,
          body: answer,
          headers: { 'content-type': 'application/json' },
          binary: false,
          type: 'ok',
        },
      },
    ];
    expect(imported(JSON.stringify(cassette))).toMatchObject({
      format: 'exvcr',
      call: 'get_weather',
      request: { method: 'POST', body: request },
    });
  });
});
