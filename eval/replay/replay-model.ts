/**
 * `ReplayModel`: the model side of a cassette, frozen. Each `generate` finds the recorded model
 * exchange that answers the request, compares the request the harness would send with the
 * recorded one, and returns the recorded turn (or raises the recorded error).
 *
 * Matching follows conversations, not only order (`conversations.ts`): of the model exchanges
 * not yet served, the one whose recorded messages share the longest prefix with the request's
 * (by message signature) answers it, the earliest on a tie; an exchange that shares not even
 * the first message belongs to another conversation and is only taken when no other is left.
 * So side conversations recorded interleaved with the main one (sub-agents, team members, MCP
 * sampling) are served to the right caller; an imported replay also confines each run to its
 * conversation's exchanges ({@link ReplayModel.scope}). Non-model traffic
 * (`import/classify.ts`) is never served.
 * A retryable recorded failure (429, 5xx) followed by the same request recorded again is
 * retried as the live client retries, up to {@link REPLAY_ATTEMPTS} exchanges per call.
 *
 * Modes (`docs/recording-format.md`, "Replay"): `strict` rejects on the first divergence with
 * `recording_mismatch`; `sequential` serves and only records divergences. Default:
 * `sequential` for imported cassettes, `strict` for our own.
 */
import { contentText } from '../../harness/model/content.ts';
import { wireBody } from '../../harness/model/openai-model.ts';
import {
  ModelError,
  type ChatMessage,
  type Model,
  type ModelRequest,
  type ModelResponse,
} from '../../harness/model/types.ts';
import type { Cassette, Exchange } from '../cassette/types.ts';
import { bodyMessages } from '../import/common.ts';
import { CLIENT_ROLES, clientContinuation, clientEdits, sharedPrefix } from './conversations.ts';
import { decodeRecordedResponse } from './decode.ts';
import { explainDivergence } from './explain.ts';
import { argumentsKey } from './recorded-tools.ts';
import { capValue, diffJson, formatDivergence, normaliseBody, type Divergence } from './request-diff.ts';
import { modelExchangeIndexes } from '../import/classify.ts';

/** How requests are matched to recorded exchanges. */
export type ReplayMode = 'strict' | 'sequential';

/** Exchanges one `generate` may take for a retried call (the live client's default attempts). */
export const REPLAY_ATTEMPTS = 4;

/** The default mode of a cassette: `sequential` when it was imported, `strict` otherwise. */
export function defaultReplayMode(cassette: Cassette): ReplayMode {
  return cassette.meta.imported ? 'sequential' : 'strict';
}

/** Options of {@link ReplayModel}. */
export interface ReplayModelOptions {
  /**
   * The recorded result the replay's tools served for a call id (`RecordedToolbox.servedResult`),
   * to explain a divergence in a tool message the harness wrote itself.
   */
  servedResult?: (callId: string) => string | undefined;
}

type Messages = readonly Record<string, unknown>[];

/** The frozen model of one cassette. Not reusable across runs of different cases: create one per case. */
export class ReplayModel implements Model {
  readonly name: string;
  /** Every divergence seen so far, in serving order (see {@link Divergence}). */
  readonly divergences: Divergence[] = [];
  /** Recorded responses that decoded to no turn (`invalid_response`): a failure of the replay. */
  readonly invalid: { exchange: number; message: string }[] = [];
  /** Indexes of the model exchanges, in recorded order. */
  readonly modelExchanges: readonly number[];
  /** Turns served: recorded responses returned as a turn (recorded errors not counted). */
  served = 0;
  /**
   * Recorded provider errors raised to the harness as the live client would have raised them (a
   * 401, a 404 for a removed model, an error event in a 200 stream); invalid responses not counted.
   */
  raised = 0;
  /** The exchange served last, for recorded tools that prefer calls of that turn. */
  lastServed: number | undefined;
  /**
   * The exchanges requests may be answered from (one conversation's, set by the driver of an
   * imported replay before each run); `undefined`: every model exchange. A request is never
   * answered from another conversation: when this one has no exchange left, the recording ends
   * here for the run (`recording_exhausted`).
   */
  scope: ReadonlySet<number> | undefined;
  /** The exchange the current run's settings and tools were planned from (`planStart`), set with {@link scope}. */
  plannedFrom: number | undefined;
  private readonly taken = new Set<number>();
  private lastTurn: ModelResponse | undefined;
  private calls: Set<string> | undefined;
  private readonly responseOnly: boolean;

  constructor(
    readonly cassette: Cassette,
    readonly mode: ReplayMode = defaultReplayMode(cassette),
    private readonly options: ReplayModelOptions = {},
  ) {
    this.name = `replay:${cassette.meta.id}`;
    this.modelExchanges = modelExchangeIndexes(cassette);
    this.responseOnly = this.modelExchanges.every((i) => !cassette.exchanges[i]!.request.body);
  }

