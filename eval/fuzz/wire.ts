/**
 * The wire transport: a script served to the live `OpenAIModel` over a fake `fetch`, one HTTP
 * exchange per model call. Streamed turns go out as SSE (`chat.completion.chunk` objects from
 * the scripted model's own chunker), other turns as `chat.completion` JSON bodies, error turns
 * as HTTP errors; the body's bytes are cut at arbitrary points, so a chunk boundary can fall
 * inside a multi-byte UTF-8 character, a surrogate pair's encoding, or an `"index"`/`"id"`
 * field. A shadow `ScriptedModel` plays the same script, and every turn the live client
 * assembles must equal the shadow's (a difference is a stream-assembly bug).
 */
import { isDeepStrictEqual } from 'node:util';
import type { HarnessDeps } from '../../harness/deps.ts';
import { OpenAIModel } from '../../harness/model/openai-model.ts';
import {
  chunksForTurn,
  expandScript,
  isErrorTurn,
  ScriptedModel,
  type ScriptedResponseTurn,
  type ScriptedTurn,
} from '../../harness/model/scripted-model.ts';
import type { Model, ModelRequest, ModelResponse } from '../../harness/model/types.ts';
import { type DeltaShape, shapedChunks } from './deltas.ts';

/** At most this many pieces per body (a cut every byte of a 60 kB body would be 60,000 reads). */
export const MAX_PIECES = 2_000;

/**
 * Cuts `bytes` at `cuts` (modulo its length; one negative entry `-k` cuts every k bytes, or
 * more sparsely so that there are at most {@link MAX_PIECES} pieces).
 */
