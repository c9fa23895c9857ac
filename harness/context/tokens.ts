/**
 * Token accounting: the provider's reported usage where present, the `o200k_base` tokenizer
 * (gpt-tokenizer) otherwise. Counts are cached per message object, so counting a growing
 * history costs only the new messages.
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import type { ChatMessage, ModelRequest, ModelResponse, Usage } from '../model/types.ts';

/** Fixed per-message overhead in tokens (role and separators), as OpenAI's cookbook counts it. */
export const TOKENS_PER_MESSAGE = 3;

const cache = new WeakMap<object, number>();

/** Tokens of a text (long runs without whitespace counted in chunks: {@link countChunkingLongRuns}). */
export function countText(text: string): number {
  return text.length === 0 ? 0 : countChunkingLongRuns(text);
}

/**
 * The longest run of non-whitespace characters (UTF-16 code units) encoded in one piece. Normal
 * words, paths and URLs are far shorter; past this, gpt-tokenizer's byte-pair merge over one
 * pre-token is quadratic (10,000 "a" take 0.7 s, 80,000 take 17 s; 30,000 characters of
 * Japanese, which has no spaces, 17 s), while pieces of 1,000 encode in linear time.
 */
export const LONG_RUN_CHARS = 1000;

const LONG_RUN = new RegExp(`\\S{${LONG_RUN_CHARS + 1},}`, 'g');

/**
 * Tokens of `text`, encoding each run of more than {@link LONG_RUN_CHARS} non-whitespace
 * characters in pieces of that length (never splitting a surrogate pair) and the text between
 * runs as it is. A text without such a run is encoded whole, so its count is exactly
 * `encode(text).length`; with one, each cut may move the count by a token or two (a property
 * test bounds it), and a 1 MB text without spaces is counted in milliseconds instead of hours.
 */
export function countChunkingLongRuns(text: string): number {
  if (text.length <= LONG_RUN_CHARS) return encode(text).length;
  let tokens = 0;
  let last = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    if (match.index > last) tokens += encode(text.slice(last, match.index)).length;
    const end = match.index + match[0].length;
    for (let start = match.index; start < end; ) {
      let stop = Math.min(start + LONG_RUN_CHARS, end);
      const code = text.charCodeAt(stop - 1);
      if (stop < end && code >= 0xd800 && code <= 0xdbff) stop -= 1; // keep the pair together
      tokens += encode(text.slice(start, stop)).length;
      start = stop;
    }
    last = end;
  }
  if (last === 0) return encode(text).length;
  if (last < text.length) tokens += encode(text.slice(last)).length;
  return tokens;
}

/** Tokens of one message (content plus tool calls plus overhead), cached per object. */
export function countMessage(message: ChatMessage): number {
  const cached = cache.get(message);
  if (cached !== undefined) return cached;
  let tokens = TOKENS_PER_MESSAGE + countText(message.content ?? '');
  if (message.role === 'assistant' && message.tool_calls)
    for (const call of message.tool_calls)
      tokens += countText(call.function.name) + countText(call.function.arguments) + 3;
  cache.set(message, tokens);
  return tokens;
}

const schemaCache = new WeakMap<object, number>();

/** Tokens of a request as sent: messages plus tool schemas. */
export function countRequest(request: Pick<ModelRequest, 'messages' | 'tools'>): number {
  let tokens = 3;
  for (const message of request.messages) tokens += countMessage(message);
  for (const tool of request.tools ?? []) {
    let cached = schemaCache.get(tool);
    if (cached === undefined) {
      cached = countText(JSON.stringify(tool));
      schemaCache.set(tool, cached);
    }
    tokens += cached;
  }
  return tokens;
}

/** Usage of one turn: reported numbers when the provider gave them, else the tokenizer's. */
export function usageOf(
  request: Pick<ModelRequest, 'messages' | 'tools'>,
  response: ModelResponse,
  requestTokens?: number,
): Usage {
  const reported = response.usage;
  if (
    reported &&
    typeof reported.prompt_tokens === 'number' &&
    typeof reported.completion_tokens === 'number'
  )
    return {
      promptTokens: reported.prompt_tokens,
      completionTokens: reported.completion_tokens,
      source: 'reported',
    };
  let completion = countText(response.content ?? '');
  for (const call of response.toolCalls) {
    const fn = call.function ?? {};
    completion += countText(typeof fn.name === 'string' ? fn.name : '');
    completion += countText(
      typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? ''),
    );
  }
  return {
    promptTokens:
      typeof reported?.prompt_tokens === 'number'
        ? reported.prompt_tokens
        : (requestTokens ?? countRequest(request)),
    completionTokens:
      typeof reported?.completion_tokens === 'number' ? reported.completion_tokens : completion,
    source: 'estimated',
  };
}
