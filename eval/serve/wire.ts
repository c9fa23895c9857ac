/**
 * A scripted turn as the bytes an OpenAI-compatible server sends: a `chat.completion` body, or
 * `chat.completion.chunk` server-sent events ending in `data: [DONE]`
 * (https://platform.openai.com/docs/api-reference/chat/streaming). What a turn means is
 * `harness/model/scripted-model.ts` (`expandScript`, `chunksForTurn`); this file only
 * serialises it, with the calls mapped into the harness's tool names first.
 */
import { chunksForTurn, type ScriptedResponseTurn } from '../../harness/model/scripted-model.ts';
import { mapCallOut, type ToolMap } from './tool-map.ts';

/** The `created` field of every body (seconds since the epoch): fixed, so a served run is deterministic. */
const CREATED = 0;

/** The turn with its calls in the harness's names and argument keys. Pure. */
export function mapTurn(turn: ScriptedResponseTurn, map: ToolMap | undefined): ScriptedResponseTurn {
  if (!map || !turn.tool_calls) return turn;
  return { ...turn, tool_calls: turn.tool_calls.map((call) => mapCallOut(call, map)) };
}

function finishOf(turn: ScriptedResponseTurn): string {
  if (turn.finish_reason !== undefined) return turn.finish_reason;
  return turn.tool_calls && turn.tool_calls.length > 0 ? 'tool_calls' : 'stop';
}

/**
 * The non-streaming `chat.completion` body of a turn. A call's `arguments` go as scripted: a
 * string verbatim (invalid JSON included), any other value as that JSON value; a missing call id
 * stays missing. `seq` (1-based turn number) makes the completion id unique.
 */
export function completionBody(
  turn: ScriptedResponseTurn,
  seq: number,
  model: string,
): Record<string, unknown> {
  const message: Record<string, unknown> = { role: 'assistant', content: turn.content ?? null };
  if (turn.reasoning_content !== undefined) message.reasoning_content = turn.reasoning_content;
  if (turn.tool_calls && turn.tool_calls.length > 0)
    message.tool_calls = turn.tool_calls.map((call) => ({
      ...(call.id !== undefined ? { id: call.id } : {}),
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  const body: Record<string, unknown> = {
    id: `chatcmpl-scripted-${seq}`,
    object: 'chat.completion',
    created: CREATED,
    model,
    choices: [{ index: 0, message, finish_reason: finishOf(turn), logprobs: null }],
  };
  if (turn.usage) {
    const { prompt_tokens, completion_tokens } = turn.usage;
    body.usage = { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
  }
  return body;
}

/**
 * The server-sent events of a streamed turn: the chunks of `chunksForTurn` (role, reasoning and
 * content in pieces, each call's head then its arguments in pieces, the finish reason, a usage
 * chunk when the turn reports usage), each with `created` and `model`, then `[DONE]`. Returns
 * the `data:` payloads in order.
 */
export function streamEvents(turn: ScriptedResponseTurn, seq: number, model: string): string[] {
  const chunks = chunksForTurn(turn, seq).map((chunk) => ({
    ...(chunk as Record<string, unknown>),
    created: CREATED,
    model,
  }));
  return [...chunks.map((chunk) => JSON.stringify(chunk)), '[DONE]'];
}

/** An OpenAI-style error body: `{error: {message, type, code}}`. */
export function errorBody(message: string, code: string): Record<string, unknown> {
  return { error: { message, type: code, code, param: null } };
}
