/**
 * The projection of a black-box run (`docs/adapters.md`, "Scoring a black box"): from the
 * requests a foreign harness sent to the model endpoint (`eval/serve/server.ts`), the script it
 * was served and its final answer, what can be known from outside: the requests in our tool
 * names, each scripted tool call with the tool message the harness answered it with (or none),
 * how the harness stopped calling the model, and the number of model calls. Pure.
 */
import { countRequest, countText } from '../../harness/context/tokens.ts';
import { expandScript, isErrorTurn, type ScriptedTurn } from '../../harness/model/scripted-model.ts';
import type { ChatMessage, ModelRequest, ToolSchema } from '../../harness/model/types.ts';
import type { RecordedRequest } from '../serve/server.ts';
import { invertToolMap, mapArguments, ourName, type ToolMap } from '../serve/tool-map.ts';

/** One scripted tool call as the harness handled it. */
export interface ForeignCall {
  /** 0-based turn of the expanded script that made the call, and its position in that turn. */
  turn: number;
  index: number;
  /** The id the script gave the call (absent when the script sent none). */
  id?: string;
  /** Our tool name. */
  name: string;
  /** The arguments as scripted (our keys). */
  arguments: unknown;
  /** The id the harness used for the call when it sent the call back; absent when it never did. */
  sentId?: string;
  /** The text of the harness's tool message for the call; absent when it sent none. */
  answer?: string;
  /**
   * False when the harness sent no request after the turn that made the call: whatever it did
   * with the call, no tool message can be seen (it stopped calling the model).
   */
  observable: boolean;
}

/**
 * How the harness stopped calling the model, as far as the endpoint can tell:
 * - `no_request`: it never sent a chat request;
 * - `final_answer`: its last request was answered with a turn without tool calls;
 * - `tool_calls`: it stopped after a turn with tool calls (a loop or budget stop, or a crash);
 * - `error_turn`: it stopped after a scripted HTTP error;
 * - `script_exhausted`: it asked for more turns than scripted.
 */
export type ForeignEnding = 'no_request' | 'final_answer' | 'tool_calls' | 'error_turn' | 'script_exhausted';

/** What scoring knows of a foreign harness's run. */
export interface ForeignRun {
  /** The chat requests the harness sent, in order, with tool names and argument keys in ours. */
  requests: ModelRequest[];
  /**
   * Chat-completions requests sent (exhausted ones included), retries of a provider error that
   * outlasts the script not counted: each such retry met the same scripted error again.
   */
  modelCalls: number;
  /** Requests that retried a provider error outlasting the script (`RecordedRequest.retry`). */
  retries: number;
  /** Requests answered `script_exhausted`. */
  exhaustedRequests: number;
  /** Turns of the expanded script, and turns served. */
  scriptTurns: number;
  servedTurns: number;
  ending: ForeignEnding;
  /** True when the last turn served was cut off by the output token limit (`finish_reason: length`). */
  lastTurnTruncated: boolean;
  calls: ForeignCall[];
  /** Every call id of the expanded script, served or not. */
  scriptCallIds: string[];
  /** Its final answer (stdout of a command, `finalAnswer` of a module), `null` when it gave none. */
  finalAnswer: string | null;
  /** How the harness's process or `run()` ended, as far as it shows (see {@link HarnessExit}). */
  exit: HarnessExit;
  /**
   * Tokens of the served turns: a turn's reported `usage` where the script gives one, else
   * counted with our tokenizer (`harness/context/tokens.ts`): the request the harness sent as
   * prompt tokens, the turn's text and tool calls as completion tokens. Error turns count nothing.
   */
  tokens: { prompt: number; completion: number };
}

/**
 * How the harness under test ended: `crashed` says how when it did not end cleanly (a non-zero
 * exit code, a signal, an exception thrown by `run()`), `stopReason` is the stop reason it
 * reported itself (a module's `stopReason`, a command's result file), when it did.
 */
export interface HarnessExit {
  crashed?: string;
  stopReason?: string;
}

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The text of a message `content`: a string, or the `text` of its parts joined. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((part) => (isObj(part) && typeof part.text === 'string' ? part.text : '')).join('');
  return content === null || content === undefined ? '' : JSON.stringify(content);
}

