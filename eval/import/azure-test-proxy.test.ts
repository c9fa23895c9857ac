import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.ts';
import { decodeRecordedResponse } from '../replay/decode.ts';
import { detectFormat } from './detect.ts';
import { importRecordingText } from './index.ts';

const URI =
  'https://Sanitized.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21';
const entry = (extra: Record<string, unknown>) => ({
  RequestUri: URI,
  RequestMethod: 'POST',
  RequestHeaders: { 'api-key': 'Sanitized' },
  RequestBody: { messages: [{ role: 'user', content: 'hi' }] },
  StatusCode: 200,
  ResponseHeaders: { 'Content-Type': 'application/json', Date: 'Thu, 09 Jan 2025 02:18:14 GMT' },
  ...extra,
});
const record = (...entries: unknown[]) => JSON.stringify({ Entries: entries, Variables: {} });
const reply = {
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
};

describe('Azure SDK test-proxy records', () => {
  it('are detected by content and read with parsed, text and chunk-list bodies', () => {
    const sse = [
      'data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"he"}}]}\n\n',
      'data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"llo"}}]}\n\n',
      'data: [DONE]\n\n',
    ];
    const text = record(
      entry({ ResponseBody: reply }),
      entry({
        RequestBody: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], stream: true }),
        ResponseHeaders: { 'Content-Type': 'text/event-stream' },
        ResponseBody: sse,
      }),
      entry({
        RequestUri: 'https://Sanitized.openai.azure.com/openai/models?api-version=1',
        RequestMethod: 'GET',
        RequestBody: null,
        ResponseBody: { data: [] },
      }),
    );
    expect(detectFormat(text, 'r.json')).toBe('azure-test-proxy');
    const { cassette } = importRecordingText(text, 'r.json', { onWarning: () => {} });
    expect(cassette.exchanges).toHaveLength(2);
    expect(cassette.meta.modelRequested).toBe('gpt-4o');
    expect(decodeRecordedResponse(cassette.exchanges[0]!.response, 0).content).toBe('hello');
    expect(decodeRecordedResponse(cassette.exchanges[1]!.response, 1).content).toBe('hello');
    expect(cassette.exchanges[1]!.request.body).toMatchObject({ stream: true });
    expect(cassette.nonModel?.[0]).toMatchObject({ method: 'GET' });
  });

  it('a chat-completions request body that is not JSON is bad input at its entry', () => {
    const text = record(
      entry({ ResponseBody: reply }),
      entry({ RequestBody: '{"messages": [', ResponseBody: reply }),
    );
    try {
      importRecordingText(text, 'r.json');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).problems[0]).toMatchObject({ path: '/Entries/1/RequestBody' });
    }
  });
});
