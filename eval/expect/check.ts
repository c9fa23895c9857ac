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
  pass: boolean;
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
