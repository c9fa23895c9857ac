import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from './errors.ts';
import { compareCases, inShard, parseShard, planFingerprint, shardOf } from './shard.ts';
import { planCases } from './suite.ts';
import type { NamedConfig } from './config-load.ts';
import { DEFAULT_CONFIG } from '../harness/config.ts';
import type { LoadedScenario } from './scenario/types.ts';
import type { LoadedCassette } from './suite.ts';

/** Shards of two cases for n = 2, 3, 5, 7, 16, as first computed: changing the hash moves cases between CI machines. */
const PINNED = [
  [2, 2, 4, 2, 16],
  [1, 2, 4, 3, 5],
];

const reason = (text: string) => {
  try {
    parseShard(text);
  } catch (error) {
    if (error instanceof InputError) return error.problems[0]!.reason;
  }
  return 'accepted';
};

describe('parseShard', () => {
  it('reads i/n, 1-based', () => {
    expect(parseShard('1/3')).toEqual({ index: 1, count: 3 });
    expect(parseShard(' 3 / 3 ')).toEqual({ index: 3, count: 3 });
  });

  it('refuses what is not i/n with 1 ≤ i ≤ n', () => {
    expect(reason('2')).toMatch(/expected i\/n/);
    expect(reason('a/b')).toMatch(/expected i\/n/);
    expect(reason('-1/3')).toMatch(/expected i\/n/);
    expect(reason('1/0')).toMatch(/count n must be at least 1/);
    expect(reason('0/3')).toMatch(/between 1 and 3/);
    expect(reason('4/3')).toMatch(/between 1 and 3/);
  });
});

describe('shard assignment', () => {
  it('is a partition: every case in exactly one shard, for any n', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.constantFrom('default', 'strict', 'a b'), fc.string()), {
          selector: ([c, id]) => `${c}\u0000${id}`,
          maxLength: 60,
        }),
        fc.integer({ min: 1, max: 40 }),
        (cases, count) => {
          const owners = cases.map(() => [] as number[]);
          for (let index = 1; index <= count; index += 1)
            for (const item of inShard(cases, { index, count }, (c) => c))
              owners[cases.indexOf(item)]!.push(index);
          expect(owners.every((o) => o.length === 1)).toBe(true);
        },
      ),
    );
  });

  it('depends only on the configuration, the id and n (stable across plans and releases)', () => {
    const counts = [2, 3, 5, 7, 16];
    expect(counts.map((n) => shardOf('default', 'bad-json/missing-colon', n))).toEqual(PINNED[0]);
    expect(counts.map((n) => shardOf('strict', 'recording/groq', n))).toEqual(PINNED[1]);
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.integer({ min: 1, max: 1000 }), (config, id, n) => {
        const shard = shardOf(config, id, n);
        expect(shard).toBeGreaterThanOrEqual(1);
        expect(shard).toBeLessThanOrEqual(n);
        expect(shardOf(config, id, n)).toBe(shard);
      }),
    );
  });

  it('spreads cases evenly (10,000 ids over 8 shards, each within 10% of 1,250)', () => {
    const counts = new Array(8).fill(0);
    for (let i = 0; i < 10_000; i += 1) counts[shardOf('default', `scale/case-${i}`, 8) - 1] += 1;
    for (const count of counts) expect(Math.abs(count - 1250)).toBeLessThan(125);
  });
});

const config = (name: string): NamedConfig => ({ name, file: `${name}.json`, config: DEFAULT_CONFIG });
const scenario = (id: string) =>
  ({
    file: `${id}.json`,
    absolutePath: '',
    scenario: { id, task: 't', model: [] },
  }) as unknown as LoadedScenario;
const recording = (id: string) =>
  ({ file: `${id}.json`, cassette: { meta: { id } } }) as unknown as LoadedCassette;

describe('compareCases', () => {
  it('restores the plan order of planCases from any order', () => {
    const ids = fc.uniqueArray(fc.stringMatching(/^[a-zA-Z0-9/_.-]{1,12}$/), { maxLength: 12 });
    fc.assert(
      fc.property(ids, ids, fc.integer({ min: 1, max: 3 }), fc.array(fc.double()), (s, r, n, keys) => {
        const configs = ['default', 'strict', 'permissive'].slice(0, n).map(config);
        const plan = planCases({ configs, scenarios: s.map(scenario), recordings: r.map(recording) }).map(
          (c) => ({ config: c.config.name, kind: c.kind, id: c.id }),
        );
        const shuffled = plan
          .map((c, i) => ({ c, key: keys[i % Math.max(1, keys.length)] ?? i }))
          .sort((a, b) => a.key - b.key)
          .map(({ c }) => c);
        expect(shuffled.sort(compareCases(configs.map((c) => c.name)))).toEqual(plan);
      }),
    );
  });
});

describe('planFingerprint', () => {
  const cases = [{ config: 'default', kind: 'scenario', id: 'a', input: { id: 'a', task: 'x' } }];
  const configs = [{ name: 'default', config: DEFAULT_CONFIG }];
  it('changes with the version, a configuration, a case or its input', () => {
    const base = planFingerprint('1.0.0', configs, cases);
    expect(base).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(planFingerprint('1.0.0', configs, cases)).toBe(base);
    expect(planFingerprint('1.0.1', configs, cases)).not.toBe(base);
    expect(
      planFingerprint('1.0.0', [{ name: 'default', config: { ...DEFAULT_CONFIG, tools: [] } }], cases),
    ).not.toBe(base);
    expect(planFingerprint('1.0.0', configs, [{ ...cases[0]!, id: 'b' }])).not.toBe(base);
    expect(planFingerprint('1.0.0', configs, [{ ...cases[0]!, input: { id: 'a', task: 'y' } }])).not.toBe(
      base,
    );
  });
});
