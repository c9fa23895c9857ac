/**
 * Replay at the HTTP level, for cassettes we recorded: the live client (`OpenAIModel`, the
 * `openai` SDK) runs exactly as it did while recording, with a placeholder API key and an
 * injected `fetch` that serves the recorded exchanges instead of the network. Retries after a
 * 429 or 500, `retry-after`, a 400 `tool_use_failed` and an error event inside a 200 stream
 * therefore replay through the same code that met them live, each attempt taking one exchange.
 *
 * Matching (`docs/recording-format.md`, "Replay"): `strict` stops the run at the
 * first request that differs (after normalisation), `sequential` serves by order and reports
 * differences, `counterfactual` follows the recording until the first difference and then hands
 * the run over to another model (or stops with a message saying so).
 */
import { OpenAIModel } from '../../harness/model/openai-model.ts';
import { ModelError, type Model, type ModelRequest, type ModelResponse } from '../../harness/model/types.ts';
import type { HarnessDeps } from '../../harness/deps.ts';
import type { Cassette, Exchange, RecordedResponse } from '../cassette/types.ts';
import { replaceInStrings, WORKSPACE_PLACEHOLDER } from '../record/redact.ts';
import { diffJson, formatDivergence, normaliseBody, type Divergence } from './request-diff.ts';
import { isChatCompletionsPath, modelExchangeIndexes } from '../import/classify.ts';

/** How requests are matched to recorded exchanges. */
export type MatchMode = 'strict' | 'sequential' | 'counterfactual';

/** The API key the replay client sends (no key is needed or read). */
export const PLACEHOLDER_API_KEY = 'replay-needs-no-key';

/** The base URL the replay client is given; nothing is ever sent there. */
export const REPLAY_BASE_URL = 'http://cassette.replay.invalid/v1';

/** A recorded response as a fetch `Response`: events become an SSE stream, one event per chunk. */
export function responseFromRecorded(recorded: RecordedResponse): Response {
  const headers = new Headers(recorded.headers);
  if (recorded.events) {
    if (!headers.has('content-type')) headers.set('content-type', 'text/event-stream');
    const encoder = new TextEncoder();
    const events = [...recorded.events];
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          const next = events.shift();
          if (!next) return controller.close();
          controller.enqueue(
            encoder.encode(
              `${next.data
                .split('\n')
                .map((line) => `data: ${line}`)
                .join('\n')}\n\n`,
            ),
          );
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status: recorded.status, headers });
  }
  if (!headers.has('content-type'))
    headers.set('content-type', typeof recorded.body === 'string' ? 'text/plain' : 'application/json');
  const text =
    recorded.body === undefined
      ? ''
      : typeof recorded.body === 'string'
        ? recorded.body
        : JSON.stringify(recorded.body);
  return new Response(text, { status: recorded.status, headers });
}

/**
 * Why the replay fetch refused a request (the client then sees a synthetic 400); the model
 * wrapper turns it into the run's outcome: the error, or the counterfactual hand-over.
 */
export type Refusal =
  | { kind: 'error'; error: ModelError }
  | { kind: 'handover'; exchange: number; divergence: Divergence };

/**
 * The `fetch` that serves a cassette's model exchanges in order (non-model traffic is never
 * served, `traffic.ts`) and keeps every divergence: of the body, and of the request line, as
 * `(method)` and `(path)` divergences (the path compared by its endpoint, so a recording made
 * against another base URL still matches).
 */
export class CassetteFetch {
  /** Every divergence seen, in exchange order. */
  readonly divergences: Divergence[] = [];
  readonly fetch: typeof globalThis.fetch;
  /** Set when a counterfactual replay left the recording: the exchange it diverged at. */
  handoverAt: number | undefined;
  private cursor = 0;
  private refusal: Refusal | undefined;
  private readonly model: readonly number[];

  /**
   * @param workspace the replay's workspace: `$WORKSPACE` in recorded responses becomes this
   *   path, and this path in the requests sent becomes `$WORKSPACE` before they are compared
   */
  constructor(
    readonly cassette: Cassette,
    readonly mode: MatchMode,
    readonly workspace?: string,
  ) {
    this.model = modelExchangeIndexes(cassette);
    this.fetch = async (input, init) => {
      if (init?.signal?.aborted) throw new DOMException('This operation was aborted', 'AbortError');
      const { exchanges } = this.cassette;
      if (this.cursor >= this.model.length)
        return this.refuse({
          kind: 'error',
          error: new ModelError(
            'recording_exhausted',
            `the recording has ${this.model.length} model exchange${this.model.length === 1 ? '' : 's'} and all were used; the harness asked for one more`,
          ),
        });
      const index = this.model[this.cursor]!;
      const exchange = exchanges[index]!;
      const diffs = [
        ...requestLineDiffs(exchange, input, init, index),
        ...compareRequest(exchange, init?.body, index, this.workspace),
      ];
      if (diffs.length > 0) {
        this.divergences.push(...diffs);
        if (this.mode === 'counterfactual') {
          this.handoverAt = index;
          return this.refuse({ kind: 'handover', exchange: index, divergence: diffs[0]! });
        }
        if (this.mode === 'strict') {
          this.cursor += 1;
          const total = diffs.reduce((sum, d) => sum + (d.kind === 'omitted' ? (d.omitted ?? 0) : 1), 0);
          const more = total > 1 ? ` (and ${total - 1} more)` : '';
          return this.refuse({
            kind: 'error',
            error: new ModelError(
              'recording_mismatch',
              `request ${index} differs from the recording at ${formatDivergence(diffs[0]!)}${more}`,
              { body: diffs },
            ),
          });
        }
      }
      this.cursor += 1;
      return responseFromRecorded(
        this.workspace
          ? replaceInStrings(exchange.response, [[WORKSPACE_PLACEHOLDER, this.workspace]])
          : exchange.response,
      );
    };
  }

