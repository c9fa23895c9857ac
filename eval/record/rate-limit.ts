/**
 * Provider rate limits for live recording runs of several tasks (`record --tasks`): one limiter
 * shared by every session, between the model client and the network. It spaces request starts
 * to a rate (requests per second), and when the provider answers 429 (or 503) with a
 * `retry-after` (seconds or an HTTP date, RFC 9110 §10.2.3) or `retry-after-ms` (OpenAI's
 * header), it holds every session's next request until that time — the model client itself waits
 * and retries the refused call (`harness/model/openai-model.ts`), so together the run backs off
 * as one client instead of each session hammering the limit on its own.
 */
import { InputError } from '../errors.ts';

/** Options of {@link RequestLimiter}. Times in ms. */
export interface RequestLimiterOptions {
  /** Request starts per second over all sessions; absent: no spacing. */
  ratePerSecond?: number;
  /** Longest pause one `retry-after` may impose. @default 60000 (the model client's cap) */
  maxPauseMs?: number;
  /** Pause after a 429 without `retry-after`. @default 1000 */
  defaultPauseMs?: number;
  /** @default Date.now */
  now?: () => number;
  /** @default a timer */
  sleep?: (ms: number) => Promise<void>;
}

/** What the limiter did: requests let through, rate-limit answers seen, total time requests waited (ms). */
export interface LimiterStats {
  requests: number;
  rateLimited: number;
  waitedMs: number;
}

/**
 * The wait a `retry-after` / `retry-after-ms` header asks for, in ms, or undefined when there
 * is none or it does not parse. `nowMs` dates an HTTP-date value.
 */
export function retryAfterMs(headers: Headers, nowMs: number): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms);
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** Spaces and pauses the requests of every session of a recording run. */
export class RequestLimiter {
  readonly stats: LimiterStats = { requests: 0, rateLimited: 0, waitedMs: 0 };
  private nextStart = 0;
  private pausedUntil = 0;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: RequestLimiterOptions = {}) {
    // eslint-disable-next-line no-restricted-properties -- live recording runs on the wall clock
    this.now = options.now ?? (() => Date.now());
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** Waits for this request's turn: after any pause, and at least 1/rate after the previous start. */
  async acquire(): Promise<void> {
    for (;;) {
      const now = this.now();
      const interval = this.options.ratePerSecond ? 1000 / this.options.ratePerSecond : 0;
      const start = Math.max(now, this.nextStart, this.pausedUntil);
      if (start <= now) {
        this.nextStart = now + interval;
        this.stats.requests += 1;
        return;
      }
      this.stats.waitedMs += start - now;
      await this.sleep(start - now);
    }
  }

  /** Records a response: a 429 (or a 503 with `retry-after`) pauses every session. */
  noteResponse(status: number, headers: Headers): void {
    const now = this.now();
    const asked = retryAfterMs(headers, now);
    if (status !== 429 && !(status === 503 && asked !== undefined)) return;
    if (status === 429) this.stats.rateLimited += 1;
    const pause = Math.min(asked ?? this.options.defaultPauseMs ?? 1000, this.options.maxPauseMs ?? 60_000);
    this.pausedUntil = Math.max(this.pausedUntil, now + pause);
  }

  /** `fetch` through the limiter. */
  wrap(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
    return async (input, init) => {
      await this.acquire();
      const response = await fetch(input, init);
      this.noteResponse(response.status, response.headers);
      return response;
    };
  }
}

/**
 * Parses `--rate`: `N/s`, `N/min` or `N/h` (also `second`, `minute`, `hour`), or a bare `N`
 * meaning per minute (providers publish requests per minute). @returns requests per second.
 * @throws InputError (exit 2) naming the flag.
 */
export function parseRate(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:\/\s*(s|sec|second|m|min|minute|h|hr|hour))?\s*$/i.exec(text);
  const value = match ? Number(match[1]) : NaN;
  if (!match || !(value > 0))
    throw new InputError([
      {
        file: `--rate ${text}`,
        path: '',
        reason: 'expected requests per time, e.g. 60/min, 2/s or 500/h (a bare number is per minute)',
      },
    ]);
  const unit = (match[2] ?? 'min').toLowerCase();
  const seconds = unit.startsWith('s') ? 1 : unit.startsWith('h') ? 3600 : 60;
  return value / seconds;
}
