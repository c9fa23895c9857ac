/**
 * Token accounting: the provider's reported usage where present, the `o200k_base` tokenizer
 * (gpt-tokenizer) otherwise. Every message is counted once (cached per message object), a recent
 * short text once (a call's name and arguments are counted for the completion and again for the
 * stored call), and a growing history's sum is kept by {@link HistoryTokens}, so counting the
 * next request costs only what was added since the last one.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { contentText, isImagePart, nonTextParts } from '../model/content.ts';
import type {
  ChatMessage,
  MessageContent,
  ModelRequest,
  ModelResponse,
  ToolSchema,
  Usage,
} from '../model/types.ts';

/** Fixed per-message overhead in tokens (role and separators), as OpenAI's cookbook counts it. */
export const TOKENS_PER_MESSAGE = 3;

/** Fixed overhead of a request in tokens (the reply priming), as OpenAI's cookbook counts it. */
export const TOKENS_PER_REQUEST = 3;

/**
 * Special-token text (`<|endoftext|>`, `<|im_start|>`) in a message is text: the tokenizer's
 * default throws on it, which let a file or a tool output containing it crash the run (found by
 * fuzzing: `scenarios/injection/fuzz-special-token-text.json`).
 */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * The tokenizer's own pre-token pattern (o200k), sticky. The tokenizer splits a text with it and
 * encodes each piece on its own, and a piece split again is that one piece (the pattern's only
 * lookahead, `\s+(?!\S)`, succeeds at the end of a text wherever it succeeded inside one), so a
 * text's count is the sum of its pieces' counts: {@link count} remembers them.
 */
const PIECE = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'uy');
/** Pieces up to this many UTF-16 units are remembered with their count. */
const PIECE_CACHE_CHARS = 48;
/** Pieces remembered at most; the table is emptied when full (counts are pure, so this changes no number). */
const PIECE_CACHE_SIZE = 50_000;
const pieces = new Map<string, number>();

/**
 * The tokenizer's count of `text` (special-token text counted as text), piece by piece with
 * each short piece's count remembered: the same number as `countTokens`, in about half the
 * time on tool output (the tokenizer's large rank table is looked up once per distinct piece).
 */
function count(text: string): number {
  let tokens = 0;
  for (let at = 0; at < text.length; ) {
    PIECE.lastIndex = at;
    // The pattern matches at every position; were it ever not to, the tokenizer counts the whole text.
    if (!PIECE.test(text)) return countTokens(text, AS_TEXT);
    const end = PIECE.lastIndex;
    const piece = text.slice(at, end);
    if (end - at > PIECE_CACHE_CHARS) tokens += countTokens(piece, AS_TEXT);
    else {
      let known = pieces.get(piece);
      if (known === undefined) {
        known = countTokens(piece, AS_TEXT);
        if (pieces.size >= PIECE_CACHE_SIZE) pieces.clear();
        pieces.set(piece, known);
      }
      tokens += known;
    }
    at = end;
  }
  return tokens;
}

/** A run of non-space (or of space) characters longer than this is counted in slices. */
export const LONG_RUN_CHARS = 256;
const LONG_RUN = new RegExp(`\\S{${LONG_RUN_CHARS},}|\\s{${LONG_RUN_CHARS},}`, 'g');

/** Texts shorter than this many characters are remembered with their count, the last few of them. */
const SHORT_TEXT = LONG_RUN_CHARS;
/**
 * How many recent short texts are remembered: enough for a turn's tool names and arguments,
 * counted for the completion and again for the stored call; too few to carry counts from one
 * run to the next.
 */
const RECENT_TEXTS = 16;
const recent = new Map<string, number>();

/**
 * Tokens of a text. Byte-pair merging is quadratic in the length of one pre-token, and the
 * tokenizer's split pattern leaves runs of letters, punctuation or spaces unbounded (40,000
 * letters take seconds, as many CJK characters a minute: tiktoken#195, coder/ai-tokenizer#6):
 * such a run is counted in slices of {@link LONG_RUN_CHARS} code points, which may count a
 * token more per slice. Text without such runs is counted exactly. A short text's count is
 * remembered for the next few calls.
 */
export function countText(text: string): number {
  if (text.length === 0) return 0;
  if (text.length < SHORT_TEXT) {
    let tokens = recent.get(text);
    if (tokens === undefined) {
      tokens = count(text);
      if (recent.size >= RECENT_TEXTS) recent.delete(recent.keys().next().value as string);
      recent.set(text, tokens);
    }
    return tokens;
  }
  let tokens = 0;
  let last = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    if (match.index > last) tokens += count(text.slice(last, match.index));
    const chars = Array.from(match[0]);
    for (let i = 0; i < chars.length; i += LONG_RUN_CHARS)
      tokens += count(chars.slice(i, i + LONG_RUN_CHARS).join(''));
    last = match.index + match[0].length;
  }
  if (last < text.length) tokens += count(text.slice(last));
  return tokens;
}