export function cutBytes(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  if (bytes.length === 0) return [];
  let points: number[];
  if (cuts.length === 1 && cuts[0]! < 0) {
    const step = Math.max(-cuts[0]!, Math.ceil(bytes.length / MAX_PIECES));
    points = [];
    for (let at = step; at < bytes.length; at += step) points.push(at);
  } else points = [...new Set(cuts.map((c) => c % bytes.length).filter((c) => c > 0))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let last = 0;
  for (const point of [...points, bytes.length]) {
    pieces.push(bytes.slice(last, point));
    last = point;
  }
  return pieces;
}

/** The SSE text of one streamed turn, as a server sends it (`data: {...}` events, then `[DONE]`). */
export function sseText(turn: ScriptedResponseTurn, seq: number, shape?: DeltaShape): string {
  return `${(shape ? shapedChunks(turn, seq, shape) : chunksForTurn(turn, seq))
    .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
    .join('')}data: [DONE]\n\n`;
}

/** The `chat.completion` body of one whole turn, field for field what the scripted model returns. */
export function completionBody(turn: ScriptedResponseTurn, seq: number): Record<string, unknown> {
  const calls = (turn.tool_calls ?? []).map((call) => ({
    ...(call.id !== undefined ? { id: call.id } : {}),
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  const finish =
    turn.finish_reason !== undefined ? turn.finish_reason : calls.length > 0 ? 'tool_calls' : 'stop';
  return {
    id: `chatcmpl-wire-${seq}`,
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: turn.content ?? null,
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
          ...(turn.reasoning_content !== undefined ? { reasoning_content: turn.reasoning_content } : {}),
        },
        finish_reason: finish,
      },
    ],
    ...(turn.usage
      ? { usage: { ...turn.usage, total_tokens: turn.usage.prompt_tokens + turn.usage.completion_tokens } }
      : {}),
  };
}

function bodyStream(text: string, cuts: readonly number[]): ReadableStream<Uint8Array> {
  const pieces = cutBytes(new TextEncoder().encode(text), cuts);
  let next = 0;
  return new ReadableStream({
    pull(controller) {
      if (next < pieces.length) controller.enqueue(pieces[(next += 1) - 1]!);
      else controller.close();
    },
  });
}

/**
 * Drops what legitimately differs between transports: the stream `index` of each call, an
 * empty reasoning text (the scripted model keeps `reasoning_content: ""`, a live client cannot
 * tell it from none), and `reasoningField: 'reasoning_content'` (the live client names the wire
 * field the reasoning came in; absent means the same field, `harness/model/reasoning.ts`).
 */
function comparable(response: ModelResponse): unknown {
  const { reasoningContent, reasoningField, ...rest } = response;
  return {
    ...rest,
    ...(reasoningContent ? { reasoningContent } : {}),
    ...(reasoningContent && reasoningField && reasoningField !== 'reasoning_content'
      ? { reasoningField }
      : {}),
    toolCalls: response.toolCalls.map(({ index: _index, ...call }) => call),
  };
}

/** Why the live client's turn differs from the scripted one, or undefined when they agree. */
export function turnMismatch(actual: ModelResponse, expected: ModelResponse): string | undefined {
  if (isDeepStrictEqual(comparable(actual), comparable(expected))) return undefined;
  return `the live client assembled ${JSON.stringify(comparable(actual)).slice(0, 400)}, the script says ${JSON.stringify(comparable(expected)).slice(0, 400)}`;
}

/** A model that serves `turns` over the wire and checks each turn against a shadow scripted model. */
export class WireModel implements Model {
  readonly name = 'wire';
  /** Every request received, in order (deep copies). */
  readonly calls: ModelRequest[] = [];
  /** Turns where the live client assembled something other than the scripted turn. */
  readonly mismatches: string[] = [];
  private readonly turns: ScriptedTurn[];
  private readonly shadow: ScriptedModel;
  private readonly live: OpenAIModel;
  private next = 0;

  constructor(
    turns: readonly ScriptedTurn[],
    cuts: readonly number[],
    deps: Pick<HarnessDeps, 'sleep' | 'random'>,
    shape?: DeltaShape,
  ) {
    this.turns = expandScript(turns);
    this.shadow = new ScriptedModel(turns);
    const fetch = async (): Promise<Response> => {
      const seq = this.next;
      const turn = this.turns[seq];
      this.next += 1;
      if (!turn)
        return Response.json(
          { error: { message: `the script has ${this.turns.length} turns` } },
          { status: 404 },
        );
      if (isErrorTurn(turn)) {
        const { status, body } = turn.error;
        return typeof body === 'string' || body === undefined
          ? new Response(body ?? '', { status })
          : Response.json(body, { status });
      }
      if (turn.stream)
        return new Response(bodyStream(sseText(turn, seq + 1, shape), cuts), {
          status: 200,
          headers: { 'content-type': 'text/event-stream' },
        });
      return new Response(bodyStream(JSON.stringify(completionBody(turn, seq + 1)), cuts), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    };
    this.live = new OpenAIModel({
      apiKey: 'fuzz',
      baseURL: 'http://127.0.0.1:9/v1',
      fetch: fetch as typeof globalThis.fetch,
      deps,
      maxAttempts: 1,
    });
  }

  async generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    this.calls.push(structuredClone(request));
    const turn = this.turns[this.next];
    const streamed = turn !== undefined && !isErrorTurn(turn) && turn.stream === true;
    const seq = this.next + 1;
    let expected: ModelResponse | undefined;
    try {
      expected = await this.shadow.generate(request, signal);
    } catch {
      expected = undefined;
    }
    try {
      const actual = await this.live.generate({ ...request, stream: streamed }, signal);
      if (!expected)
        this.mismatches.push(`turn ${seq}: the scripted model failed, the live client returned a turn`);
      else {
        const mismatch = turnMismatch(actual, expected);
        if (mismatch) this.mismatches.push(`turn ${seq}: ${mismatch}`);
      }
      return actual;
    } catch (error) {
      if (expected)
        this.mismatches.push(
          `turn ${seq}: the live client failed (${(error as Error).message}), the script has a turn`,
        );
      throw error;
    }
  }
}
