/**
 * Provider errors that are model behaviour, not failures. The harness turns them into the turn
 * the model produced, the same whichever transport carried the error, so the run goes on with a
 * structured tool result and a retry instead of crashing:
 * - a rejected generation: Groq (and compatible servers) answer a malformed tool call with
 *   `error.code: "tool_use_failed"` and the model's text in `failed_generation`, either as an
 *   HTTP 400 body or as an `error` event after a 200 stream has already sent reasoning or text
 *   (https://console.groq.com/docs/tool-use, "Error handling"; pydantic/pydantic-ai cassettes
 *   `test_groq/test_tool_use_failed_error*.yaml`). The turn holds the calls the text names (so
 *   validation answers them), or the text itself when it names no call, plus whatever the
 *   stream had sent before the error;
 * - a filtered prompt: Azure OpenAI answers HTTP 400 with `error.code: "content_filter"`
 *   (https://learn.microsoft.com/azure/ai-services/openai/concepts/content-filter), which becomes
 *   a turn with `finishReason: "content_filter"` (the run stops with that stop reason).
 */
import { ModelError, type ModelResponse, type RawToolCall } from './types.ts';

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The calls in a `failed_generation` string: a JSON object with a string `name` and `arguments`
 * (or `parameters`), or an array of such objects. The arguments are kept as given (often an
 * object); the id is left out so the harness assigns one. `null` when the text is not such a call.
 */
export function callsFromFailedGeneration(text: string): RawToolCall[] | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return null;
  const calls: RawToolCall[] = [];
  for (const item of items) {
    if (!isObj(item) || typeof item.name !== 'string' || item.name === '') return null;
    const args = 'arguments' in item ? item.arguments : item.parameters;
    calls.push({
      type: 'function',
      function: { name: item.name, ...(args !== undefined ? { arguments: args } : {}) },
    });
  }
  return calls;
}

/** The `error` object of an error body (`{error: {...}}`) or of the error itself (`{code, ...}`). */
function errorObject(body: unknown): Record<string, unknown> | undefined {
  if (isObj(body) && isObj(body.error)) return body.error;
  if (isObj(body) && typeof body.code === 'string') return body;
  return undefined;
}

/**
 * The turn a provider error stands for, or `undefined` for any other error (see the module
 * comment). `body` is the error body (`{error: {code, failed_generation, …}}`) or the error
 * object itself, from any transport: a 400 response, an `error` event inside a 200 stream, or
 * the SDK's `APIError.error`. `partial` is what the stream assembled before the error (its
 * content and reasoning are kept; its tool calls are replaced by the rejected ones).
 */
export function providerErrorTurn(body: unknown, partial?: ModelResponse): ModelResponse | undefined {
  const error = errorObject(body);
  if (!error) return undefined;
  const reasoning = partial?.reasoningContent
    ? {
        reasoningContent: partial.reasoningContent,
        ...(partial.reasoningField ? { reasoningField: partial.reasoningField } : {}),
      }
    : {};
  const details = partial?.reasoningDetails ? { reasoningDetails: partial.reasoningDetails } : {};
  if (error.code === 'content_filter')
    return { content: partial?.content ?? null, toolCalls: [], finishReason: 'content_filter', ...reasoning };
  if (error.code !== 'tool_use_failed' || typeof error.failed_generation !== 'string') return undefined;
  const toolCalls = callsFromFailedGeneration(error.failed_generation);
  if (toolCalls)
    return {
      content: partial?.content || null,
      toolCalls,
      finishReason: 'tool_calls',
      ...reasoning,
      ...details,
    };
  // The generation names no call (text where a tool was required): the text is the turn.
  const text = error.failed_generation !== '' ? error.failed_generation : partial?.content;
  if (!text) return undefined;
  return { content: text, toolCalls: [], finishReason: 'stop', ...reasoning, ...details };
}

/** True for an error object that names a transient condition: server-side, overload, rate limit, timeout. */
export function transientProviderError(body: unknown): boolean {
  const error = errorObject(body) ?? {};
  return /server_error|overloaded|rate_limit|timeout|unavailable/i.test(
    `${String(error.type ?? '')} ${String(error.code ?? '')}`,
  );
}

/**
 * What a 2xx chat-completions body stands for when it carries an `error` object instead of
 * `choices` (Azure's filtered prompt recorded under HTTP 200, gateways that answer errors with
 * 200): the turn it stands for ({@link providerErrorTurn}), else a `ModelError` `http_error`
 * (retryable when {@link transientProviderError}) to raise. `undefined` for any other body, so
 * the live client and the replay treat such a body the same way.
 */
export function errorInSuccessBody(body: unknown, status = 200): ModelResponse | ModelError | undefined {
  if (!isObj(body) || !isObj(body.error) || Array.isArray(body.choices)) return undefined;
  const turn = providerErrorTurn(body);
  if (turn) return turn;
  const message = typeof body.error.message === 'string' ? body.error.message : JSON.stringify(body.error);
  return new ModelError(
    'http_error',
    `error body in a ${status} response: ${message.slice(0, 300)}`,
    { status, body },
    transientProviderError(body),
  );
}
