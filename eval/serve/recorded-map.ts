/**
 * The tool mapping applied to a recorded response (a cassette served by `server.ts`): in a
 * `chat.completion` body, each `choices[].message.tool_calls[]` gets the harness's name and
 * argument keys; in a `chat.completion.chunk`, each `choices[].delta.tool_calls[]` gets the
 * harness's name (streamed arguments arrive in pieces, so their keys are left as recorded).
 */
import { mapArguments, type ToolMap } from './tool-map.ts';

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function mapCalls(calls: unknown, map: ToolMap, withArgs: boolean): unknown {
  if (!Array.isArray(calls)) return calls;
  return calls.map((call) => {
    if (!isObj(call) || !isObj(call.function) || typeof call.function.name !== 'string') return call;
    const mapping = map[call.function.name];
    if (!mapping) return call;
    const fn: Record<string, unknown> = { ...call.function, name: mapping.name ?? call.function.name };
    if (withArgs && 'arguments' in fn) fn.arguments = mapArguments(fn.arguments, mapping.args);
    return { ...call, function: fn };
  });
}

/** A copy of a recorded body or chunk with its tool calls mapped (see the module comment); other values unchanged. */
export function mapRecordedToolCalls(value: unknown, map: ToolMap | undefined): unknown {
  if (!map || !isObj(value) || !Array.isArray(value.choices)) return value;
  return {
    ...value,
    choices: value.choices.map((choice) => {
      if (!isObj(choice)) return choice;
      const out = { ...choice };
      if (isObj(choice.message) && 'tool_calls' in choice.message)
        out.message = { ...choice.message, tool_calls: mapCalls(choice.message.tool_calls, map, true) };
      if (isObj(choice.delta) && 'tool_calls' in choice.delta)
        out.delta = { ...choice.delta, tool_calls: mapCalls(choice.delta.tool_calls, map, false) };
      return out;
    }),
  };
}