  /** Exchanges served so far (a mismatched one in strict mode counts: the cursor moved past it). */
  get used(): number {
    return this.cursor;
  }

  /** The recorded model exchanges no request reached, with their 0-based index. */
  unusedExchanges(): { index: number; exchange: Exchange }[] {
    return this.model
      .slice(this.cursor)
      .map((index) => ({ index, exchange: this.cassette.exchanges[index]! }));
  }

  /** Takes the pending refusal (set by the last request the fetch refused), if any. */
  takeRefusal(): Refusal | undefined {
    const refusal = this.refusal;
    this.refusal = undefined;
    return refusal;
  }

  private refuse(refusal: Refusal): Response {
    this.refusal = refusal;
    const code = refusal.kind === 'error' ? refusal.error.code : 'counterfactual_handover';
    return new Response(
      JSON.stringify({ error: { message: 'refused by the replay', type: 'replay', code } }),
      { status: 400, headers: { 'content-type': 'application/json' } },
    );
  }
}

/** The method and the endpoint of the request sent, against the recorded request line. */
function requestLineDiffs(
  exchange: Exchange,
  input: Parameters<typeof globalThis.fetch>[0],
  init: RequestInit | undefined,
  index: number,
): Divergence[] {
  const out: Divergence[] = [];
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const recordedMethod = (exchange.request.method ?? '').toUpperCase();
  if (method !== recordedMethod)
    out.push({
      exchange: index,
      path: '(method)',
      kind: 'changed',
      recorded: recordedMethod,
      replayed: method,
    });
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const sent = new URL(url).pathname;
  if (isChatCompletionsPath(sent) !== isChatCompletionsPath(exchange.request.path ?? ''))
    out.push({
      exchange: index,
      path: '(path)',
      kind: 'changed',
      recorded: exchange.request.path,
      replayed: sent,
    });
  return out;
}

function compareRequest(exchange: Exchange, body: unknown, index: number, workspace?: string): Divergence[] {
  const recorded = exchange.request.body;
  if (!recorded) return [];
  let sent: unknown;
  try {
    sent = typeof body === 'string' ? JSON.parse(body) : {};
  } catch {
    sent = {};
  }
  if (workspace) sent = replaceInStrings(sent, [[workspace, WORKSPACE_PLACEHOLDER]]);
  const dropModel = !('model' in recorded);
  return diffJson(
    normaliseBody(recorded, { dropModel }),
    normaliseBody(sent as Record<string, unknown>, { dropModel }),
    index,
  );
}

/** Options of {@link HttpReplayModel}. */
export interface HttpReplayOptions {
  mode: MatchMode;
  /** Retries and backoff draw from these (the replayed ones, so jitter matches the recording). */
  deps: Pick<HarnessDeps, 'sleep' | 'random'>;
  /** Counterfactual only: the model that takes over at the first divergence. */
  then?: Model;
  /** The replay's workspace (see {@link CassetteFetch}). */
  workspace?: string;
}

/**
 * The frozen model of one of our cassettes: `OpenAIModel` over a {@link CassetteFetch}. Create
 * one per replay; it may serve several runs of one session (a chat) in turn.
 */
export class HttpReplayModel implements Model {
  readonly name: string;
  readonly source: CassetteFetch;
  /** Set once a counterfactual replay handed over: every later turn comes from `then`. */
  handedOver = false;
  private readonly live: OpenAIModel;

  constructor(
    cassette: Cassette,
    private readonly options: HttpReplayOptions,
  ) {
    this.name = `replay:${cassette.meta.id}`;
    this.source = new CassetteFetch(cassette, options.mode, options.workspace);
    this.live = new OpenAIModel({
      baseURL: REPLAY_BASE_URL,
      apiKey: PLACEHOLDER_API_KEY,
      fetch: this.source.fetch,
      deps: options.deps,
    });
  }

  /** Divergences seen so far. */
  get divergences(): Divergence[] {
    return this.source.divergences;
  }

  /** Exchanges taken so far. */
  get used(): number {
    return this.source.used;
  }

  /** Recorded exchanges not reached. */
  unusedExchanges(): { index: number; exchange: Exchange }[] {
    return this.source.unusedExchanges();
  }

  /**
   * Serves the next recorded turn through the live client.
   * @throws ModelError `recording_mismatch` (strict, or counterfactual with no model to hand
   *   over to), `recording_exhausted`, `aborted`, or the recorded failure.
   */
  async generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    if (this.handedOver) return this.handOver(request, signal);
    try {
      const response = await this.live.generate(request, signal);
      const refusal = this.source.takeRefusal();
      if (refusal) return this.settle(refusal, request, signal);
      return response;
    } catch (error) {
      const refusal = this.source.takeRefusal();
      if (refusal) return this.settle(refusal, request, signal);
      throw error;
    }
  }

  private settle(refusal: Refusal, request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    if (refusal.kind === 'error') throw refusal.error;
    this.handedOver = true;
    if (!this.options.then)
      throw new ModelError(
        'recording_mismatch',
        `counterfactual replay: the harness left the recording at request ${refusal.exchange} (${formatDivergence(refusal.divergence)}) and there is no model to hand over to (give scripted turns to continue with)`,
      );
    return this.handOver(request, signal);
  }

  private handOver(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    if (!this.options.then)
      throw new ModelError('recording_exhausted', 'counterfactual replay: no model to hand over to');
    return this.options.then.generate(request, signal);
  }
}
