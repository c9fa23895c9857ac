/**
 * Fuzzing family `mixed` (see `docs/fuzzing.md`): Every segment weighted alike: the combinations
 * the other families reach rarely.
 */
import { describe, it } from 'vitest';
import { expectFamilyHolds, FUZZ_TEST_TIMEOUT_MS } from './fuzz.test-helpers.ts';

describe('fuzzing: mixed', () => {
  it(
    'every invariant holds on 1500 generated runs',
    () => expectFamilyHolds('mixed', 1500),
    FUZZ_TEST_TIMEOUT_MS,
  );
});
