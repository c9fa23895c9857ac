/**
 * Shapes of the chat-completions API that the replay does not serve as they were recorded,
 * rewritten at import into the shape it does, each rewrite said in `meta.imported.rewritten`:
 *
 * - **Custom tools** (`type: "custom"`): see `./custom-tools.ts`.
 * - **Legacy function calling** (`functions` and `function_call` in the request, an assistant
 *   `function_call`, `role: "function"` results, `finish_reason: "function_call"`; OpenAI
 *   deprecated it for `tools` in 2023, https://platform.openai.com/docs/api-reference/chat/create
 *   `functions`) becomes `tools` / `tool_calls` / `role: "tool"`. A legacy call has no id, so one
 *   is synthesised from where the assistant message sits in the conversation
 *   (`call_legacy_<message index>`): the response of exchange k and its echo in the next request
 *   get the same id, and the `role: "function"` message that follows gets it as `tool_call_id`.
 * - **Several choices** (`n > 1`): the recorded client continued with one of them; the choice
 *   kept is the one whose message the next request of the conversation carries (compared by
 *   content and tool calls). When no later request shows it, the choices are left as recorded
 *   and the replay refuses the turn with the reason (`eval/replay/decode.ts`), never choice 0
 *   in silence.
 */
import { assembleChunks } from '../../harness/model/stream-assembler.ts';
import type { Exchange } from '../cassette/types.ts';
import { bodyMessages, eventObject, isObj, type Obj } from './common.ts';
import { CUSTOM_INPUT, rewriteCustomTools } from './custom-tools.ts';

/** The id given to the legacy call of the assistant message at `messageIndex`. */
export const legacyCallId = (messageIndex: number): string => `call_legacy_${messageIndex}`;

function legacyCall(fn: Obj, id: string | undefined): Obj {
  return {
    ...(id !== undefined ? { id } : {}),
    type: 'function',
    function: {
      ...(typeof fn.name === 'string' ? { name: fn.name } : {}),
      ...(fn.arguments !== undefined ? { arguments: fn.arguments } : {}),
    },
  };
}

/** Rewrites a request body in place; true when it held a legacy shape. */
function rewriteRequest(body: Obj): boolean {
  let changed = false;
  if (Array.isArray(body.functions)) {
    if (!Array.isArray(body.tools))
      body.tools = body.functions.map((fn) => ({ type: 'function', function: fn }));
    delete body.functions;
    changed = true;
  }
  if (body.function_call !== undefined) {
    const choice = body.function_call;
    if (body.tool_choice === undefined)
      body.tool_choice = isObj(choice) ? { type: 'function', function: { name: choice.name } } : choice;
    delete body.function_call;
    changed = true;
  }
  let lastId: string | undefined;
  bodyMessages(body).forEach((message, i) => {
    if (message.role === 'assistant' && isObj(message.function_call) && !Array.isArray(message.tool_calls)) {
      lastId = legacyCallId(i);
      message.tool_calls = [legacyCall(message.function_call, lastId)];
      delete message.function_call;
      changed = true;
    } else if (message.role === 'function') {
      message.role = 'tool';
      if (lastId !== undefined) message.tool_call_id = lastId;
      changed = true;
    }
  });
  return changed;
}

/** Rewrites the choices of a response body or of stream chunks in place; true when any was legacy. */
function rewriteChoices(choices: unknown[], id: string, field: 'message' | 'delta'): boolean {
  let changed = false;
  for (const choice of choices) {
    if (!isObj(choice)) continue;
    const message = choice[field];
    if (isObj(message) && isObj(message.function_call) && !Array.isArray(message.tool_calls)) {
      const fn = message.function_call;
      // A stream names the call on its first delta only; later deltas carry arguments.
      const first = field === 'message' || typeof fn.name === 'string';
      const call: Obj = {
        ...(field === 'delta' ? { index: 0 } : {}),
        ...legacyCall(fn, first ? id : undefined),
      };
      if (!first) delete call.type;
      message.tool_calls = [call];
      delete message.function_call;
      changed = true;
    }
    if (choice.finish_reason === 'function_call') {
      choice.finish_reason = 'tool_calls';
      changed = true;
    }
  }
  return changed;
}

function rewriteResponse(exchange: Exchange, id: string): boolean {
  const { body, events } = exchange.response;
  if (isObj(body) && Array.isArray(body.choices)) return rewriteChoices(body.choices, id, 'message');
  let changed = false;
  for (const event of events ?? []) {
    const chunk = eventObject(event);
    if (!chunk || !Array.isArray(chunk.choices) || !rewriteChoices(chunk.choices, id, 'delta')) continue;
    event.data = JSON.stringify(chunk);
    changed = true;
  }
  return changed;
}

/** A comparable key of an assistant message: its text and its calls' names and arguments. */
function messageKey(message: Obj): string {
  const text = typeof message.content === 'string' ? message.content : '';
  const calls = Array.isArray(message.tool_calls)
    ? message.tool_calls.map((c) =>
        isObj(c) && isObj(c.function) ? [c.function.name, c.function.arguments] : null,
      )
    : [];
  return JSON.stringify([text, calls]);
}