  /** Exchanges taken so far (a mismatched one in strict mode counts: it was reached). */
  get used(): number {
    return this.taken.size;
  }

  /** The exchanges taken so far (served, or raised as a recorded error), in the order taken. */
  takenExchanges(): number[] {
    return [...this.taken];
  }

  /** The model exchanges no `generate` reached, with their 0-based index. */
  unusedExchanges(): { index: number; exchange: Exchange }[] {
    return this.modelExchanges
      .filter((i) => !this.taken.has(i))
      .map((index) => ({ index, exchange: this.cassette.exchanges[index]! }));
  }

  /**
   * The exchange that would answer a request with `messages` (see the module comment), or
   * `undefined` when every model exchange was served.
   */
  pick(messages: readonly ChatMessage[]): number | undefined {
    const open = this.modelExchanges.filter((i) => !this.taken.has(i) && (!this.scope || this.scope.has(i)));
    if (this.responseOnly || open.length === 0) return open[0];
    const sent = messages as unknown as Messages;
    let best: number | undefined;
    let bestScore = -1;
    for (const i of open) {
      const recorded = bodyMessages(this.cassette.exchanges[i]!.request.body);
      const score = sharedPrefix(recorded, sent);
      const exact = score === sent.length && recorded.length === sent.length ? 0.5 : 0;
      if (score + exact > bestScore) {
        best = i;
        bestScore = score + exact;
      }
    }
    return bestScore >= 1 ? best : open[0];
  }

  /**
   * The client-written messages (user, system) the recording adds after `messages` in the
   * request that would answer them next (`conversations.ts`, `clientContinuation`): what the
   * recorded client added between turns. `undefined` when the next request does not continue
   * this conversation; `[]` when it repeats the history with nothing added.
   */
  continuation(messages: readonly ChatMessage[]): ChatMessage[] | undefined {
    const next = this.pick(messages);
    if (next === undefined) return undefined;
    const recorded = bodyMessages(this.cassette.exchanges[next]!.request.body);
    const sent = messages as unknown as Messages;
    if (sent.length > 0 && sharedPrefix(recorded, sent) === 0) return undefined;
    return clientContinuation(sent, recorded)?.map((m) => structuredClone(m) as unknown as ChatMessage);
  }

  /**
   * The history the next run of this conversation starts from, after a run that ended with a
   * final answer, or `undefined` when the recording does not continue it from there. The next
   * request of the conversation continues `messages` when it appends client messages (a second
   * user turn, a crew's next task: `messages` and those), or when the recorded client edited its
   * history first in a way only a client does (`conversations.ts`, {@link clientEdits}: client
   * messages inserted, the model's last message rewritten): then the run starts from the
   * recorded history, and each edit is an explained divergence (a client habit).
   */
  nextHistory(messages: readonly ChatMessage[]): ChatMessage[] | undefined {
    const next = this.pick(messages);
    if (next === undefined) return undefined;
    const recorded = bodyMessages(this.cassette.exchanges[next]!.request.body);
    const sent = messages as unknown as Messages;
    if (sent.length > 0 && sharedPrefix(recorded, sent) === 0) return undefined;
    const edits = clientEdits(sent, recorded, this.servedMessage());
    if (edits && edits.length > 0) {
      const last = sent.at(-1);
      for (const edit of edits)
        this.divergences.push(
          edit.kind === 'inserted'
            ? {
                exchange: next,
                path: `/messages/${edit.at}`,
                kind: 'missing',
                recorded: capValue(recorded[edit.at]),
                explained: `client habit: the recorded client inserted this ${String(recorded[edit.at]!.role)} message into its history before its next request; the replay continues from the recorded history`,
              }
            : {
                exchange: next,
                path: `/messages/${edit.at}/content`,
                kind: 'changed',
                recorded: capValue(contentText(recorded[edit.at]!.content as ChatMessage['content'])),
                replayed: capValue(contentText(last?.content as ChatMessage['content'])),
                explained:
                  "client habit: the recorded client rewrote the model's last message in its history (a text-protocol agent writing its tool's observation into it); the replay continues from the recorded history",
              },
        );
      return recorded.map((m) => structuredClone(m) as unknown as ChatMessage);
    }
    const more = clientContinuation(sent, recorded);
    return more ? [...messages, ...more.map((m) => structuredClone(m) as unknown as ChatMessage)] : undefined;
  }

  /**
   * True when the recorded request of exchange `next` holds client messages only (system, user):
   * a new session of the recorded client (a test calling the model again with the same prompt,
   * a new attempt after an error), which a new run can start from whatever the harness decided
   * before. A request whose history holds model turns the harness did not reach is not: the
   * replay never puts the harness on a path its own decisions left.
   */
  startsFresh(next: number): boolean {
    const recorded = bodyMessages(this.cassette.exchanges[next]?.request.body);
    return recorded.length > 0 && recorded.every((m) => CLIENT_ROLES.has(String(m.role)));
  }

