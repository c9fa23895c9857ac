/**
 * `ScriptedModel`: a {@link Model} that plays a fixed list of turns, one per `generate()` call, in
 * the scenario `model` format (`docs/scenario-format.md`, "Model turns"). It fails
 * loudly when the harness asks for more turns than the script has, records every request it got,
 * and can serve a turn as `chat.completion.chunk` deltas so the stream assembler is exercised.
 *
 * Usable on its own (tests, embedding apps): `new ScriptedModel([{ content: 'hi' }])`.
 */
import { providerErrorTurn } from './provider-errors.ts';
import { assembleChunks } from './stream-assembler.ts';
import { ModelError, type Model, type ModelRequest, type ModelResponse, type RawToolCall } from './types.ts';

/**
 * One scripted tool call. `arguments` is sent exactly as given: a string verbatim (so invalid
 * JSON is possible), any other JSON value (object, array, number, null) as that value.
 * A missing `id` is sent missing.
 */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  arguments: unknown;
}

/** A scripted model response. `repeat: N` sends it N times, ids of later copies suffixed `_2`, `_3`, …. */
export interface ScriptedResponseTurn {
  content?: string | null;
  tool_calls?: ScriptedToolCall[];
  /** Default: `tool_calls` when the turn has calls, else `stop`. `""` is sent as it is. */
  finish_reason?: 'stop' | 'tool_calls' | 'length' | 'content_filter' | '';
  /** Reported usage in tokens; absent means the harness estimates with its tokenizer. */
  usage?: { prompt_tokens: number; completion_tokens: number };
  reasoning_content?: string;
  /** Serve the turn as chat.completion.chunk deltas (assembled by index). */
  stream?: boolean;
  repeat?: number;
}

/** A scripted HTTP failure: the call rejects with `ModelError('http_error')`, retryable for 429 and 5xx. */
export interface ScriptedErrorTurn {
  error: { status: number; body?: unknown };
}

/** One entry of a script: a response or an HTTP error. */
export type ScriptedTurn = ScriptedResponseTurn | ScriptedErrorTurn;

/** Options of {@link ScriptedModel}. */
export interface ScriptedModelOptions {
  /** Name shown in reports. @default 'scripted' */
  name?: string;
}

/** True for an `{ error: { status } }` entry. */
export function isErrorTurn(turn: ScriptedTurn): turn is ScriptedErrorTurn {
  return typeof (turn as ScriptedErrorTurn).error === 'object' && (turn as ScriptedErrorTurn).error !== null;
}

/**
 * Expands `repeat: N` into N entries. Copy k (k ≥ 2) gets ids `<id>_k` on every call that has
 * an id; calls without an id stay without one. Pure.
 */
export function expandScript(turns: readonly ScriptedTurn[]): ScriptedTurn[] {
  const out: ScriptedTurn[] = [];
  for (const turn of turns) {
    if (isErrorTurn(turn)) {
      out.push(turn);
      continue;
    }
    const { repeat, ...rest } = turn;
    const times = repeat ?? 1;
    for (let copy = 1; copy <= times; copy += 1) {
      if (copy === 1 || !rest.tool_calls) {
        out.push(rest);
        continue;
      }
      out.push({
        ...rest,
        tool_calls: rest.tool_calls.map((call) =>
          call.id === undefined ? call : { ...call, id: `${call.id}_${copy}` },
        ),
      });
    }
  }
  return out;
}

/**
 * Plays a script of turns. Each `generate()` takes the next entry.
 *
 * Contract: resolves with one whole turn; rejects with `ModelError`:
 * `script_exhausted` when the script has no turn left, `http_error` for an error entry
 * (retryable for 429 and 5xx), `aborted` when `signal` is already aborted.
 */
export class ScriptedModel implements Model {
  readonly name: string;
  /**
   * Every request received, in order, as received: the objects themselves, never copied, so
   * serving a turn costs the same at turn 1,000 as at turn 1 (a deep copy per turn made a run
   * quadratic in its history). The harness never changes a request after sending it (each has
   * its own `messages` array; `RunResult.requests` holds the same objects); a caller that does
   * sees the change here too.
   */
  readonly calls: ModelRequest[] = [];
  /** The chunks of the last streamed turn, for tests. */
  lastChunks: unknown[] = [];
  private readonly turns: ScriptedTurn[];
  private next = 0;

  constructor(turns: readonly ScriptedTurn[], options: ScriptedModelOptions = {}) {
    this.turns = expandScript(turns);
    this.name = options.name ?? 'scripted';
  }

  /** The last request received, or undefined before the first call. */
  get lastCall(): ModelRequest | undefined {
    return this.calls[this.calls.length - 1];
  }

  /** Turns in the expanded script (after `repeat`). */
  get length(): number {
    return this.turns.length;
  }

