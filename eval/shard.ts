/**
 * Sharding a suite across machines: `harness-bench run --shard i/n` runs the cases whose stable
 * hash lands in shard `i` of `n`, and `harness-bench merge` joins the shards' results files into
 * the file the unsharded run writes (`eval/merge.ts`, `docs/scaling.md`).
 *
 * A case's shard depends only on its configuration name, its id and `n` (sha256, not the plan's
 * order), so adding a scenario never moves the others, and every case lands in exactly one shard
 * for any `n` (a property test checks the partition). The `i/n` spelling, 1-based, is the one of
 * `vitest --shard` and `playwright test --shard`.
 */
import { createHash } from 'node:crypto';
import { InputError } from './errors.ts';
import type { ResultsFile, Shard } from './results.ts';
import { byCodeUnit } from './order.ts';

export type { Shard };

/**
 * Parses `i/n` (both positive integers, `i ≤ n`).
 * @throws InputError naming the flag and what is wrong (exit 2).
 */
export function parseShard(text: string, flag = '--shard'): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const problem = (reason: string) => new InputError([{ file: `${flag} ${text}`, path: '', reason }]);
  if (!match) throw problem('expected i/n, e.g. 1/3 (the first of three shards)');
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (!Number.isSafeInteger(count) || count < 1) throw problem('the shard count n must be at least 1');
  if (!Number.isSafeInteger(index) || index < 1 || index > count)
    throw problem(`the shard index i must be between 1 and ${count}`);
  return { index, count };
}

/** The key a case is hashed by: configuration name and case id. */
export function shardKey(config: string, id: string): string {
  return `${config}\u0000${id}`;
}

/**
 * The 1-based shard of a case among `count`: the first 48 bits of sha256 of
 * {@link shardKey}, modulo `count`, plus one. Stable across runs, machines and versions of the
 * suite (only the case's own name matters).
 */
export function shardOf(config: string, id: string, count: number): number {
  const digest = createHash('sha256').update(shardKey(config, id), 'utf8').digest();
  return (digest.readUIntBE(0, 6) % count) + 1;
}

/** Keeps the items of `shard`; `key` names an item's configuration and case id. */
export function inShard<T>(items: readonly T[], shard: Shard, key: (item: T) => [string, string]): T[] {
  return items.filter((item) => {
    const [config, id] = key(item);
    return shardOf(config, id, shard.count) === shard.index;
  });
}

/** What {@link planFingerprint} hashes for one planned case: its configuration, id and input (scenario or cassette). */
export interface FingerprintCase {
  config: string;
  kind: string;
  id: string;
  /** The case's input as loaded (scenario object or cassette); hashed as JSON text. */
  input: unknown;
}

/**
 * The fingerprint of a whole plan, before sharding: sha256 over the tool version, every
 * configuration (name and merged content) and every case (configuration, kind, id and its input
 * as JSON). Shards of one suite at one commit agree; a different scenario, cassette,
 * configuration or version gives another fingerprint.
 */
export function planFingerprint(
  version: string,
  configs: readonly { name: string; config: unknown }[],
  cases: readonly FingerprintCase[],
): string {
  const hash = createHash('sha256');
  hash.update(`harness-bench ${version}\n`);
  for (const c of configs) hash.update(`config ${c.name} ${JSON.stringify(c.config)}\n`);
  const inputs = new Map<unknown, string>();
  for (const c of cases) {
    let digest = inputs.get(c.input);
    if (digest === undefined) {
      digest = createHash('sha256')
        .update(JSON.stringify(c.input) ?? 'null')
        .digest('hex');
      inputs.set(c.input, digest);
    }
    hash.update(`case ${c.config} ${c.kind} ${c.id} ${digest}\n`);
  }
  return `sha256:${hash.digest('hex')}`;
}

/**
 * The canonical order of cases in a results file, the plan's order (`planCases` in
 * `eval/suite.ts`): by configuration (in the order of `configs`), scenarios before recordings,
 * then by id (`byCodeUnit`, recordings by their cassette id). A test keeps the two in step.
 */
export function compareCases(
  configs: readonly string[],
): (a: Pick<CaseKey, 'config' | 'kind' | 'id'>, b: Pick<CaseKey, 'config' | 'kind' | 'id'>) => number {
  const rank = new Map(configs.map((name, i) => [name, i]));
  const bare = (c: Pick<CaseKey, 'kind' | 'id'>) =>
    c.kind === 'recording' && c.id.startsWith('recording/') ? c.id.slice('recording/'.length) : c.id;
  return (a, b) =>
    (rank.get(a.config) ?? Number.MAX_SAFE_INTEGER) - (rank.get(b.config) ?? Number.MAX_SAFE_INTEGER) ||
    (a.kind === b.kind ? 0 : a.kind === 'scenario' ? -1 : 1) ||
    byCodeUnit(bare(a), bare(b));
}

/** The fields that place a case: configuration, kind and id. */
export type CaseKey = Pick<ResultsFile['cases'][number], 'config' | 'kind' | 'id'>;