const cache = new WeakMap<object, number>();

/**
 * Tokens of an image part without its pixels: `low` detail costs 85 tokens; `high` and `auto`
 * are counted as a 1024×1024 image at high detail, 85 + 170 per 512-pixel tile × 4 = 765
 * (https://platform.openai.com/docs/guides/images-vision, "Calculating costs"). The image's
 * real size is unknown here; the provider's reported usage replaces the estimate after the call.
 */
export const IMAGE_TOKENS = { low: 85, high: 765 } as const;

/** Tokens counted for any other non-text part (audio, file): the same rough estimate as a high-detail image. */
export const OTHER_PART_TOKENS = IMAGE_TOKENS.high;

/** Tokens of a message `content`: its text, plus {@link IMAGE_TOKENS} per image and {@link OTHER_PART_TOKENS} per other part. */
export function countContent(content: MessageContent | null | undefined): number {
  let tokens = countText(contentText(content));
  for (const part of nonTextParts(content))
    tokens += isImagePart(part)
      ? part.image_url.detail === 'low'
        ? IMAGE_TOKENS.low
        : IMAGE_TOKENS.high
      : OTHER_PART_TOKENS;
  return tokens;
}

/**
 * Tokens of one message (content, tool calls, reasoning the provider gets back, plus overhead),
 * cached per object. Content may be a string or a list of parts ({@link countContent}).
 */
export function countMessage(message: ChatMessage): number {
  const cached = cache.get(message);
  if (cached !== undefined) return cached;
  let tokens = TOKENS_PER_MESSAGE + countContent(message.content);
  if (message.role === 'assistant') {
    for (const call of message.tool_calls ?? [])
      tokens += countText(call.function.name) + countText(call.function.arguments) + 3;
    tokens += countText(message.reasoning_content ?? message.reasoning ?? '');
    if (message.reasoning_details) tokens += countText(JSON.stringify(message.reasoning_details));
  }
  cache.set(message, tokens);
  return tokens;
}

const schemaCache = new WeakMap<object, number>();

/** Tokens of the tool schemas of a request (each schema counted once, cached per object). */
export function countTools(tools: readonly ToolSchema[] | undefined): number {
  let tokens = 0;
  for (const tool of tools ?? []) {
    let cached = schemaCache.get(tool);
    if (cached === undefined) {
      cached = countText(JSON.stringify(tool));
      schemaCache.set(tool, cached);
    }
    tokens += cached;
  }
  return tokens;
}

/** Tokens of a request as sent: messages plus tool schemas. */
export function countRequest(request: Pick<ModelRequest, 'messages' | 'tools'>): number {
  let tokens = TOKENS_PER_REQUEST;
  for (const message of request.messages) tokens += countMessage(message);
  return tokens + countTools(request.tools);
}

/**
 * The token sum of a growing message list (the working history), updated by the messages
 * appended since the last call instead of recounted. A list whose earlier messages changed (a
 * layer rewrote it in place) must be reported with {@link HistoryTokens.reset}; a different
 * array, a shorter one or a changed last message is noticed and recounted whole.
 */
export class HistoryTokens {
  private list: readonly ChatMessage[] | undefined;
  private counted = 0;
  private last: ChatMessage | undefined;
  private sum = 0;

  /** Σ `countMessage` over `messages` (no request overhead). */
  of(messages: readonly ChatMessage[]): number {
    if (
      messages !== this.list ||
      messages.length < this.counted ||
      (this.counted > 0 && messages[this.counted - 1] !== this.last)
    ) {
      this.list = messages;
      this.counted = 0;
      this.sum = 0;
    }
    for (; this.counted < messages.length; this.counted += 1)
      this.sum += countMessage(messages[this.counted]!);
    this.last = messages[this.counted - 1];
    return this.sum;
  }

  /**
   * `next` replaces `previous` (same length; a layer replaced some messages, or a copy of the
   * list took its place) and its sum is the previous one minus `freed`: taken as it is when
   * `previous` was counted whole, else the next call recounts.
   */
  replace(previous: readonly ChatMessage[], next: readonly ChatMessage[], freed: number): void {
    if (this.list !== previous || this.counted !== previous.length || next.length !== previous.length) {
      this.reset();
      return;
    }
    this.list = next;
    this.sum -= freed;
    this.last = next[this.counted - 1];
  }

  /** The list was rewritten in place: the next call recounts it. */
  reset(): void {
    this.list = undefined;
  }
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
