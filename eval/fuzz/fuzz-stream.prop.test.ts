import { describe, it } from 'vitest';
import { expectFamilyHolds, FUZZ_TEST_TIMEOUT_MS } from './fuzz.test-helpers.ts';

describe('fuzzing: stream', () => {
  it(
    'every invariant holds on 700 generated runs',
    () => expectFamilyHolds('stream', 700),
    FUZZ_TEST_TIMEOUT_MS,
  );
});
