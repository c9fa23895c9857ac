/**
 * `ReplayModel`: the model side of a cassette, frozen. Each `generate` takes the next recorded
 * exchange in order, compares the request the harness would send with the recorded one, and
 * returns the recorded turn (or raises the recorded error).
 *
 * Modes (`docs/recording-format.md`, "Replay"): `strict` rejects on the first
 * divergence with `recording_mismatch`; `sequential` serves by order and only records
 * divergences. Default: `sequential` for imported cassettes, `strict` for our own.
 */
import { ModelError, type Model, type ModelRequest, type ModelResponse } from '../../harness/model/types.ts';
import type { Cassette, Exchange } from '../cassette/types.ts';
import { decodeRecordedResponse } from './decode.ts';
import { diffJson, formatDivergence, normaliseBody, wireBody, type Divergence } from './request-diff.ts';

/** How requests are matched to recorded exchanges. */
export type ReplayMode = 'strict' | 'sequential';

/** The default mode of a cassette: `sequential` when it was imported, `strict` otherwise. */
export function defaultReplayMode(cassette: Cassette): ReplayMode {
  return cassette.meta.imported ? 'sequential' : 'strict';
}

/** The frozen model of one cassette. Not reusable across runs: create one per run. */
export class ReplayModel implements Model {
  readonly name: string;
  /** Every divergence seen so far, in exchange order (see {@link Divergence}). */
  readonly divergences: Divergence[] = [];
  private cursor = 0;

  constructor(
    readonly cassette: Cassette,
    readonly mode: ReplayMode = defaultReplayMode(cassette),
  ) {
    this.name = `replay:${cassette.meta.id}`;
  }

  /** Exchanges taken so far (a mismatched one in strict mode counts: the cursor moved past it). */
  get used(): number {
    return this.cursor;
  }

  /** The recorded exchanges no `generate` reached, with their 0-based index. */
  unusedExchanges(): { index: number; exchange: Exchange }[] {
    return this.cassette.exchanges
      .slice(this.cursor)
      .map((exchange, i) => ({ index: this.cursor + i, exchange }));
  }

  /**
   * Serves the next recorded turn.
   *
   * @throws ModelError `aborted` when `signal` is aborted; `recording_exhausted` when every
   *   exchange was used; `recording_mismatch` in strict mode when the request differs (the
   *   message names the first difference, `data.body` holds this exchange's divergences);
   *   the recorded failure otherwise (see `decodeRecordedResponse`).
   */
  async generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    if (signal?.aborted) throw new ModelError('aborted', 'the model call was aborted');
    const { exchanges } = this.cassette;
    if (this.cursor >= exchanges.length)
      throw new ModelError(
        'recording_exhausted',
        `the recording has ${exchanges.length} exchange${exchanges.length === 1 ? '' : 's'} and all were used; the harness asked for one more`,
      );
    const index = this.cursor++;
    const exchange = exchanges[index]!;
    const recorded = exchange.request.body;
    if (recorded) {
      const dropModel = !('model' in recorded);
      const diffs = diffJson(
        normaliseBody(recorded, { dropModel }),
        normaliseBody(wireBody(request), { dropModel }),
        index,
      );
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
    return decodeRecordedResponse(exchange.response, index);
  }
}
