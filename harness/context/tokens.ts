/**
 * Token accounting: the provider's reported usage where present, the `o200k_base` tokenizer
 * (gpt-tokenizer) otherwise. Every message is counted once (cached per message object), a text
 * line by line with each line's count remembered (tool output repeats lines; a call's name and
 * arguments are counted for the completion and again for the stored call), and a growing
 * history's sum is kept by {@link HistoryTokens}, so counting the next request costs only what
 * was added since the last one.
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
 * text's count is the sum of its pieces' counts: {@link countPieces} remembers them.
 */
const PIECE = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'uy');
/** Pieces up to this many UTF-16 units are remembered with their count. */
const PIECE_CACHE_CHARS = 48;
/** Pieces remembered at most; the table is emptied when full (counts are pure, so this changes no number). */
const PIECE_CACHE_SIZE = 50_000;
const pieces = new Map<string, number>();

/**
 * A copy of `text` that holds no reference to a larger string: V8 makes a slice of 13 or more
 * characters a view on the string it was cut from, and a remembered key must not keep a whole
 * file alive. Used only when a key is stored.
 */
const own = (text: string): string => (text.length < 13 ? text : ` ${text}`.slice(1));

/**
 * The tokenizer's count of `text.slice(start, end)` (special-token text counted as text), piece
 * by piece with each short piece's count remembered: the same number as `countTokens` when
 * `start` and `end` are piece boundaries of `text` ({@link chunkEnd}), in about half the time
 * (the tokenizer's large rank table is looked up once per distinct piece).
 */
function countPieces(text: string, start: number, end: number): number {
  let tokens = 0;
  for (let at = start; at < end; ) {
    PIECE.lastIndex = at;
    // The pattern matches at every position; were it ever not to, the tokenizer counts the rest.
    if (!PIECE.test(text)) return tokens + countTokens(text.slice(at, end), AS_TEXT);
    const stop = PIECE.lastIndex;
    const piece = text.slice(at, stop);
    if (stop - at > PIECE_CACHE_CHARS) tokens += countTokens(piece, AS_TEXT);
    else {
      let known = pieces.get(piece);
      if (known === undefined) {
        known = countTokens(piece, AS_TEXT);
        if (pieces.size >= PIECE_CACHE_SIZE) pieces.clear();
        pieces.set(own(piece), known);
      }
      tokens += known;
    }
    at = stop;
  }
  return tokens;
}

/**
 * True for the UTF-16 code units the pattern's `\s` matches (ECMAScript WhiteSpace and
 * LineTerminator: tab, line feed, vertical tab, form feed, carriage return, space, U+00A0,
 * U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF) and for `/`.
 */
export function isSpaceOrSlash(unit: number): boolean {
  if (unit < 128) return unit === 32 || unit === 47 || (unit >= 9 && unit <= 13);
  return (
    unit === 0xa0 ||
    unit === 0x1680 ||
    (unit >= 0x2000 && unit <= 0x200a) ||
    unit === 0x2028 ||
    unit === 0x2029 ||
    unit === 0x202f ||
    unit === 0x205f ||
    unit === 0x3000 ||
    unit === 0xfeff
  );
}