/** The assistant message of each recorded choice, by choice index. */
function choiceMessages(exchange: Exchange): Map<number, Obj> {
  const out = new Map<number, Obj>();
  const { body, events } = exchange.response;
  if (isObj(body) && Array.isArray(body.choices)) {
    body.choices.forEach((choice, i) => {
      if (isObj(choice) && isObj(choice.message))
        out.set(typeof choice.index === 'number' ? choice.index : i, choice.message);
    });
    return out;
  }
  const byIndex = new Map<number, Obj[]>();
  for (const event of events ?? []) {
    const chunk = eventObject(event);
    for (const choice of Array.isArray(chunk?.choices) ? chunk.choices : []) {
      if (!isObj(choice)) continue;
      const index = typeof choice.index === 'number' ? choice.index : 0;
      byIndex.set(index, [...(byIndex.get(index) ?? []), { ...chunk, choices: [{ ...choice, index: 0 }] }]);
    }
  }
  for (const [index, chunks] of byIndex) {
    const turn = assembleChunks(chunks);
    out.set(index, {
      content: turn.content ?? '',
      tool_calls: turn.toolCalls.map((c) => ({
        function: { name: c.function?.name, arguments: c.function?.arguments },
      })),
    });
  }
  return out;
}

/** Keeps choice `chosen` only, renumbered 0. */
function keepChoice(exchange: Exchange, chosen: number): void {
  const { body, events } = exchange.response;
  const pick = (choices: unknown[]) =>
    choices
      .filter((c, i) => isObj(c) && (typeof c.index === 'number' ? c.index : i) === chosen)
      .map((c) => ({ ...(c as Obj), index: 0 }));
  if (isObj(body) && Array.isArray(body.choices)) {
    body.choices = pick(body.choices);
    return;
  }
  exchange.response.events = (events ?? []).flatMap((event) => {
    const chunk = eventObject(event);
    if (!chunk || !Array.isArray(chunk.choices) || chunk.choices.length === 0) return [event];
    const kept = pick(chunk.choices);
    // A chunk of another choice only: dropped; a usage-only chunk (no choices) stays above.
    return kept.length === 0 ? [] : [{ ...event, data: JSON.stringify({ ...chunk, choices: kept }) }];
  });
}

/** The first later exchange whose request continues exchange `k` (its messages extend k's). */
function nextOf(exchanges: readonly Exchange[], k: number): Obj | undefined {
  const length = bodyMessages(exchanges[k]!.request.body).length;
  for (const later of exchanges.slice(k + 1)) {
    const messages = bodyMessages(later.request.body);
    if (messages.length > length && messages[length]?.role === 'assistant') return messages[length];
  }
  return undefined;
}

/**
 * Rewrites legacy function calling and follows the recorded client's choice (see the module
 * comment), in place. Returns one note per kind of rewrite, for `meta.imported.rewritten`.
 * Never throws.
 */
export function rewriteLegacyShapes(exchanges: Exchange[]): string[] {
  const custom = rewriteCustomTools(exchanges);
  const legacy: number[] = [];
  const followed: string[] = [];
  const unresolved: number[] = [];
  exchanges.forEach((exchange, k) => {
    const body = exchange.request.body;
    const id = legacyCallId(bodyMessages(body).length);
    const requestChanged = isObj(body) && rewriteRequest(body);
    if (rewriteResponse(exchange, id) || requestChanged) legacy.push(k);
  });
  exchanges.forEach((exchange, k) => {
    const choices = choiceMessages(exchange);
    if (choices.size < 2) return;
    const next = nextOf(exchanges, k);
    const key = next ? messageKey(next) : undefined;
    const chosen = [...choices].find(([, message]) => messageKey(message) === key)?.[0];
    if (chosen === undefined) {
      unresolved.push(k);
      return;
    }
    keepChoice(exchange, chosen);
    followed.push(`${k}: choice ${chosen} of ${choices.size}`);
  });
  const notes: string[] = [];
  if (custom.length > 0)
    notes.push(
      `custom tools (type "custom", free-form input) read as function tools with one string parameter "${CUSTOM_INPUT}" in exchange${custom.length === 1 ? '' : 's'} ${custom.join(', ')}`,
    );
  if (legacy.length > 0)
    notes.push(
      `legacy function calling (functions, function_call, role "function") read as tools and tool_calls in exchange${legacy.length === 1 ? '' : 's'} ${legacy.join(', ')}; call ids synthesised as call_legacy_<message index>`,
    );
  if (followed.length > 0)
    notes.push(
      `several choices (n > 1): kept the one the next request continued (exchange ${followed.join('; ')})`,
    );
  if (unresolved.length > 0)
    notes.push(
      `several choices (n > 1) and no later request shows which one the client used (exchange ${unresolved.join(', ')}): the replay refuses that turn`,
    );
  return notes;
}
