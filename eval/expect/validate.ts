/**
 * The loader's semantic checks of an `expect` block, beyond its JSON Schema: every regular
 * expression compiles and every item checks something. Run on whatever has the right shape, so one pass reports every problem
 * (`eval/scenario/load.ts` calls it for `expect` and each block of `expectFor`).
 */
import { regexProblem } from './patterns.ts';

type Add = (path: string, reason: string) => void;

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function checkRegexList(value: unknown, at: string, add: Add): void {
  if (!Array.isArray(value)) return;
  value.forEach((pattern, i) => {
    if (typeof pattern !== 'string') return;
    const problem = regexProblem(pattern);
    if (problem) add(`${at}/${i}`, problem);
  });
}

/**
 * Reports each problem of the expectation object `value` found at JSON pointer `at` (e.g.
 * `/expect`) through `add`.
 */
export function expectationProblems(value: unknown, at: string, add: Add): void {
  const expect = asRecord(value);
  const finalAnswer = asRecord(expect.finalAnswer);
  checkRegexList(finalAnswer.matches, `${at}/finalAnswer/matches`, add);
  checkRegexList(finalAnswer.excludes, `${at}/finalAnswer/excludes`, add);
  if (Array.isArray(expect.requests))
    expect.requests.forEach((item, i) => {
      const record = asRecord(item);
      if (!('contains' in record || 'absent' in record || 'maxTokens' in record))
        add(`${at}/requests/${i}`, 'this item checks nothing: give "contains", "absent" or "maxTokens"');
      for (const key of ['contains', 'absent'] as const) {
        const list = asRecord(item)[key];
        if (!Array.isArray(list)) continue;
        list.forEach((pattern, j) => {
          const regex = asRecord(pattern).regex;
          const problem = typeof regex === 'string' ? regexProblem(regex) : undefined;
          if (problem) add(`${at}/requests/${i}/${key}/${j}/regex`, problem);
        });
      }
    });
}
