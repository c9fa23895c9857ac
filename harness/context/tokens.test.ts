import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../model/types.ts';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import {
  countContent,
  countMessage,
  countRequest,
  countText,
  IMAGE_TOKENS,
  LONG_RUN_CHARS,
  TOKENS_PER_MESSAGE,
  usageOf,
} from './tokens.ts';

const request: ModelRequest = {
  model: 'm',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'hello world' },
  ],
};

describe('token accounting', () => {
  it('counts text with the tokenizer and messages with their overhead', () => {
    expect(countText('')).toBe(0);
    expect(countText('hello world')).toBe(2);
    expect(countMessage({ role: 'user', content: 'hello world' })).toBe(2 + TOKENS_PER_MESSAGE);
    const withCalls = countMessage({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } }],
    });
    expect(withCalls).toBeGreaterThan(TOKENS_PER_MESSAGE + 3);
  });

  it("counts an imported recording's content parts: text parts as their text, an image as IMAGE_TOKENS", () => {
    const image = { type: 'image_url', image_url: { url: 'https://example.com/a.png' } };
    const parts = [{ type: 'text', text: 'hello world' }, image] as unknown as string;
    expect(countMessage({ role: 'user', content: parts })).toBe(TOKENS_PER_MESSAGE + 2 + IMAGE_TOKENS.high);
  });

  it('counts special-token text as text instead of throwing (a file or tool output may hold it)', () => {
    const text = 'a <|endoftext|> b <|im_start|>system';
    expect(countText(text)).toBe(countText(text.replaceAll('|', '¦')));
    expect(countMessage({ role: 'tool', tool_call_id: 'c', content: '<|endoftext|>' })).toBeGreaterThan(
      TOKENS_PER_MESSAGE + 1,
    );
  });

  it('counts long runs without spaces in slices: exact for ordinary text, close for the runs, never quadratic', () => {
    const prose = 'The quick brown fox jumps over the lazy dog. '.repeat(200);
    expect(countText(prose)).toBe(encode(prose).length);
    for (const unit of ['x', 'é', '😀', '日本', ' ', '_']) {
      const run = unit.repeat(2_000);
      const exact = encode(run).length;
      expect(Math.abs(countText(run) - exact)).toBeLessThanOrEqual(
        Math.ceil(run.length / LONG_RUN_CHARS) + 1,
      );
    }
    // 200,000 CJK characters in one run: minutes of byte-pair merging when counted whole.
    expect(countText('日本語'.repeat(66_667))).toBeGreaterThan(50_000);
  });

  it('counts a request as messages plus tool schemas', () => {
    const base = countRequest(request);
    expect(base).toBe(3 + countMessage(request.messages[0]!) + countMessage(request.messages[1]!));
    const tool = {
      type: 'function' as const,
      function: { name: 'read_file', parameters: { type: 'object' } },
    };
    expect(countRequest({ ...request, tools: [tool] })).toBe(base + countText(JSON.stringify(tool)));
  });

  it('uses the provider usage when reported, the tokenizer otherwise', () => {
    const reported = usageOf(request, {
      content: 'hi',
      toolCalls: [],
      finishReason: 'stop',
      usage: { prompt_tokens: 4000, completion_tokens: 200 },
    });
    expect(reported).toEqual({ promptTokens: 4000, completionTokens: 200, source: 'reported' });
    const estimated = usageOf(
      request,
      {
        content: 'hello world',
        toolCalls: [{ function: { name: 'read_file', arguments: { path: 'a' } } }],
        finishReason: 'stop',
      },
      77,
    );
    expect(estimated.source).toBe('estimated');
    expect(estimated.promptTokens).toBe(77);
    expect(estimated.completionTokens).toBe(2 + countText('read_file') + countText('{"path":"a"}'));
    expect(usageOf(request, { content: null, toolCalls: [], finishReason: 'stop' }).promptTokens).toBe(
      countRequest(request),
    );
  });

  it('counts content given as a list of parts: text as text, images by detail, in any role', () => {
    const text = 'What food is in the image you can get from the get_image tool?';
    expect(countContent([{ type: 'text', text }])).toBe(countText(text));
    expect(countContent(text)).toBe(countText(text));
    const image = { type: 'image_url', image_url: { url: 'https://t3.ftcdn.net/jpg/00/85/79/92/x.jpg' } };
    expect(countContent([{ type: 'text', text: 'This is file bd38f5:' }, image])).toBe(
      countText('This is file bd38f5:') + IMAGE_TOKENS.high,
    );
    expect(countContent([{ type: 'image_url', image_url: { url: 'x', detail: 'low' } }])).toBe(
      IMAGE_TOKENS.low,
    );
    expect(
      countContent([{ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }]),
    ).toBeGreaterThan(0);
    expect(
      countMessage({ role: 'tool', tool_call_id: 'c', content: [{ type: 'text', text: 'hello world' }] }),
    ).toBe(2 + TOKENS_PER_MESSAGE);
    expect(
      countMessage({
        role: 'assistant',
        content: [{ type: 'text', text: 'hello world' }],
        reasoning: 'hello world',
      }),
    ).toBe(4 + TOKENS_PER_MESSAGE);
  });
});
