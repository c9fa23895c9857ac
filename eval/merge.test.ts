import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
/**
 * A sharded run merged equals the unsharded run byte for byte (apart from `startedAt` and `*Ms`),
 * over a part of the bundled suite under two configurations; merge refuses inputs that are not
 * the shards of one plan, naming the file and the reason.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { resultsJson } from '../reports/write.ts';
import { loadConfig, PACKAGE_ROOT } from './config-load.ts';
import { InputError } from './errors.ts';
import { repeatSummary } from './compare/repeat.ts';
import { mergeResults, type MergeInput } from './merge.ts';
import type { ResultsFile } from './results.ts';
import { loadCassettes, loadScenarioFiles, runSuite, type SuiteOptions } from './suite.ts';

/** The results text with run-dependent values (`startedAt`, every `…Ms`) blanked. */
function stable(results: ResultsFile): string {
  return resultsJson(results)
    .replace(/"startedAt": "[^"]*"/g, '"startedAt": ""')
    .replace(/"(\w*Ms)": \d+(\.\d+)?/g, '"$1": 0');
}

// Folders whose results are deterministic today (others put temp paths into token counts).
const SCENARIOS = [
  'scenarios/bad-json',
  'scenarios/hallucinated-tool',
  'scenarios/budget',
  'scenarios/subagent',
];

let suite: Omit<SuiteOptions, 'version'>;
let whole: ResultsFile;
let shards: MergeInput[];

beforeAll(async () => {
  // A configuration that fails some cases, so the merge is checked on failures too (the shipped
  // ones all pass: their differences are expected per configuration, expectFor).
  const tight = path.join(mkdtempSync(path.join(tmpdir(), 'hb-merge-')), 'tight.json');
  writeFileSync(tight, JSON.stringify({ limits: { maxTurns: 2 }, loop: { warnAt: 2, stopAt: 3 } }));
  suite = {
    configs: [loadConfig(path.join(PACKAGE_ROOT, 'configs/default.json')), loadConfig(tight)],
    scenarios: await loadScenarioFiles(SCENARIOS, PACKAGE_ROOT),
    recordings: await loadCassettes(['recordings'], PACKAGE_ROOT),
    concurrency: 2,
  };
  whole = await runSuite({ ...suite, version: '0.0.0-test' });
  shards = [];
  for (const index of [3, 1, 2])
    shards.push({
      file: `shard-${index}.json`,
      results: await runSuite({ ...suite, version: '0.0.0-test', shard: { index, count: 3 } }),
    });
});

describe('merge of a sharded run', () => {
  it('equals the unsharded run byte for byte, apart from startedAt and *Ms', () => {
    expect(whole.cases.length).toBeGreaterThan(60);
    expect(new Set(whole.cases.map((c) => c.status)).size).toBeGreaterThan(1);
    for (const shard of shards) expect(shard.results.cases.length).toBeGreaterThan(0);
    const { results, warnings } = mergeResults(shards);
    expect(warnings).toEqual([]);
    expect(results.shard).toBeUndefined();
    expect(stable(results)).toBe(stable(whole));
  });

  it('records the shard, the plan size and the fingerprint in each shard file', () => {
    const infos = shards.map((s) => s.results.shard!);
    expect(infos.map((i) => i.index).sort()).toEqual([1, 2, 3]);
    expect(new Set(infos.map((i) => i.fingerprint)).size).toBe(1);
    expect(infos.every((i) => i.planCases === whole.cases.length)).toBe(true);
    expect(infos.reduce((n, i) => n + i.assigned, 0)).toBe(whole.cases.length);
  });

  it('takes the earliest start and the slowest shard duration', () => {
    const copies = shards.map((s, i) => ({
      ...s,
      results: { ...s.results, startedAt: `2026-01-0${3 - i}T00:00:00.000Z`, durationMs: 10 * (i + 1) },
    }));
    const { results } = mergeResults(copies);
    expect(results.startedAt).toBe('2026-01-01T00:00:00.000Z');
    expect(results.durationMs).toBe(30);
  });
});

/** The problems `mergeResults` raises for these inputs. */
function problems(inputs: MergeInput[]): string[] {
  try {
    mergeResults(inputs);
  } catch (error) {
    if (error instanceof InputError) return error.problems.map((p) => `${p.file}: ${p.path}: ${p.reason}`);
    throw error;
  }
  return [];
}

const edit = (input: MergeInput, change: (r: ResultsFile) => ResultsFile): MergeInput => ({
  file: `${input.file} (edited)`,
  results: change(structuredClone(input.results)),
});

