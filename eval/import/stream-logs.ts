/**
 * Response-only recordings → one exchange: chunk logs (one `chat.completion.chunk` JSON per
 * line, the `data: ` prefix and `[DONE]` stripped upstream, as in vercel/ai's `*.chunks.txt`
 * fixtures) and raw SSE text (vercel/ai's `*.sse`). No request was recorded, so the exchange's
 * request body is `null` and nothing can be compared on replay.
 */
import { InputError } from '../errors.ts';
import type { Exchange, RecordedEvent } from '../cassette/types.ts';
import { eventPayloads, eventsFromSse } from './common.ts';

/** The placeholder request of a response-only exchange. */
const NO_REQUEST = { method: 'POST', path: '/chat/completions', body: null } as const;

/**
 * A response-only recording is model traffic only when its events are chat-completion chunks
 * (an object with `choices`, or `object: "chat.completion.chunk"`); another API's stream
 * (Anthropic `message_start`, Responses `response.created`) is refused, naming what it saw.
 *
 * @throws InputError when no event is a chat-completion chunk.
 */
function requireChunks(events: readonly RecordedEvent[], file: string): void {
  const payloads = eventPayloads(events);
  if (payloads.some((p) => Array.isArray(p.choices) || p.object === 'chat.completion.chunk')) return;
  const types = [...new Set(payloads.map((p) => String(p.type ?? p.object ?? Object.keys(p).join('+'))))];
  throw new InputError([
    {
      file,
      path: '',
      reason: `no model traffic: the ${events.length} events are not chat-completion chunks (no "choices"); saw ${types.slice(0, 5).join(', ') || 'no JSON payload'}`,
    },
  ]);
}

/**
 * Chunk-log text → one streamed exchange. Each non-empty line becomes one event, in order, and a
 * final `[DONE]` event is added (the wire stream had it; the log stripped it).
 *
 * @throws InputError (file, `/line/<n>` 1-based, reason) for a line that is not a JSON object.
 */
export function exchangeFromChunkLog(text: string, file: string): Exchange {
  const events: RecordedEvent[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    if (line === '[DONE]') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new InputError([
        { file, path: `/line/${i + 1}`, reason: `not a JSON chunk: ${(error as Error).message}` },
      ]);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new InputError([{ file, path: `/line/${i + 1}`, reason: 'a chunk must be a JSON object' }]);
    events.push({ data: line });
  });
  if (events.length === 0) throw new InputError([{ file, path: '', reason: 'the chunk log holds no chunk' }]);
  requireChunks(events, file);
  events.push({ data: '[DONE]' });
  return {
    request: { ...NO_REQUEST },
    response: { status: 200, headers: { 'content-type': 'text/event-stream' }, events },
  };
}

/**
 * Raw SSE text → one streamed exchange, events exactly as the stream had them (`[DONE]`
 * included when present, not added when absent: a missing end is part of the recording).
 *
 * @throws InputError when the text holds no `data:` event.
 */
export function exchangeFromSse(text: string, file: string): Exchange {
  const events = eventsFromSse(text);
  if (events.length === 0)
    throw new InputError([{ file, path: '', reason: 'the SSE text holds no "data:" event' }]);
  requireChunks(events, file);
  return {
    request: { ...NO_REQUEST },
    response: { status: 200, headers: { 'content-type': 'text/event-stream' }, events },
  };
}
