/**
 * OpenAI custom tools (`type: "custom"`, free-form input instead of JSON arguments;
 * https://platform.openai.com/docs/guides/function-calling#custom-tools) rewritten at import
 * into function tools the replay serves, executes and compares like any other:
 *
 * - a declared tool `{type: "custom", custom: {name, description, format}}` becomes a function
 *   `name` with one required string parameter `input` (the format, text or a grammar, is kept
 *   in its description);
 * - a call `{type: "custom", custom: {name, input}}` (in a reply, a stream delta or the next
 *   request's echo) becomes `{type: "function", function: {name, arguments: {"input": …}}}`, the
 *   input as a JSON string. Streamed input pieces are escaped one by one and the object is
 *   opened on the call's first delta and closed on the stream's last chunk, so the assembled
 *   arguments are the JSON of the whole input.
 *
 * Said in `meta.imported.rewritten` by the caller (`./legacy-shapes.ts`).
 */
import type { Exchange, RecordedEvent } from '../cassette/types.ts';
import { bodyMessages, eventObject, isObj, type Obj } from './common.ts';

/** The parameter a custom tool's free-form input is passed in. */
export const CUSTOM_INPUT = 'input';

function functionTool(tool: Obj): Obj {
  const custom = isObj(tool.custom) ? tool.custom : {};
  const format = custom.format === undefined ? '' : ` Input format: ${JSON.stringify(custom.format)}.`;
  return {
    type: 'function',
    function: {
      name: custom.name,
      description: `${typeof custom.description === 'string' ? custom.description : ''}${format}`.trim(),
      parameters: {
        type: 'object',
        properties: {
          [CUSTOM_INPUT]: { type: 'string', description: 'the free-form input of the custom tool' },
        },
        required: [CUSTOM_INPUT],
      },
    },
  };
}

const isCustom = (call: unknown): call is Obj & { custom: Obj } =>
  isObj(call) && call.type === 'custom' && isObj(call.custom);

/** A whole custom call as a function call. */
function functionCall(call: Obj & { custom: Obj }): Obj {
  const { custom, type: _type, ...rest } = call;
  const input = typeof custom.input === 'string' ? custom.input : '';
  return {
    ...rest,
    type: 'function',
    function: { name: custom.name, arguments: JSON.stringify({ [CUSTOM_INPUT]: input }) },
  };
}

/** Rewrites the request's tools, tool_choice and the calls of its messages; true when any was custom. */
function rewriteRequest(body: Obj): boolean {
  let changed = false;
  if (Array.isArray(body.tools))
    body.tools = body.tools.map((tool) => {
      if (!isObj(tool) || tool.type !== 'custom') return tool;
      changed = true;
      return functionTool(tool);
    });
  if (isObj(body.tool_choice) && body.tool_choice.type === 'custom' && isObj(body.tool_choice.custom)) {
    body.tool_choice = { type: 'function', function: { name: body.tool_choice.custom.name } };
    changed = true;
  }
  for (const message of bodyMessages(body))
    if (Array.isArray(message.tool_calls) && message.tool_calls.some(isCustom)) {
      message.tool_calls = message.tool_calls.map((call) => (isCustom(call) ? functionCall(call) : call));
      changed = true;
    }
  return changed;
}

/** Rewrites streamed custom-call deltas (see the module comment); true when any was custom. */
function rewriteEvents(events: RecordedEvent[]): boolean {
  const open = new Set<number>();
  let last = -1;
  const parsed = events.map(eventObject);
  parsed.forEach((chunk, i) => {
    const choice = Array.isArray(chunk?.choices) && isObj(chunk.choices[0]) ? chunk.choices[0] : undefined;
    const delta = choice && isObj(choice.delta) ? choice.delta : undefined;
    if (!delta || !Array.isArray(delta.tool_calls)) return;
    let changed = false;
    delta.tool_calls = delta.tool_calls.map((call) => {
      if (!isCustom(call)) return call;
      changed = true;
      const index = typeof call.index === 'number' ? call.index : 0;
      const piece =
        typeof call.custom.input === 'string' ? JSON.stringify(call.custom.input).slice(1, -1) : '';
      const first = !open.has(index);
      open.add(index);
      const { custom, type: _type, ...rest } = call;
      return {
        ...rest,
        ...(first ? { type: 'function' } : {}),
        function: {
          ...(typeof custom.name === 'string' ? { name: custom.name } : {}),
          arguments: `${first ? `{"${CUSTOM_INPUT}":"` : ''}${piece}`,
        },
      };
    });
    if (changed) {
      events[i] = { ...events[i]!, data: JSON.stringify(chunk) };
      last = i;
    }
  });
  if (open.size === 0) return false;
  // Close every opened call's arguments on one chunk after its last delta.
  const close = {
    object: 'chat.completion.chunk',
    choices: [
      {
        index: 0,
        delta: { tool_calls: [...open].map((index) => ({ index, function: { arguments: '"}' } })) },
      },
    ],
  };
  events.splice(last + 1, 0, { data: JSON.stringify(close) });
  return true;
}

/**
 * Rewrites custom tools and custom calls of `exchanges` in place (see the module comment).
 * Returns the indexes of the exchanges it changed. Never throws.
 */
export function rewriteCustomTools(exchanges: Exchange[]): number[] {
  const changed: number[] = [];
  exchanges.forEach((exchange, k) => {
    const body = exchange.request.body;
    let any = isObj(body) && rewriteRequest(body);
    const response = exchange.response.body;
    if (isObj(response) && Array.isArray(response.choices))
      for (const choice of response.choices) {
        const message = isObj(choice) && isObj(choice.message) ? choice.message : undefined;
        if (message && Array.isArray(message.tool_calls) && message.tool_calls.some(isCustom)) {
          message.tool_calls = message.tool_calls.map((call) => (isCustom(call) ? functionCall(call) : call));
          any = true;
        }
      }
    if (exchange.response.events && rewriteEvents(exchange.response.events)) any = true;
    if (any) changed.push(k);
  });
  return changed;
}
