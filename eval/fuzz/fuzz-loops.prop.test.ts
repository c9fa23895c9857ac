/**
 * Fuzzing family `loops` (see `docs/fuzzing.md`): Endless repetition (identical calls, alternating
 * pairs, the same call with its keys shuffled, identical parallel calls) and injected text in tool
 * results.
 */
import { describe, it } from 'vitest';
import { expectFamilyHolds, FUZZ_TEST_TIMEOUT_MS } from './fuzz.test-helpers.ts';

describe('fuzzing: loops', () => {
  it(
    'every invariant holds on 2000 generated runs',
    () => expectFamilyHolds('loops', 2000),
    FUZZ_TEST_TIMEOUT_MS,
  );
});
