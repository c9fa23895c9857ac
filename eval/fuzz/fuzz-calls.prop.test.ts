/**
 * Fuzzing family `calls` (see `docs/fuzzing.md`): Conflicting parallel calls (two writes of one
 * path, through aliases and links; read and write), duplicate and missing ids, unknown names, and
 * the policy and approver deciding them.
 */
import { describe, it } from 'vitest';
import { expectFamilyHolds, FUZZ_TEST_TIMEOUT_MS } from './fuzz.test-helpers.ts';

describe('fuzzing: calls', () => {
  it(
    'every invariant holds on 2000 generated runs',
    () => expectFamilyHolds('calls', 2000),
    FUZZ_TEST_TIMEOUT_MS,
  );
});
