import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.ts';
import { detectFormat, importRecordingText } from './index.ts';

const quiet = { onWarning: () => {} };
const definitions = [
  {
    scope: 'https://api.openai.com:443',
    method: 'POST',
    path: '/v1/chat/completions',
    body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
    status: 200,
    response: {
      model: 'gpt-4o-mini-2024-07-18',
      created: 1730000000,
      choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
    },
    rawHeaders: [
      'Content-Type',
      'application/json',
      'openai-organization',
      'org-abc',
      'Set-Cookie',
      'a=b',
      'x-ratelimit-remaining-requests',
      '99',
    ],
  },
  {
    scope: 'https://api.openai.com:443',
    method: 'post',
    path: '/v1/chat/completions',
    body: JSON.stringify({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: 'more' }],
    }),
    status: 200,
    response: Buffer.from(
      'data: {"choices":[{"index":0,"delta":{"content":"ok"}}]}\n\ndata: [DONE]\n\n',
    ).toString('hex'),
    responseIsBinary: true,
    headers: { 'content-type': 'text/event-stream' },
  },
];

describe('nock definition import', () => {
  it('is detected from a JSON array of definitions', () => {
    expect(detectFormat(JSON.stringify(definitions), 'd.json')).toBe('nock');
    expect(() => detectFormat('[1, 2]', 'x.json')).toThrow(InputError);
  });

  it('reads bodies, raw or object headers through the allowlist, JSON and binary SSE responses', () => {
    const { cassette, format } = importRecordingText(JSON.stringify(definitions), 'openai.nock.json', quiet);
    expect(format).toBe('nock');
    expect(cassette.meta).toMatchObject({
      id: 'openai.nock',
      host: 'api.openai.com',
      modelRequested: 'gpt-4o-mini',
      modelServed: 'gpt-4o-mini-2024-07-18',
      task: 'hi',
      imported: { format: 'nock', file: 'openai.nock.json' },
    });
    const [first, second] = cassette.exchanges;
    expect(first!.response.headers).toEqual({
      'content-type': 'application/json',
      'x-ratelimit-remaining-requests': '99',
    });
    expect(second!.request).toEqual({
      method: 'POST',
      path: '/v1/chat/completions',
      body: { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'more' }] },
    });
    expect(second!.response.events).toEqual([
      { data: '{"choices":[{"index":0,"delta":{"content":"ok"}}]}' },
      { data: '[DONE]' },
    ]);
  });

  it('a definition with a bad scope is an input error naming its index', () => {
    const bad = [{ ...definitions[0], scope: 'not a url' }];
    expect(() => importRecordingText(JSON.stringify(bad), 'bad.json', quiet)).toThrow(
      /\/0\/scope: not a URL/,
    );
  });
});
