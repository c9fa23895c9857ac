import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ModelRequest } from '../model/types.ts';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import {
  countContent,
  countMessage,
  countRequest,
  countText,
  HistoryTokens,
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

  it("counts an imported recording's content parts: text parts as their text, an image at its high-detail estimate", () => {
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

describe('token accounting: special tokens and repeats', () => {
  it('counts special-token text in content as text instead of throwing (tool output is data)', () => {
    expect(countText('a <|endoftext|> b')).toBeGreaterThan(3);
    expect(countMessage({ role: 'tool', tool_call_id: 'x', content: '<|im_start|>system' })).toBeGreaterThan(
      TOKENS_PER_MESSAGE,
    );
  });

  it('a short text counts the same the second time (memoised) as the first', () => {
    const text = `read_file ${'x'.repeat(40)}`;
    const first = countText(text);
    expect(countText(text)).toBe(first);
    expect(countText(`${text} `)).toBeGreaterThanOrEqual(first);
  });
});

const messageArb: fc.Arbitrary<ChatMessage> = fc.oneof(
  fc.string({ maxLength: 40 }).map((content): ChatMessage => ({ role: 'user', content })),
  fc.record({ id: fc.string({ minLength: 1, maxLength: 5 }), args: fc.string({ maxLength: 30 }) }).map(
    ({ id, args }): ChatMessage => ({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: args } }],
    }),
  ),
  fc.string({ maxLength: 60 }).map((content): ChatMessage => ({ role: 'tool', tool_call_id: 'c', content })),
);

describe('HistoryTokens (property)', () => {
  it('equals the full count after any appends, in-place rewrites reported with reset, and other lists', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({ op: fc.constant('push' as const), messages: fc.array(messageArb, { maxLength: 3 }) }),
            fc.record({ op: fc.constant('rewrite' as const), keep: fc.nat(), message: messageArb }),
            fc.record({
              op: fc.constant('other' as const),
              messages: fc.array(messageArb, { maxLength: 4 }),
            }),
          ),
          { maxLength: 25 },
        ),
        (ops) => {
          const tracker = new HistoryTokens();
          const history: ChatMessage[] = [];
          const full = (list: readonly ChatMessage[]) => list.reduce((sum, m) => sum + countMessage(m), 0);
          for (const op of ops) {
            if (op.op === 'push') history.push(...op.messages);
            else if (op.op === 'rewrite') {
              // A layer rewrites in place (stubs, drops, a note) and says so.
              history.splice(
                0,
                history.length,
                ...history.slice(0, op.keep % (history.length + 1)),
                op.message,
              );
              tracker.reset();
            } else expect(tracker.of(op.messages)).toBe(full(op.messages));
            expect(tracker.of(history)).toBe(full(history));
          }
        },
      ),
    );
  });
});

describe('countMessage on requests of a harness under test', () => {
  it('counts tool-call arguments sent back as an object (or missing) instead of throwing', () => {
    const message = {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'read_file', arguments: { path: 'a.txt' } } },
      ],
    } as unknown as ChatMessage;
    const asString = {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
      ],
    } as unknown as ChatMessage;
    expect(countMessage(message)).toBe(countMessage(asString));
    const bare = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c2', function: {} }],
    } as unknown as ChatMessage;
    expect(countMessage(bare)).toBeGreaterThan(0);
  });
});