  /** `name:arguments` of every call a recorded model response of the cassette made (computed once). */
  private modelCalls(): Set<string> {
    if (!this.calls) {
      this.calls = new Set();
      for (const i of this.modelExchanges) {
        try {
          for (const call of decodeRecordedResponse(this.cassette.exchanges[i]!.response, i).toolCalls)
            this.calls.add(`${call.function?.name ?? ''}:${argumentsKey(call.function?.arguments)}`);
        } catch {
          // A recorded error made no call.
        }
      }
    }
    return this.calls;
  }

  /** The assistant message the last served exchange's recorded response holds (JSON bodies), else the turn served. */
  private servedMessage(): Record<string, unknown> | undefined {
    if (this.lastServed === undefined) return undefined;
    const body = this.cassette.exchanges[this.lastServed]!.response.body as
      | { choices?: { message?: Record<string, unknown> }[] }
      | undefined;
    const message = Array.isArray(body?.choices) ? body.choices[0]?.message : undefined;
    if (message && typeof message === 'object') return message;
    return this.lastTurn ? { role: 'assistant', content: this.lastTurn.content } : undefined;
  }

  /**
   * Serves the recorded turn that answers `request`.
   *
   * @throws ModelError `aborted` when `signal` is aborted; `recording_exhausted` when every
   *   model exchange was used; `recording_mismatch` in strict mode when the request differs (the
   *   message names the first difference, `data.body` holds this exchange's divergences);
   *   `invalid_response` when the recorded response is no chat completion; the recorded
   *   failure otherwise (see `decodeRecordedResponse`), after retrying a retryable one.
   */
  async generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw new ModelError('aborted', 'the model call was aborted');
      const index = this.pick(request.messages);
      if (index === undefined) {
        const n = this.modelExchanges.length;
        const scoped = this.scope && this.modelExchanges.some((i) => !this.taken.has(i));
        throw new ModelError(
          'recording_exhausted',
          scoped
            ? `this conversation of the recording has no model exchange left (${this.scope!.size} recorded); the harness asked for one more`
            : `the recording has ${n} model exchange${n === 1 ? '' : 's'} and all were used; the harness asked for one more`,
        );
      }
      this.taken.add(index);
      this.compare(index, request);
      try {
        const turn = decodeRecordedResponse(this.cassette.exchanges[index]!.response, index);
        this.served += 1;
        this.lastServed = index;
        this.lastTurn = turn;
        return turn;
      } catch (error) {
        if (!(error instanceof ModelError)) throw error;
        if (error.code === 'invalid_response') this.invalid.push({ exchange: index, message: error.message });
        else this.raised += 1;
        if (!error.retryable || attempt >= REPLAY_ATTEMPTS || !this.retriedNext(request)) throw error;
      }
    }
  }

  /** True when the next exchange for the same request repeats it exactly (the client's retry). */
  private retriedNext(request: ModelRequest): boolean {
    const next = this.pick(request.messages);
    if (next === undefined) return false;
    const recorded = bodyMessages(this.cassette.exchanges[next]!.request.body);
    return (
      recorded.length === request.messages.length &&
      sharedPrefix(recorded, request.messages as unknown as Messages) === recorded.length
    );
  }

  private compare(index: number, request: ModelRequest): void {
    const recorded = this.cassette.exchanges[index]!.request.body;
    if (!recorded) return;
    const dropModel = !('model' in recorded);
    const sent = wireBody(request);
    const normalisedSent = normaliseBody(sent, { dropModel });
    const normalisedRecorded = normaliseBody(recorded, { dropModel });
    let diffs = diffJson(normalisedRecorded, normalisedSent, index);
    const servedResult = this.options.servedResult;
    if (servedResult && diffs.length > 0) {
      const conversation = [this.plannedFrom, ...(this.scope ?? [])]
        .flatMap((i) => (i === undefined ? [] : [this.cassette.exchanges[i]?.request.body]))
        .flatMap((body) => (body ? [normaliseBody(body, { dropModel })] : []));
      const context = {
        sent: sent.messages as ChatMessage[],
        history: request.messages,
        normalisedSent,
        normalisedRecorded,
        conversation,
        servedResult,
        modelMadeCall: (name: string, args: unknown) =>
          this.modelCalls().has(`${name}:${argumentsKey(args)}`),
      };
      diffs = diffs.map((d) => explainDivergence(d, context));
    }
    this.divergences.push(...diffs);
    if (this.mode === 'strict' && diffs.length > 0) {
      const total = diffs.reduce((sum, d) => sum + (d.kind === 'omitted' ? (d.omitted ?? 0) : 1), 0);
      const more = total > 1 ? ` (and ${total - 1} more)` : '';
      throw new ModelError(
        'recording_mismatch',
        `request ${index} differs from the recording at ${formatDivergence(diffs[0]!)}${more}`,
        { body: diffs },
      );
    }
  }
}
