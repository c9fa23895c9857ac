import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.ts';
import { parseRate, RequestLimiter, retryAfterMs } from './rate-limit.ts';

/** A limiter on a fake clock: sleeping advances it. */
function fake(options: ConstructorParameters<typeof RequestLimiter>[0] = {}) {
  let t = 1_000_000;
  const starts: number[] = [];
  const limiter = new RequestLimiter({
    ...options,
    now: () => t,
    sleep: async (ms) => {
      t += ms;
    },
  });
  return {
    limiter,
    starts,
    at: () => t,
    async request(status = 200, headers: Record<string, string> = {}) {
      await limiter.acquire();
      starts.push(t);
      limiter.noteResponse(status, new Headers(headers));
    },
  };
}

describe('RequestLimiter', () => {
  it('spaces request starts to the rate, over every concurrent caller (real timers)', async () => {
    const limiter = new RequestLimiter({ ratePerSecond: 20 });
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        await limiter.acquire();
        starts.push(performance.now());
      }),
    );
    const gaps = starts.slice(1).map((s, i) => s - starts[i]!);
    expect(gaps).toHaveLength(3);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(45); // 50 ms, less timer slack
    expect(limiter.stats).toMatchObject({ requests: 4, rateLimited: 0 });
  });

  it('a 429 with retry-after holds every next request until then', async () => {
    const f = fake();
    await f.request(429, { 'retry-after': '3' });
    const after429 = f.at();
    await f.request();
    await f.request();
    expect(f.starts[1]! - after429).toBe(3000);
    expect(f.starts[2]).toBe(f.starts[1]);
    expect(f.limiter.stats).toMatchObject({ requests: 3, rateLimited: 1, waitedMs: 3000 });
  });

  it('caps a long retry-after, uses a default without one, and ignores other statuses', async () => {
    const capped = fake({ maxPauseMs: 5000 });
    await capped.request(429, { 'retry-after': '3600' });
    await capped.request();
    expect(capped.starts[1]! - capped.starts[0]!).toBe(5000);
    const bare = fake({ defaultPauseMs: 700 });
    await bare.request(429);
    await bare.request();
    expect(bare.starts[1]! - bare.starts[0]!).toBe(700);
    const other = fake();
    await other.request(500, { 'retry-after': '9' });
    await other.request(503);
    await other.request();
    expect(other.starts).toEqual([other.starts[0], other.starts[0], other.starts[0]]);
    const unavailable = fake();
    await unavailable.request(503, { 'retry-after': '2' });
    await unavailable.request();
    expect(unavailable.starts[1]! - unavailable.starts[0]!).toBe(2000);
  });

  it('never starts two requests closer than 1/rate, whatever the arrivals and 429s (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.constantFrom(200, 429), { minLength: 1, maxLength: 12 }),
        async (rate, statuses) => {
          const f = fake({ ratePerSecond: rate });
          for (const status of statuses)
            await f.request(status, status === 429 ? { 'retry-after': '1' } : {});
          const gaps = f.starts.slice(1).map((s, i) => s - f.starts[i]!);
          for (const [i, gap] of gaps.entries()) {
            expect(gap).toBeGreaterThanOrEqual(1000 / rate - 1e-9);
            if (statuses[i] === 429) expect(gap).toBeGreaterThanOrEqual(1000);
          }
        },
      ),
    );
  });
});

describe('retryAfterMs', () => {
  it('reads seconds, milliseconds (retry-after-ms, preferred) and HTTP dates', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }), 0)).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after': '1.5' }), 0)).toBe(1500);
    expect(retryAfterMs(new Headers({ 'retry-after': '9', 'retry-after-ms': '250' }), 0)).toBe(250);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }), now)).toBe(30_000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
  });
});

describe('parseRate', () => {
  it('reads N/s, N/min, N/h and a bare N per minute', () => {
    expect(parseRate('2/s')).toBe(2);
    expect(parseRate('60/min')).toBe(1);
    expect(parseRate('30')).toBe(0.5);
    expect(parseRate('3600 / hour')).toBe(1);
  });

  it('refuses anything else, naming the flag', () => {
    for (const bad of ['fast', '0/s', '-1/min', '5/day']) expect(() => parseRate(bad)).toThrow(InputError);
    try {
      parseRate('5/day');
    } catch (error) {
      expect((error as InputError).problems[0]).toMatchObject({
        file: '--rate 5/day',
        reason: expect.stringMatching(/60\/min/),
      });
    }
  });
});