/**
 * The end of the chunk of `text` that starts at `start` (`start` < `text.length`): the first
 * position after a line feed whose character is neither whitespace nor `/`, else
 * `text.length`. Such a position p is a piece boundary of the o200k pattern and the pieces
 * before it do not depend on what follows it, so the count of a text is the sum of its chunks'
 * counts. Proof, over the pattern's alternatives (gpt-tokenizer `O200K_TOKEN_SPLIT_REGEX`, the
 * pattern of tiktoken's `o200k_base`):
 * 1. `[^\r\n\p{L}\p{N}]?[…letters, marks…]+(contraction)?` (twice, lower and upper case first)
 *    and 3. `\p{N}{1,3}` never match a line feed;
 * 4. ` ?[^\s\p{L}\p{N}]+[\r\n/]*` holds a line feed only in its tail `[\r\n/]*`, which can
 *    continue only with `\r`, `\n` or `/`;
 * 5. `\s*[\r\n]+`, 6. `\s+(?!\S)` and 7. `\s+` match only whitespace.
 * So no piece holds both text[p-1] (the line feed) and text[p]: p is a boundary. A piece that
 * starts before p is found the same way in `text.slice(0, p)`: the only paths of the pattern that
 * reach p consume the line feed (in 4.–7.), and every character class they may test there
 * (`[\r\n/]`, `\s`, `[\r\n]`) fails on text[p] and at the end of a text alike; the one construct
 * that tells the two apart, the lookahead of 6., is reached only from a run of whitespace holding
 * that line feed, where 5. matches first. A piece that starts at or after p looks only forward.
 * The property tests split arbitrary text at every chunk end and compare the pieces and the
 * counts with the tokenizer's (`tokens.chunks.prop.test.ts`).
 */
export function chunkEnd(text: string, start: number): number {
  for (let nl = text.indexOf('\n', start); nl !== -1 && nl + 1 < text.length; nl = text.indexOf('\n', nl + 1))
    if (!isSpaceOrSlash(text.charCodeAt(nl + 1))) return nl + 1;
  return text.length;
}

/** Chunks up to this many UTF-16 units are remembered with their count. */
const CHUNK_CACHE_CHARS = 256;
/** Chunks remembered at most; the table is emptied when full (counts are pure, so this changes no number). */
const CHUNK_CACHE_SIZE = 10_000;
const chunks = new Map<string, number>();

/**
 * The tokenizer's count of `text`, chunk by chunk ({@link chunkEnd}: at most one line each),
 * each short chunk's count remembered: tool output repeats its lines (overlapping windows of a
 * file read again, the same file read twice), and a call's name and arguments are counted for
 * the completion and again for the stored call.
 */
function count(text: string): number {
  let tokens = 0;
  for (let start = 0; start < text.length; ) {
    const end = chunkEnd(text, start);
    if (end - start > CHUNK_CACHE_CHARS) tokens += countPieces(text, start, end);
    else {
      const chunk = start === 0 && end === text.length ? text : text.slice(start, end);
      let known = chunks.get(chunk);
      if (known === undefined) {
        known = countPieces(chunk, 0, chunk.length);
        if (chunks.size >= CHUNK_CACHE_SIZE) chunks.clear();
        chunks.set(own(chunk), known);
      }
      tokens += known;
    }
    start = end;
  }
  return tokens;
}

/** A run of non-space (or of space) characters longer than this is counted in slices. */
export const LONG_RUN_CHARS = 256;
const LONG_RUN = new RegExp(`\\S{${LONG_RUN_CHARS},}|\\s{${LONG_RUN_CHARS},}`, 'g');

/**
 * Tokens of a text. Byte-pair merging is quadratic in the length of one pre-token, and the
 * tokenizer's split pattern leaves runs of letters, punctuation or spaces unbounded (40,000
 * letters take seconds, as many CJK characters a minute: tiktoken#195, coder/ai-tokenizer#6):
 * such a run is counted in slices of {@link LONG_RUN_CHARS} code points, which may count a
 * token more per slice. Text without such runs is counted exactly.
 */
export function countText(text: string): number {
  if (text.length === 0) return 0;
  if (text.length < LONG_RUN_CHARS) return count(text);
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
 * A field of a message as text for counting: a string as it is; anything else a harness under
 * test may send (arguments as an object, a missing name) as its JSON, `''` for none. Requests of
 * a foreign harness are data, never trusted to have our shapes.
 */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? '' : (JSON.stringify(value) ?? '');
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
      tokens += countText(asText(call.function?.name)) + countText(asText(call.function?.arguments)) + 3;
    tokens += countText(asText(message.reasoning_content ?? message.reasoning ?? ''));
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