/** A request body in our tool names and argument keys (assistant calls and the `tools` list). */
export function unmapRequest(body: Record<string, unknown>, map: ToolMap | undefined): ModelRequest {
  const inverse = invertToolMap(map);
  const messages = (Array.isArray(body.messages) ? body.messages : []).map((message) => {
    if (!isObj(message) || message.role !== 'assistant' || !Array.isArray(message.tool_calls) || !map)
      return message;
    return {
      ...message,
      tool_calls: message.tool_calls.map((call) => {
        if (!isObj(call) || !isObj(call.function) || typeof call.function.name !== 'string') return call;
        const theirs = call.function.name;
        return {
          ...call,
          function: {
            ...call.function,
            name: ourName(theirs, map),
            arguments: mapArguments(call.function.arguments, inverse[theirs]?.args),
          },
        };
      }),
    };
  }) as ChatMessage[];
  const tools = Array.isArray(body.tools)
    ? (body.tools as unknown[]).map((tool) =>
        isObj(tool) && isObj(tool.function) && typeof tool.function.name === 'string'
          ? { ...tool, function: { ...tool.function, name: ourName(tool.function.name, map) } }
          : tool,
      )
    : undefined;
  return {
    ...(body as Partial<ModelRequest>),
    model: typeof body.model === 'string' ? body.model : '',
    messages,
    ...(tools ? { tools: tools as ToolSchema[] } : {}),
  };
}

/**
 * True when the call the harness sent back at a scripted call's position may stand for it (the
 * harness rewrote or left out its id): its id is no other scripted call's of the turn, and, when
 * the harness sent back fewer or more calls than the turn made (positions shifted), it has the same
 * tool name. A harness that drops a call shifts the rest, and the next call (under its own id)
 * must not be credited to the dropped one. Pure.
 */
function positionalMatch(
  sent: unknown,
  call: { id?: string; name: string },
  calls: readonly { id?: string; name: string }[],
  count: number,
): sent is Record<string, unknown> {
  if (!isObj(sent)) return false;
  if (calls.some((other) => other !== call && other.id !== undefined && other.id === sent.id)) return false;
  return count === calls.length || (isObj(sent.function) && sent.function.name === call.name);
}

/** Where, in the requests after `from`, the harness sent back the calls of one turn and answered them. */
function answersOf(
  requests: readonly ModelRequest[],
  from: number,
  calls: readonly { id?: string; name: string }[],
): { sentId?: string; answer?: string }[] {
  const later = requests[from + 1];
  if (!later) return calls.map(() => ({}));
  const messages = later.messages as unknown[];
  // The assistant message that carries the turn: the last one with as many calls, by id or by names.
  const carriers = messages
    .map((m, i) => ({ m, i }))
    .filter(({ m }) => isObj(m) && m.role === 'assistant' && Array.isArray(m.tool_calls));
  const sentCalls = (m: unknown) => (m as { tool_calls: unknown[] }).tool_calls;
  const byId = carriers.filter(({ m }) =>
    sentCalls(m).some((c) => isObj(c) && calls.some((call) => call.id !== undefined && c.id === call.id)),
  );
  const byNames = carriers.filter(({ m }) => {
    const sent = sentCalls(m);
    return (
      sent.length === calls.length &&
      sent.every((c, k) => isObj(c) && isObj(c.function) && c.function.name === calls[k]!.name)
    );
  });
  const carrier = (byId.length > 0 ? byId : byNames).at(-1);
  const toolText = (id: unknown) => {
    if (typeof id !== 'string') return undefined;
    const start = carrier ? carrier.i + 1 : 0;
    const found = messages.slice(start).find((m) => isObj(m) && m.role === 'tool' && m.tool_call_id === id) as
      | { content?: unknown }
      | undefined;
    return found ? contentText(found.content) : undefined;
  };
  return calls.map((call, k) => {
    let sentId: unknown;
    if (carrier) {
      const sent = sentCalls(carrier.m);
      const match = call.id !== undefined ? sent.find((c) => isObj(c) && c.id === call.id) : undefined;
      const at = sent[k];
      sentId = isObj(match) ? match.id : positionalMatch(at, call, calls, sent.length) ? at.id : undefined;
    }
    const answer = toolText(sentId ?? call.id);
    return {
      ...(typeof sentId === 'string' ? { sentId } : {}),
      ...(answer !== undefined ? { answer } : {}),
    };
  });
}

/**
 * Projects the recorded requests of one case (see the module comment). `turns` is the
 * scenario's `model` list (expanded here by the scripted model's rules); `map` the adapter's
 * tool mapping; `finalAnswer` what the harness returned.
 */
