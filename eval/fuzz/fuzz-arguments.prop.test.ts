/**
 * Fuzzing family `arguments` (see `docs/fuzzing.md`): Broken, schema-invalid, double-encoded,
 * array, null and oversized arguments, deep nesting, and calls of any shape (ids, names) around
 * them.
 */
import { describe, it } from 'vitest';
import { expectFamilyHolds, FUZZ_TEST_TIMEOUT_MS } from './fuzz.test-helpers.ts';

describe('fuzzing: arguments', () => {
  it(
    'every invariant holds on 2000 generated runs',
    () => expectFamilyHolds('arguments', 2000),
    FUZZ_TEST_TIMEOUT_MS,
  );
});