  /** Turns not served yet. */
  get remaining(): number {
    return this.turns.length - this.next;
  }

  /** Plays the next turn. */
  async generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    if (signal?.aborted) throw new ModelError('aborted', 'the model call was aborted before it started');
    this.calls.push(request);
    const turn = this.turns[this.next];
    if (!turn) {
      const n = this.turns.length;
      throw new ModelError(
        'script_exhausted',
        `the scenario script has ${n} turns and the harness asked for turn ${n + 1}`,
      );
    }
    this.next += 1;
    if (isErrorTurn(turn)) {
      const rejected = providerErrorTurn(turn.error.body);
      if (rejected) return rejected;
      throw httpError(turn.error.status, turn.error.body);
    }
    if (turn.stream) {
      this.lastChunks = chunksForTurn(turn, this.next);
      return assembleChunks(this.lastChunks);
    }
    return responseForTurn(turn);
  }

  /**
   * Throws when script turns were left unused.
   * @throws Error `the scenario script has N turns; M were used`
   */
  assertComplete(): void {
    if (this.next < this.turns.length)
      throw new Error(`the scenario script has ${this.turns.length} turns; ${this.next} were used`);
  }
}

function httpError(status: number, body: unknown): ModelError {
  const retryable = status === 429 || status >= 500;
  const detail = errorMessageOf(body);
  return new ModelError(
    'http_error',
    `HTTP ${status}${detail ? `: ${detail}` : ''}`,
    body === undefined ? { status } : { status, body },
    retryable,
  );
}

function errorMessageOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body;
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  if (typeof error === 'string') return error;
  if (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { message?: unknown }).message === 'string'
  )
    return (error as { message: string }).message;
  return undefined;
}

function defaultFinish(turn: ScriptedResponseTurn): string {
  if (turn.finish_reason !== undefined) return turn.finish_reason;
  return turn.tool_calls && turn.tool_calls.length > 0 ? 'tool_calls' : 'stop';
}

function usageOf(turn: ScriptedResponseTurn): ModelResponse['usage'] | undefined {
  if (!turn.usage) return undefined;
  const { prompt_tokens, completion_tokens } = turn.usage;
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

function responseForTurn(turn: ScriptedResponseTurn): ModelResponse {
  const toolCalls: RawToolCall[] = (turn.tool_calls ?? []).map((call) => ({
    ...(call.id !== undefined ? { id: call.id } : {}),
    type: 'function',
    // A copy, so a harness that changes a call's arguments cannot change the script (strings are values).
    function: {
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : structuredClone(call.arguments),
    },
  }));
  const usage = usageOf(turn);
  return {
    content: turn.content ?? null,
    toolCalls,
    finishReason: defaultFinish(turn),
    ...(usage ? { usage } : {}),
    ...(turn.reasoning_content !== undefined ? { reasoningContent: turn.reasoning_content } : {}),
  };
}

/** Splits a string into up to `parts` pieces by code point (never inside a surrogate pair). */
export function splitPieces(text: string, parts = 3): string[] {
  const chars = Array.from(text);
  if (chars.length <= 1) return [text];
  const size = Math.ceil(chars.length / parts);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/**
 * The chunk objects a streaming server would send for `turn`: a role delta, reasoning and content
 * in pieces, then per tool call (by index) one delta with id, type and name, followed by the
 * argument string in pieces (a non-string argument goes whole in one delta), then the finish
 * reason, then a usage chunk when usage is given. `seq` makes the chunk id unique per turn.
 */
export function chunksForTurn(turn: ScriptedResponseTurn, seq: number): unknown[] {
  const id = `chatcmpl-scripted-${seq}`;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const chunks: unknown[] = [chunk({ role: 'assistant' })];
  if (turn.reasoning_content !== undefined)
    for (const piece of splitPieces(turn.reasoning_content)) chunks.push(chunk({ reasoning_content: piece }));
  if (typeof turn.content === 'string')
    for (const piece of splitPieces(turn.content)) chunks.push(chunk({ content: piece }));
  (turn.tool_calls ?? []).forEach((call, index) => {
    const head: Record<string, unknown> = {
      index,
      type: 'function',
      function: { name: call.name, arguments: '' },
    };
    if (call.id !== undefined) head.id = call.id;
    chunks.push(chunk({ tool_calls: [head] }));
    if (typeof call.arguments === 'string') {
      if (call.arguments !== '')
        for (const piece of splitPieces(call.arguments))
          chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    } else if (call.arguments !== null && call.arguments !== undefined) {
      chunks.push(
        chunk({ tool_calls: [{ index, function: { arguments: structuredClone(call.arguments) } }] }),
      );
    }
  });
  chunks.push(chunk({}, defaultFinish(turn)));
  const usage = usageOf(turn);
  if (usage) chunks.push({ id, object: 'chat.completion.chunk', choices: [], usage });
  return chunks;
}