describe('merge of a sharded run --repeat K', () => {
  /** The results of `run --repeat 3` from the cases of run 1: run 2 flips `flip`, run 3 repeats run 1. */
  const repeated = (results: ResultsFile, flip: string): ResultsFile => {
    const flipped = results.cases.map((c) =>
      c.id === flip ? ({ ...c, status: c.status === 'pass' ? 'fail' : 'pass' } as typeof c) : c,
    );
    return { ...results, repeats: repeatSummary([results.cases, flipped, results.cases]) };
  };

  it('carries the repeats: pass^k and flips per case and per configuration equal the unsharded run', () => {
    const flip = whole.cases.find((c) => c.status === 'pass')!.id;
    const unsharded = repeated(whole, flip);
    expect(unsharded.repeats!.cases.filter((c) => c.flipRate > 0).length).toBeGreaterThan(0);
    const { results } = mergeResults(shards.map((s) => ({ ...s, results: repeated(s.results, flip) })));
    expect(results.repeats).toEqual(unsharded.repeats);
    expect(stable(results)).toBe(stable(unsharded));
  });

  it('refuses shards run a different number of times', () => {
    const [a, b, c] = shards as [MergeInput, MergeInput, MergeInput];
    const twice = {
      ...b,
      results: { ...b.results, repeats: repeatSummary([b.results.cases, b.results.cases]) },
    };
    expect(problems([a, twice, c])).toEqual([
      `merge: /repeats/k: the shards ran a different number of times (${a.file}: --repeat 1, ${b.file}: --repeat 2, ${c.file}: --repeat 1); run every shard with the same --repeat`,
    ]);
  });
});

describe('merge refuses', () => {
  it('no input, and a file that is not a shard', () => {
    expect(problems([])).toEqual(['merge: : no results file to merge']);
    expect(problems([{ file: 'whole.json', results: whole }, ...shards])).toEqual([
      'whole.json: /shard: not a shard: merge joins the files of `harness-bench run --shard i/n`',
    ]);
  });

  it('another tool version, other configurations, another shard count, another suite', () => {
    const [a, b, c] = shards as [MergeInput, MergeInput, MergeInput];
    expect(problems([a, edit(b, (r) => ({ ...r, tool: { ...r.tool, version: '9.9.9' } })), c])).toEqual([
      `${b.file} (edited): /tool/version: written by harness-bench 9.9.9, another version than ${a.file} (0.0.0-test)`,
    ]);
    expect(problems([a, edit(b, (r) => ({ ...r, configs: r.configs.slice(0, 1) })), c])[0]).toMatch(
      /\/configs: other configurations than shard-3\.json: default \(.*\) vs default \(.*\), tight/,
    );
    expect(problems([a, edit(b, (r) => ({ ...r, shard: { ...r.shard!, count: 4 } })), c])).toEqual([
      `${b.file} (edited): /shard/count: a shard of 4, but ${a.file} is a shard of 3`,
    ]);
    expect(
      problems([
        a,
        edit(b, (r) => ({ ...r, shard: { ...r.shard!, fingerprint: `sha256:${'0'.repeat(64)}` } })),
        c,
      ]),
    ).toEqual([
      `${b.file} (edited): /shard/fingerprint: a shard of another suite than ${a.file} (the scenarios, recordings, configurations or filter differ)`,
    ]);
  });

  it('a missing shard, a shard given twice, a case in the wrong shard', () => {
    const [a, b, c] = shards as [MergeInput, MergeInput, MergeInput];
    expect(problems([a, b])).toEqual([
      `merge: : missing shard ${c.results.shard!.index}/3: give every shard's results file`,
    ]);
    expect(problems([a, b, c, { ...b, file: 'copy.json' }])[0]).toMatch(
      new RegExp(`^copy\\.json: /shard/index: shard ${b.results.shard!.index}/3 again \\(also ${b.file}\\)`),
    );
    const moved = edit(b, (r) => ({ ...r, cases: [...r.cases, a.results.cases[0]!] }));
    expect(problems([a, moved, c])).toEqual([
      expect.stringMatching(/\/cases\/\d+: case .* is also in shard-3\.json$/),
      expect.stringMatching(/\/cases\/\d+: case .* belongs to shard 3\/3, not [12]\/3$/),
    ]);
  });

  it('warns (and merges) when a shard stopped early with --bail', () => {
    const [a, b, c] = shards as [MergeInput, MergeInput, MergeInput];
    const cut = edit(b, (r) => ({ ...r, cases: r.cases.slice(0, 1) }));
    const { results, warnings } = mergeResults([a, cut, c]);
    expect(warnings).toEqual([
      `${cut.file}: shard ${b.results.shard!.index}/3 stopped early (--bail): 1 of its ${b.results.shard!.assigned} cases ran`,
    ]);
    expect(results.summary.total).toBe(whole.cases.length - b.results.cases.length + 1);
  });
});
