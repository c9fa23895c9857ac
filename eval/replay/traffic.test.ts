import { describe, expect, it } from 'vitest';
import type { Cassette, Exchange } from '../cassette/types.ts';
import { cassetteOf, completion } from './fixtures.test-helpers.ts';
import {
  describeNonModel,
  isChatCompletionsPath,
  modelExchangeIndexes,
  nonModelReason,
  nonModelTraffic,
} from './traffic.ts';

const at = (method: string, path: string, body?: Record<string, unknown> | null): Exchange => ({
  request: { method, path, ...(body !== undefined ? { body } : {}) },
  response: completion({ content: 'x' }),
});
const chatBody = { model: 'm', messages: [{ role: 'user', content: 'q' }] };

describe('which traffic is model traffic', () => {
  it('knows every documented chat-completions path form', () => {
    for (const path of [
      '/v1/chat/completions',
      '/openai/deployments/gpt-5-nano/chat/completions?api-version=2024-12-01-preview',
      '/openai/v1/chat/completions',
      '/api/v1/chat/completions',
      '/v1beta/openai/chat/completions',
      '/api/v2/cortex/v1/chat/completions',
      '/chat/completions',
      '/v1/chat/completions/',
      'https://api.deepseek.com/chat/completions',
    ])
      expect(isChatCompletionsPath(path), path).toBe(true);
    for (const path of [
      '/v1/completions',
      '/v1/embeddings',
      '/api/chat',
      '/v1/messages',
      '/info',
      '/v1/responses',
    ])
      expect(isChatCompletionsPath(path), path).toBe(false);
  });

  it('needs a POST with a messages list (or no recorded body: response-only recordings)', () => {
    expect(nonModelReason(at('POST', '/v1/chat/completions', chatBody))).toBeUndefined();
    expect(nonModelReason(at('POST', '/v1/chat/completions', null))).toBeUndefined();
    expect(nonModelReason(at('GET', '/info'))).toBe('GET /info is not a chat-completions endpoint');
    expect(nonModelReason(at('GET', '/v1/chat/completions'))).toBe(
      'GET /v1/chat/completions is not a chat-completions request (not a POST)',
    );
    expect(nonModelReason(at('POST', '/v1/chat/completions', { prompt: 'x' }))).toBe(
      'POST /v1/chat/completions: the request body has no messages list',
    );
  });

  it("honours an importer's marks and its cassette-level nonModel list", () => {
    const marked = {
      ...at('POST', '/v1/chat/completions', chatBody),
      nonModel: { note: 'prompt hub' },
    } as Exchange;
    const cassette: Cassette & { nonModel?: unknown } = {
      ...cassetteOf([at('POST', '/v1/chat/completions', chatBody), marked, at('POST', '/v1/traces', {})]),
      nonModel: [
        { method: 'get', url: 'https://api.smith.langchain.com/info', status: 200, note: 'LangSmith' },
      ],
    };
    expect(modelExchangeIndexes(cassette)).toEqual([0]);
    const listed = nonModelTraffic(cassette);
    expect(listed.map((t) => [t.exchange, t.method, t.path, t.note])).toEqual([
      [1, 'POST', '/v1/chat/completions', 'prompt hub'],
      [2, 'POST', '/v1/traces', 'POST /v1/traces is not a chat-completions endpoint'],
      [undefined, 'GET', 'https://api.smith.langchain.com/info', 'LangSmith'],
    ]);
    expect(describeNonModel(listed[1]!)).toBe('POST /v1/traces (200)');
  });
});