export function projectForeignRun(
  recorded: readonly RecordedRequest[],
  turns: readonly ScriptedTurn[],
  map: ToolMap | undefined,
  finalAnswer: string | null | undefined,
  exit: HarnessExit = {},
): ForeignRun {
  const script = expandScript(turns);
  const chat = recorded.filter((r) => ['turn', 'error_turn', 'exhausted'].includes(r.outcome));
  const requests = chat.map((r) => unmapRequest(isObj(r.body) ? r.body : {}, map));
  const calls: ForeignCall[] = [];
  chat.forEach((request, position) => {
    if (request.turn === null) return;
    const turn = script[request.turn];
    if (!turn || isErrorTurn(turn) || !turn.tool_calls?.length) return;
    const scripted = turn.tool_calls.map((call) => ({
      ...(call.id !== undefined ? { id: call.id } : {}),
      name: call.name,
    }));
    const answers = answersOf(requests, position, scripted);
    for (const [index, call] of turn.tool_calls.entries())
      calls.push({
        turn: request.turn,
        index,
        ...(call.id !== undefined ? { id: call.id } : {}),
        name: call.name,
        arguments: call.arguments,
        observable: position + 1 < requests.length,
        ...answers[index],
      });
  });
  const last = chat.at(-1);
  let ending: ForeignEnding = 'no_request';
  if (chat.some((r) => r.outcome === 'exhausted')) ending = 'script_exhausted';
  else if (last?.outcome === 'error_turn') ending = 'error_turn';
  else if (last && last.turn !== null) {
    const turn = script[last.turn];
    ending = turn && !isErrorTurn(turn) && turn.tool_calls?.length ? 'tool_calls' : 'final_answer';
  }
  const retries = chat.filter((r) => r.retry === true).length;
  const tokens = { prompt: 0, completion: 0 };
  chat.forEach((request, position) => {
    const turn = request.turn === null ? undefined : script[request.turn];
    if (!turn || isErrorTurn(turn)) return;
    tokens.prompt += turn.usage?.prompt_tokens ?? countRequest(requests[position]!);
    tokens.completion +=
      turn.usage?.completion_tokens ??
      countText(turn.content ?? '') +
        (turn.tool_calls ?? []).reduce(
          (sum, call) =>
            sum +
            countText(call.name) +
            countText(
              typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
            ),
          0,
        );
  });
  const lastServed = [...chat].reverse().find((r) => r.turn !== null);
  const lastTurn = lastServed ? script[lastServed.turn!] : undefined;
  const lastTurnTruncated =
    lastTurn !== undefined && !isErrorTurn(lastTurn) && lastTurn.finish_reason === 'length';
  return {
    requests,
    modelCalls: chat.length - retries,
    retries,
    exhaustedRequests: chat.filter((r) => r.outcome === 'exhausted').length,
    scriptTurns: script.length,
    servedTurns: new Set(chat.flatMap((r) => (r.turn === null ? [] : [r.turn]))).size,
    ending,
    lastTurnTruncated,
    calls,
    scriptCallIds: script.flatMap((turn) =>
      isErrorTurn(turn) ? [] : (turn.tool_calls ?? []).flatMap((c) => (c.id === undefined ? [] : [c.id])),
    ),
    finalAnswer: finalAnswer ?? null,
    exit,
    tokens,
  };
}

/**
 * Words a tool message uses when it reports an error (`Error: …`, `invalid JSON`, `unknown
 * tool`, `no such file`, `permission denied`, …), or a JSON object with an `error` key or
 * `ok: false`. A heuristic, stated as such in the check's reason: a harness that reports errors
 * in other words is not seen surfacing them.
 */
const ERROR_WORDS =
  /\b(errors?|invalid|unknown|not found|no such|fail(ed|ure)?|cannot|can't|unable|denied|not allowed|refused|exception|malformed|unexpected|parse|could not|not a valid|missing|unsupported|does not exist|unavailable|not available|no implementation)\b/i;

/** True when a tool message's text reports an error (see {@link ERROR_WORDS}). */
export function looksLikeError(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    if (isObj(value) && ('error' in value || value.ok === false || value.isError === true)) return true;
  } catch {
    /* not JSON */
  }
  return ERROR_WORDS.test(text);
}

/** The text parts of an MCP content list (`[{type: 'text', text}]`), joined; `undefined` when `value` is none. */
function partsText(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  if (!value.every((p) => isObj(p) && typeof p.type === 'string')) return undefined;
  return value.map((p) => (p.type === 'text' && typeof p.text === 'string' ? p.text : '')).join('');
}

/**
 * What a tool message says, unwrapped: a harness that passes an MCP tool result on as JSON (the
 * content list `[{"type":"text","text":…}]`, one part, or the whole result `{"content":[…],"isError":…}`)
 * shows the model the text inside; any other message is its own text. Pure.
 */
export function answerText(answer: string): string {
  const start = answer.trimStart()[0];
  if (start !== '[' && start !== '{') return answer;
  try {
    const value: unknown = JSON.parse(answer);
    if (isObj(value) && value.type === 'text' && typeof value.text === 'string') return value.text;
    return partsText(value) ?? (isObj(value) ? partsText(value.content) : undefined) ?? answer;
  } catch {
    return answer;
  }
}
