/**
 * The one public `Check` type: the outcome of one expectation, with what was expected, what was
 * observed and a reason a person can act on. Every scorer of the bench (the expectation
 * handlers of `registry.ts`, the replay checks of `eval/run-recording.ts`, custom scorers)
 * produces these, and `results.json` stores them as they are.
 */

/**
 * The outcome of one expectation. Names are stable across runs (`stopReason`,
 * `results.<id>.ok`, `budgets.tokens`, `requests.0.contains`, `scorers.<name>`, …) so results
 * can be diffed; `expected` and `observed` are JSON values shown side by side in reports.
 */
export interface Check {
  name: string;
  /** True when the expectation held; `false` for a failed check and for a `not_applicable` one. */
  pass: boolean;
  /**
   * `not_applicable`: the check needs the harness's internals (verdicts, events, stop reason
   * names, ledger, grants, tokens) and the harness under test is a black box (`--harness FILE`,
   * `docs/adapters.md`): neither a pass nor a failure. Absent for every other check.
   */
  status?: 'not_applicable';
  expected: unknown;
  observed: unknown;
  /** One sentence with the observed value, written so that a person knows what to look at. */
  reason: string;
}

/**
 * A value as short JSON text for a reason: strings quoted, `undefined` as `nothing`, cut to
 * `max` characters with `…`.
 */
export function show(value: unknown, max = 300): string {
  const text =
    value === undefined
      ? 'nothing'
      : typeof value === 'string'
        ? JSON.stringify(value)
        : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** True for a check that did not hold (a `not_applicable` check is not a failure). */
export function isFailedCheck(check: Check): boolean {
  return !check.pass && check.status !== 'not_applicable';
}

/** True for a check that says something about the run (not `not_applicable`). */
export function isApplicable(check: Check): boolean {
  return check.status !== 'not_applicable';
}

/** A `not_applicable` check: `pass: false`, nothing observed, the reason says what it would need. */
export function notApplicableCheck(name: string, expected: unknown, reason: string): Check {
  return { name, pass: false, status: 'not_applicable', expected, observed: null, reason };
}

/** Builds a check; the reason defaults to `expected X, observed Y`. */
export function makeCheck(
  name: string,
  pass: boolean,
  expected: unknown,
  observed: unknown,
  reason?: string,
): Check {
  return {
    name,
    pass,
    expected,
    observed,
    reason: reason ?? `expected ${show(expected)}, observed ${show(observed)}`,
  };
}
