/**
 * `harness-bench/vitest`: a vitest sequencer that spreads the scenarios of one test file over
 * `vitest --shard` machines. vitest shards by test file, so the dozens of tests that one
 * `describeScenarios(...)` call declares would all run on one machine; with this sequencer, every
 * shard runs each file that calls `describeScenarios`, and each of those calls keeps only its
 * shard's scenarios (the same split as `harness-bench run --shard`). Other test files are sharded
 * by vitest as usual (https://vitest.dev/guide/improving-performance#sharding).
 *
 * ```ts
 * // vitest.config.ts
 * import { defineConfig } from 'vitest/config';
 * import { ScenarioSequencer } from 'harness-bench/vitest';
 * export default defineConfig({ test: { sequence: { sequencer: ScenarioSequencer } } });
 * ```
 *
 * Plain JavaScript (types in `vitest-sequencer.d.ts`): vitest loads its configuration file, and
 * what it imports from packages, with Node itself, which does not read TypeScript.
 */
import { readFileSync } from 'node:fs';
import { BaseSequencer } from 'vitest/node';

/** True when a test file calls `describeScenarios` (read as text; a comment mentioning it counts too). */
/** @param {string} file @returns {boolean} */
function callsDescribeScenarios(file) {
  try {
    return /\bdescribeScenarios\s*\(/.test(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
}

/** vitest's sequencer, with files that call `describeScenarios` run on every shard (see the module comment). */
export class ScenarioSequencer extends BaseSequencer {
  /**
   * vitest refuses `--shard i/n` with fewer than n test files before it asks the sequencer
   * (unless `passWithNoTests`), yet one `describeScenarios` file on n machines is what this
   * sequencer is for. So that check is switched off here and made again in {@link shard} for the
   * case it still applies to: no file to spread and fewer files than shards.
   * @param {import('vitest/node').Vitest} ctx
   */
  constructor(ctx) {
    super(ctx);
    /** @type {boolean} */
    this.checkFileCount = Boolean(ctx.config.shard) && !ctx.config.passWithNoTests;
    if (this.checkFileCount) ctx.config.passWithNoTests = true;
  }

  /**
   * @param {import('vitest/node').TestSpecification[]} files
   * @returns {Promise<import('vitest/node').TestSpecification[]>}
   */
  async shard(files) {
    const shard = this.ctx.config.shard;
    if (!shard) return super.shard(files);
    for (const project of this.ctx.projects)
      project.provide('harness-bench:shard', { index: shard.index, count: shard.count });
    const spread = files.filter((f) => callsDescribeScenarios(f.moduleId));
    const rest = files.filter((f) => !spread.includes(f));
    if (this.checkFileCount && spread.length === 0 && shard.count > files.length)
      throw new Error(
        `--shard <count> must be a smaller than count of test files. Resolved ${files.length} test files for --shard=${shard.index}/${shard.count}.`,
      );
    return [...(rest.length > 0 ? await super.shard(rest) : []), ...spread];
  }
}
