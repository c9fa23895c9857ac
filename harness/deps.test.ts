import events from 'node:events';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, mergeConfig, priceFor } from './config.ts';
import { deterministicDeps, liveDeps } from './deps.ts';

describe('deterministicDeps', () => {
  it('advances the clock by stepMs on every read, and sleep advances it too', async () => {
    const deps = deterministicDeps({ startMs: 1000, stepMs: 10 });
    expect([deps.now(), deps.now()]).toEqual([1000, 1010]);
    await deps.sleep(500);
    expect(deps.now()).toBe(1520);
  });

  it('counts ids per prefix from 1, zero-padded', () => {
    const deps = deterministicDeps();
    expect([deps.newId('call_'), deps.newId('call_'), deps.newId('run_')]).toEqual([
      'call_0001',
      'call_0002',
      'run_0001',
    ]);
  });

  it('random is a seeded stream in [0, 1): same seed same numbers, other seed other numbers', () => {
    const take = (seed: number) => {
      const deps = deterministicDeps({ seed });
      return Array.from({ length: 50 }, () => deps.random());
    };
    expect(take(7)).toEqual(take(7));
    expect(take(7)).not.toEqual(take(8));
    expect(take(7).every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(take(1)).size).toBe(50);
  });
});

describe('liveDeps', () => {
  it('gives unique ids with the prefix and randomness in [0, 1)', () => {
    const deps = liveDeps();
    const ids = new Set(Array.from({ length: 100 }, () => deps.newId('call_')));
    expect(ids.size).toBe(100);
    expect([...ids].every((id) => /^call_[0-9a-f]{16}$/.test(id))).toBe(true);
    const r = deps.random();
    expect(r >= 0 && r < 1).toBe(true);
  });

  it('sleep leaves no abort listener on the signal once it ends, and an abort ends it early', async () => {
    const deps = liveDeps();
    const controller = new AbortController();
    const listeners = () => events.getEventListeners(controller.signal, 'abort').length;
    for (let i = 0; i < 15; i += 1) await deps.sleep(0, controller.signal);
    expect(listeners()).toBe(0);
    const pending = deps.sleep(60_000, controller.signal);
    expect(listeners()).toBe(1);
    controller.abort();
    await pending;
    expect(listeners()).toBe(0);
    await deps.sleep(60_000, controller.signal);
  });
});

describe('mergeConfig and priceFor', () => {
  it('merges objects deeply, replaces arrays, drops $schema and description, and mutates nothing', () => {
    const base = structuredClone(DEFAULT_CONFIG);
    const merged = mergeConfig(DEFAULT_CONFIG, {
      $schema: 'x',
      description: 'y',
      limits: { maxTurns: 3 },
      permissions: { bash: [{ pattern: 'ls', action: 'allow' }] },
    } as never);
    expect(merged.limits).toEqual({ ...DEFAULT_CONFIG.limits, maxTurns: 3 });
    expect(merged.permissions.bash).toEqual([{ pattern: 'ls', action: 'allow' }]);
    expect(merged.permissions.mode).toBe(DEFAULT_CONFIG.permissions.mode);
    expect('$schema' in merged || 'description' in merged).toBe(false);
    expect(DEFAULT_CONFIG).toEqual(base);
  });

  it('every budget has a non-zero default', () => {
    const { maxTurns, maxToolCalls, maxTokens, maxCostUsd, maxWallMs } = DEFAULT_CONFIG.limits;
    for (const value of [maxTurns, maxToolCalls, maxTokens, maxCostUsd, maxWallMs])
      expect(value).toBeGreaterThan(0);
  });

  it('prices a model by its own entry, else *, else zero', () => {
    const config = mergeConfig(DEFAULT_CONFIG, {
      pricing: { 'gpt-x': { inputUsdPerMTok: 2, outputUsdPerMTok: 8 } },
    });
    expect(priceFor(config, 'gpt-x')).toEqual({ inputUsdPerMTok: 2, outputUsdPerMTok: 8 });
    expect(priceFor(config, 'other')).toEqual(DEFAULT_CONFIG.pricing['*']);
    expect(priceFor({ ...config, pricing: {} }, 'other')).toEqual({
      inputUsdPerMTok: 0,
      outputUsdPerMTok: 0,
    });
  });
});
