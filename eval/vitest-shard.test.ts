/**
 * `vitest --shard` splits the tests of `describeScenarios`: with `ScenarioSequencer`, each shard
 * runs its own scenarios of one test file (the split of `harness-bench run --shard`), every
 * scenario runs on exactly one shard, and other test files are sharded as vitest does.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { shardOf } from './shard.ts';
import { runVitest, vitestProject } from './vitest-project.test-helpers.ts';

const created: string[] = [];
afterAll(() => {
  for (const dir of created) rmSync(dir, { recursive: true, force: true });
});

const IDS = Array.from({ length: 8 }, (_, i) => `shard/s${i + 1}`);

describe('vitest --shard with describeScenarios', () => {
  it('splits one file of scenarios over the shards, each scenario on exactly one', async () => {
    const files: Record<string, string> = {
      'vitest.config.ts': [
        "import { defineConfig } from 'vitest/config';",
        "import { ScenarioSequencer } from 'harness-bench/vitest';",
        'export default defineConfig({ test: { sequence: { sequencer: ScenarioSequencer } } });',
        '',
      ].join('\n'),
      'scenarios.test.ts':
        "import { describeScenarios } from 'harness-bench/testing';\n\ndescribeScenarios('scenarios/*.yaml');\n",
      'plain.test.ts':
        "import { expect, it } from 'vitest';\n\nit('a plain test', () => expect(1 + 1).toBe(2));\n",
    };
    for (const [i, id] of IDS.entries())
      files[`scenarios/s${i + 1}.yaml`] =
        `id: ${id}\ntask: t\nmodel:\n  - content: done\nexpect:\n  stopReason: final_answer\n`;
    const dir = vitestProject(files);
    created.push(dir);
    const [first, second] = await Promise.all([
      runVitest(dir, ['--shard=1/2']),
      runVitest(dir, ['--shard=2/2']),
    ]);
    for (const run of [first, second]) expect(run.code, run.output).toBe(0);
    const names = (run: typeof first) =>
      run.tests
        .filter((t) => t.file === 'scenarios.test.ts' && t.status === 'passed')
        .map((t) => t.title)
        .sort();
    const expected = (index: number) => IDS.filter((id) => shardOf('default', id, 2) === index).sort();
    expect(expected(1).length).toBeGreaterThan(0);
    expect(expected(2).length).toBeGreaterThan(0);
    expect(names(first)).toEqual(expected(1));
    expect(names(second)).toEqual(expected(2));
    const plain = [first, second].flatMap((r) => r.tests.filter((t) => t.file === 'plain.test.ts'));
    expect(plain).toHaveLength(1);
  });

  it('one describeScenarios file alone is split too (vitest refuses fewer files than shards by itself)', async () => {
    const files: Record<string, string> = {
      'vitest.config.ts':
        "import { defineConfig } from 'vitest/config';\nimport { ScenarioSequencer } from 'harness-bench/vitest';\nexport default defineConfig({ test: { sequence: { sequencer: ScenarioSequencer } } });\n",
      'scenarios.test.ts':
        "import { describeScenarios } from 'harness-bench/testing';\n\ndescribeScenarios('scenarios/*.yaml');\n",
    };
    for (const [i, id] of IDS.entries())
      files[`scenarios/s${i + 1}.yaml`] =
        `id: ${id}\ntask: t\nmodel:\n  - content: done\nexpect:\n  stopReason: final_answer\n`;
    const dir = vitestProject(files);
    created.push(dir);
    const runs = await Promise.all([runVitest(dir, ['--shard=1/2']), runVitest(dir, ['--shard=2/2'])]);
    for (const run of runs) expect(run.code, run.output).toBe(0);
    const ran = runs.flatMap((r) => r.tests.filter((t) => t.status === 'passed').map((t) => t.title));
    expect(ran.sort()).toEqual([...IDS].sort());
    for (const run of runs) expect(run.tests.length).toBeLessThan(IDS.length);
  });

  it('without the spread file, fewer test files than shards is still refused, as vitest does', async () => {
    const dir = vitestProject({
      'vitest.config.ts':
        "import { defineConfig } from 'vitest/config';\nimport { ScenarioSequencer } from 'harness-bench/vitest';\nexport default defineConfig({ test: { sequence: { sequencer: ScenarioSequencer } } });\n",
      'plain.test.ts':
        "import { expect, it } from 'vitest';\n\nit('a plain test', () => expect(1).toBe(1));\n",
    });
    created.push(dir);
    const run = await runVitest(dir, ['--shard=1/2']);
    expect(run.code).not.toBe(0);
    expect(run.tests).toEqual([]); // the error is in the JSON report; nothing ran
  });

  it('without a shard, every scenario is one test; a failing one fails with its checks', async () => {
    const dir = vitestProject({
      'scenarios.test.ts':
        "import { describeScenarios } from 'harness-bench/testing';\n\ndescribeScenarios('scenarios');\n",
      'scenarios/good.yaml':
        'id: one/good\ntask: t\nmodel:\n  - content: done\nexpect:\n  stopReason: final_answer\n',
      'scenarios/bad.yaml':
        'id: one/bad\ntask: t\nmodel:\n  - content: done\nexpect:\n  stopReason: max_turns\n',
    });
    created.push(dir);
    const run = await runVitest(dir);
    expect(run.code).toBe(1);
    expect(run.tests.map((t) => [t.title, t.status]).sort()).toEqual([
      ['one/bad', 'failed'],
      ['one/good', 'passed'],
    ]);
    expect(run.tests.find((t) => t.title === 'one/bad')!.failureMessages.join('\n')).toMatch(
      /✗ stopReason\n {6}expected: "max_turns"\n {6}observed: "final_answer"/,
    );
  });
});
