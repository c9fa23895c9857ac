/**
 * Provider errors that are model behaviour, not failures: Groq and other OpenAI-compatible
 * servers answer a malformed tool call with HTTP 400 `tool_use_failed` and the model's text in
 * `failed_generation` (groq-gptoss120b-tool-use-failed in `recordings/real/`). The harness turns
 * that into the call the model tried to make, so it gets a structured tool result and a retry
 * instead of a crashed run.
 */
import type { ModelResponse, RawToolCall } from './types.ts';

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

/**
 * The turn a provider rejected as a malformed tool call (HTTP 400, `error.code:
 * "tool_use_failed"`, a decodable `failed_generation`), or `undefined` for any other error.
 */
export function rejectedToolCallTurn(status: number, body: unknown): ModelResponse | undefined {
  const error = isObj(body) && isObj(body.error) ? body.error : undefined;
  if (status !== 400 || error?.code !== 'tool_use_failed' || typeof error.failed_generation !== 'string')
    return undefined;
  const toolCalls = callsFromFailedGeneration(error.failed_generation);
  return toolCalls ? { content: null, toolCalls, finishReason: 'tool_calls' } : undefined;
}
