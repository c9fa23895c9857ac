/**
 * A recorded response → the turn the model produced (or the error it raised), exactly as a live
 * client would have seen it: JSON bodies through `responseFromCompletion`, streams through the
 * `StreamAssembler`, HTTP errors as `ModelError`s, and Groq's `tool_use_failed` 400 as the
 * malformed tool call it reports (model behaviour, not a crash).
 */
import { ModelError, type ModelResponse } from '../../harness/model/types.ts';
import { StreamAssembler, responseFromCompletion } from '../../harness/model/stream-assembler.ts';
import type { RecordedResponse } from '../cassette/types.ts';
import { rejectedToolCallTurn } from '../../harness/model/provider-errors.ts';

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `retry-after-ms`, else `retry-after` in seconds, as milliseconds; `undefined` when absent or a date. */
function retryAfterMs(headers: Record<string, string>): number | undefined {
  const ms = Number(headers['retry-after-ms']);
  if (headers['retry-after-ms'] !== undefined && Number.isFinite(ms)) return ms;
  const seconds = Number(headers['retry-after']);
  if (headers['retry-after'] !== undefined && Number.isFinite(seconds)) return seconds * 1000;
  return undefined;
}

function errorSummary(body: unknown): string {
  const error = isObj(body) && isObj(body.error) ? body.error : undefined;
  const message =
    error && typeof error.message === 'string'
      ? error.message
      : typeof body === 'string'
        ? body
        : JSON.stringify(body);
  return (message ?? '').slice(0, 300);
}

/** Mid-stream errors worth retrying: server-side, overload, rate limit, timeout. */
function transientError(body: unknown): boolean {
  const error = isObj(body) && isObj(body.error) ? body.error : {};
  return /server_error|overloaded|rate_limit|timeout|unavailable/i.test(
    `${String(error.type ?? '')} ${String(error.code ?? '')}`,
  );
}

/**
 * Decodes one recorded response. `exchange` (0-based) only appears in messages.
 *
 * @throws ModelError `http_error` for a status outside 2xx (retryable for 429 and 5xx, with
 *   `retryAfterMs` from the headers) except a decodable `tool_use_failed`, and for an error
 *   event inside a 200 stream; `invalid_response` for a 2xx with neither body nor events, a
 *   non-JSON event or a non-object body.
 */
export function decodeRecordedResponse(response: RecordedResponse, exchange: number): ModelResponse {
  const { status, headers, body, events } = response;
  if (status < 200 || status >= 300) {
    const rejected = rejectedToolCallTurn(status, body);
    if (rejected) return rejected;
    const retryAfter = retryAfterMs(headers);
    throw new ModelError(
      'http_error',
      `recorded HTTP ${status} (exchange ${exchange}): ${errorSummary(body)}`,
      { status, body, ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}) },
      status === 429 || status >= 500,
    );
  }
  if (events) {
    const assembler = new StreamAssembler();
    events.forEach((event, i) => {
      const data = event.data.trim();
      if (data === '[DONE]' || data === '') return;
      let chunk: unknown;
      try {
        chunk = JSON.parse(data);
      } catch {
        throw new ModelError(
          'invalid_response',
          `exchange ${exchange}, event ${i}: not JSON: ${data.slice(0, 120)}`,
          { status, body: data },
        );
      }
      if (isObj(chunk) && 'error' in chunk && chunk.error !== null && !Array.isArray(chunk.choices))
        throw new ModelError(
          'http_error',
          `error event in a ${status} stream (exchange ${exchange}, event ${i}): ${errorSummary(chunk)}`,
          { status, body: chunk },
          transientError(chunk),
        );
      assembler.push(chunk);
    });
    return assembler.finish();
  }
  if (body === undefined)
    throw new ModelError(
      'invalid_response',
      `recorded ${status} response without body or events (exchange ${exchange})`,
      { status },
    );
  if (!isObj(body))
    throw new ModelError(
      'invalid_response',
      `recorded ${status} body is not a JSON object (exchange ${exchange})`,
      { status, body },
    );
  if (isObj(body.error) && !Array.isArray(body.choices))
    throw new ModelError(
      'http_error',
      `error body in a ${status} response (exchange ${exchange}): ${errorSummary(body)}`,
      { status, body },
      transientError(body),
    );
  return responseFromCompletion(body);
}
