/**
 * A recorded response → the turn the model produced (or the error it raised), exactly as a live
 * client would have seen it: JSON bodies through `responseFromCompletion`, streams through the
 * `StreamAssembler`, HTTP errors as `ModelError`s, and Groq's `tool_use_failed` 400 as the
 * malformed tool call it reports (model behaviour, not a crash).
 */
import { ModelError, type ModelResponse } from '../../harness/model/types.ts';
import { StreamAssembler, responseFromCompletion } from '../../harness/model/stream-assembler.ts';
import type { RecordedResponse } from '../cassette/types.ts';
import {
  errorInSuccessBody,
  providerErrorTurn,
  transientProviderError,
} from '../../harness/model/provider-errors.ts';

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

/**
 * Decodes one recorded response. `exchange` (0-based) only appears in messages.
 *
 * @throws ModelError `http_error` for a status outside 2xx (retryable for 429 and 5xx, with
 *   `retryAfterMs` from the headers) except a provider error that stands for a turn
 *   (`providerErrorTurn`: a rejected generation, a filtered prompt), and for an error event
 *   inside a 200 stream; `invalid_response` for a 2xx with neither body nor events, a non-JSON
 *   event, a stream with no `chat.completion.chunk`, or a body that is not a chat completion
 *   (not an object, or without `choices`), and a response with several choices (`n > 1`) left
 *   unresolved by the import.
 */
export function decodeRecordedResponse(response: RecordedResponse, exchange: number): ModelResponse {
  const { status, headers, body, events } = response;
  if (status < 200 || status >= 300) {
    const rejected = providerErrorTurn(body);
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
    let turn: ModelResponse | undefined;
    let chunks = 0;
    events.forEach((event, i) => {
      const data = event.data.trim();
      if (turn || data === '[DONE]' || data === '') return;
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
      // An error event: a chunk whose `error` is set, with or without `choices` (OpenRouter's
      // mid-stream error carries both, https://openrouter.ai/docs/api-reference/errors, "Error
      // during streaming"); the openai SDK throws on `data.error` the same way.
      if (isObj(chunk) && isObj(chunk.error)) {
        const rejected = providerErrorTurn(chunk, assembler.finish());
        if (rejected) {
          turn = rejected;
          return;
        }
        throw new ModelError(
          'http_error',
          `error event in a ${status} stream (exchange ${exchange}, event ${i}): ${errorSummary(chunk)}`,
          { status, body: chunk },
          transientProviderError(chunk),
        );
      }
      if (isObj(chunk) && (Array.isArray(chunk.choices) || chunk.object === 'chat.completion.chunk'))
        chunks += 1;
      if (isObj(chunk) && Array.isArray(chunk.choices))
        for (const choice of chunk.choices)
          if (isObj(choice) && typeof choice.index === 'number' && choice.index > 0)
            throw severalChoices(exchange, status, 'several streamed');
      assembler.push(chunk);
    });
    if (turn) return turn;
    if (chunks === 0)
      throw new ModelError(
        'invalid_response',
        `recorded ${status} stream holds no chat.completion.chunk (exchange ${exchange})`,
        { status },
      );
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
  const failed = errorInSuccessBody(body, status);
  if (failed instanceof ModelError)
    throw new ModelError(
      failed.code,
      `error body in a ${status} response (exchange ${exchange}): ${errorSummary(body)}`,
      failed.data,
      failed.retryable,
    );
  if (failed) return failed;
  if (!Array.isArray(body.choices))
    throw new ModelError(
      'invalid_response',
      `recorded ${status} body is not a chat completion: no choices (exchange ${exchange})`,
      { status, body },
    );
  if (body.choices.length > 1) throw severalChoices(exchange, status, `${body.choices.length}`);
  return responseFromCompletion(body);
}

/**
 * A recorded response with several choices (`n > 1`) whose chosen one the import could not
 * find (`eval/import/legacy-shapes.ts`): serving choice 0 would replay a conversation the
 * recorded client may never have had.
 */
function severalChoices(exchange: number, status: number, count: string): ModelError {
  return new ModelError(
    'invalid_response',
    `recorded ${status} response holds ${count} choices (n > 1) and the recording does not show which one the client continued with (exchange ${exchange}); refused rather than serving choice 0`,
    { status },
  );
}
