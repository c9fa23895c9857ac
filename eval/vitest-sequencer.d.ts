/** Types of `harness-bench/vitest` (`vitest-sequencer.js`). */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * vitest's sequencer, with every test file that calls `describeScenarios` run on every
 * `vitest --shard`, each keeping its shard's scenarios; other files sharded as usual.
 */
export declare class ScenarioSequencer extends BaseSequencer {
  /** Whether {@link shard} makes vitest's "fewer test files than shards" check itself. */
  checkFileCount: boolean;
  shard(files: TestSpecification[]): Promise<TestSpecification[]>;
}
