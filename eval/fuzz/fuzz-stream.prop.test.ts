/**
 * Fuzzing family `stream` (see `docs/fuzzing.md`): Every turn over the live client with its body
 * cut at arbitrary bytes and its deltas in real servers' shapes; the assembled turn must equal the
 * scripted one.
 */
import { describe, it } from 'vitest';
import { expectFamilyHolds, FUZZ_TEST_TIMEOUT_MS } from './fuzz.test-helpers.ts';

describe('fuzzing: stream', () => {
  it(
    'every invariant holds on 700 generated runs',
    () => expectFamilyHolds('stream', 700),
    FUZZ_TEST_TIMEOUT_MS,
  );
});
