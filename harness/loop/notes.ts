/**
 * Harness notes added to the conversation as user messages, and the detector for tool calls
 * written as text. Calls found in text are never executed (text can come from injected
 * content); the model is told once to use the tool-calling interface (handed case B02,
 * ollama#11662).
 */

/** Sent after a reply that wrote a tool call as text. */
export const TEXT_TOOL_CALL_NOTE =
  '[harness] Your last reply wrote a tool call as text; it was not executed. To use a tool, call it through the tool-calling interface (tool_calls). Otherwise answer in plain text.';

/** Sent after a text reply cut off by the output token limit. */
export const TRUNCATED_TEXT_NOTE =
  '[harness] Your reply was cut off by the output token limit. Continue from where it stopped, more briefly.';

/** Sent before the reserved wrap-up turn. */
export const WRAP_UP_NOTE =
  '[harness] The budget for this task is spent: no more tool calls will run. Reply with a summary of what is done, what is not, and what you found.';

/**
 * The tool name when `content` is (or contains) a tool call written as text: a JSON object with
 * `name` and `arguments`/`parameters`, optionally in a ```json fence or `<tool_call>` tags.
 * Undefined otherwise.
 */
export function detectTextToolCall(content: string | null): string | undefined {
  if (!content) return undefined;
  const candidates: string[] = [];
  const tagged = /<(tool_call|function_call|tool_use)>([\s\S]*?)<\/\1>/i.exec(content);
  if (tagged) candidates.push(tagged[2]!);
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(content);
  if (fenced) candidates.push(fenced[1]!);
  candidates.push(content);
  for (const text of candidates) {
    const start = text.indexOf('{');
    const end = text.lastIndexOf('}');
    if (start < 0 || end <= start) continue;
    try {
      const value = JSON.parse(text.slice(start, end + 1)) as Record<string, unknown>;
      const name = value.name ?? (value.function as Record<string, unknown> | undefined)?.name;
      if (typeof name === 'string' && ('arguments' in value || 'parameters' in value || 'function' in value))
        return name;
    } catch {
      /* not JSON */
    }
  }
  return undefined;
}
