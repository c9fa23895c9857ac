import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.ts';
import { decodeRecordedResponse } from '../replay/decode.ts';
import { exchangesFromHttprr } from './httprr.ts';
import { importRecordingDetailed, importRecordingText } from './index.ts';

/** One httprr record as Go writes it: sizes line, request, response (CRLF line ends). */
function record(request: string, response: string): string {
  return `${Buffer.byteLength(request)} ${Buffer.byteLength(response)}\n${request}${response}`;
}

const chat = (body: object, host = 'https://api.openai.com') => {
  const text = JSON.stringify(body);
  return `POST ${host}/v1/chat/completions HTTP/1.1\r\nHost: api.openai.com\r\nContent-Length: ${Buffer.byteLength(text)}\r\nContent-Type: application/json\r\n\r\n${text}`;
};
const ok = (body: object) => {
  const text = JSON.stringify(body);
  return `HTTP/2.0 200 OK\r\nContent-Length: ${Buffer.byteLength(text)}\r\nContent-Type: application/json\r\nDate: Wed, 20 Aug 2025 11:58:16 GMT\r\n\r\n${text}`;
};
const REQUEST = { model: 'gpt-4o', messages: [{ role: 'user', content: 'héllo' }] };
const REPLY = {
  id: 'x',
  object: 'chat.completion',
  created: 0,
  choices: [{ index: 0, message: { role: 'assistant', content: 'hi ✓' }, finish_reason: 'stop' }],
};

describe('httprr traces (Go)', () => {
  it('reads each record by its byte sizes (multi-byte text included), dated by the response Date', () => {
    const trace = `httprr trace v1\n${record(chat(REQUEST), ok(REPLY))}${record(chat(REQUEST), ok(REPLY))}`;
    const { cassette, format } = importRecordingText(trace, 't.httprr', { onWarning: () => {} });
    expect(format).toBe('httprr');
    expect(cassette.exchanges).toHaveLength(2);
    expect(cassette.exchanges[0]!.request).toEqual({
      method: 'POST',
      path: '/v1/chat/completions',
      body: REQUEST,
    });
    expect(decodeRecordedResponse(cassette.exchanges[1]!.response, 1).content).toBe('hi ✓');
    expect(cassette.meta.id).toBe('t');
  });

  it('undoes Transfer-Encoding: chunked and reads an event stream', () => {
    const sse =
      'data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"a"}}]}\n\ndata: [DONE]\n\n';
    const half = Math.floor(sse.length / 2);
    const chunked = `${half.toString(16)}\r\n${sse.slice(0, half)}\r\n${(sse.length - half).toString(16)}\r\n${sse.slice(half)}\r\n0\r\n\r\n`;
    const response = `HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n${chunked}`;
    const { exchanges } = exchangesFromHttprr(
      Buffer.from(`httprr trace v1\n${record(chat(REQUEST), response)}`),
      't',
    );
    expect(exchanges[0]!.response.events?.map((e) => e.data)).toHaveLength(2);
    expect(decodeRecordedResponse(exchanges[0]!.response, 0).content).toBe('a');
  });

  it('reads a request line with a path and a Host header, and keeps other traffic apart', () => {
    const get = 'GET /search?q=go HTTP/1.1\r\nHost: serpapi.com\r\n\r\n';
    const trace = `httprr trace v1\n${record(get, ok({ results: [] }))}${record(chat(REQUEST), ok(REPLY))}`;
    const { exchanges, nonModel } = exchangesFromHttprr(Buffer.from(trace), 't');
    expect(exchanges).toHaveLength(1);
    expect(nonModel[0]).toMatchObject({ method: 'GET', url: 'https://serpapi.com/search?q=go' });
  });

  it('refuses a truncated or malformed trace with the record it stopped at', () => {
    const whole = `httprr trace v1\n${record(chat(REQUEST), ok(REPLY))}`;
    const cases: [string, RegExp][] = [
      [whole.slice(0, -10), /records\/0.*truncated/],
      [`httprr trace v1\nabc\n`, /records\/0.*"<request bytes> <response bytes>"/],
      [`httprr trace v1\n${record('nonsense\r\n\r\n', ok(REPLY))}`, /records\/0\/request.*request line/],
      [
        `httprr trace v1\n${record(chat(REQUEST), 'HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n{}')}`,
        /records\/0\/response.*Content-Length says 99/,
      ],
    ];
    for (const [text, pattern] of cases) {
      let error: unknown;
      try {
        exchangesFromHttprr(Buffer.from(text), 't.httprr');
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(InputError);
      const problem = (error as InputError).problems[0]!;
      expect(`${problem.path} ${problem.reason}`).toMatch(pattern);
    }
  });

  it('unzips a gzipped recording (langchaingo commits .httprr.gz) before detecting its format', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hb-httprr-'));
    const file = join(dir, 'TestSomething.httprr.gz');
    writeFileSync(file, gzipSync(`httprr trace v1\n${record(chat(REQUEST), ok(REPLY))}`));
    const { cassette, format } = importRecordingDetailed(file, { onWarning: () => {} });
    expect(format).toBe('httprr');
    expect(cassette.meta.id).toBe('TestSomething');
    writeFileSync(file, Buffer.from([0x1f, 0x8b, 1, 2, 3]));
    expect(() => importRecordingDetailed(file)).toThrow(/gzip file that does not unzip/);
  });
});
