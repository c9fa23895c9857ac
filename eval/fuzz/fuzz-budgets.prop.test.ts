/**
 * Fuzzing family `budgets` (see `docs/fuzzing.md`): Small budgets of every kind (turns, tool
 * calls, tokens, cost, time), reported usage, HTTP errors, finish reasons that disagree with the
 * content, and the wrap-up turn.
 */
import { describe, it } from 'vitest';
import { expectFamilyHolds, FUZZ_TEST_TIMEOUT_MS } from './fuzz.test-helpers.ts';

describe('fuzzing: budgets', () => {
  it(
    'every invariant holds on 2000 generated runs',
    () => expectFamilyHolds('budgets', 2000),
    FUZZ_TEST_TIMEOUT_MS,
  );
});
