/**
 * Handlers for how the run ended: `stopReason`, `modelCalls` and `finalAnswer`.
 */
import type { Expectations } from '../scenario/types.ts';
import { makeCheck, show, type Check } from './check.ts';
import type { ExpectContext } from './context.ts';
import { parseRegex } from './patterns.ts';

/** `stopReason`: the run's one stop reason is this one. Always present (the key is required). */
export function checkStopReason(want: Expectations['stopReason'], { run }: ExpectContext): Check[] {
  const detail = run.stopDetail ? ` (${run.stopDetail})` : '';
  return [
    makeCheck(
      'stopReason',
      run.stopReason === want,
      want,
      run.stopReason,
      run.stopReason === want
        ? `the run stopped with ${want}`
        : `expected ${want}, observed ${run.stopReason}${detail}`,
    ),
  ];
}

/** `modelCalls`: exactly this many model calls (summaries and the wrap-up turn included). */
export function checkModelCalls(want: Expectations['modelCalls'], { run }: ExpectContext): Check[] {
  if (want === undefined) return [];
  return [makeCheck('modelCalls', run.usage.modelCalls === want, want, run.usage.modelCalls)];
}

/**
 * `finalAnswer`: `includes` (case-insensitive substrings, all present), `matches` (regular
 * expressions, all match), `excludes` (regular expressions, none matches) and `absent` (no
 * final answer, or an empty one). A missing answer matches nothing.
 */
export function checkFinalAnswer(want: Expectations['finalAnswer'], { run }: ExpectContext): Check[] {
  if (!want) return [];
  const answer = run.finalAnswer;
  const checks: Check[] = [];
  if (want.includes !== undefined) {
    const lower = (answer ?? '').toLowerCase();
    const absent = want.includes.filter((s) => answer === null || !lower.includes(s.toLowerCase()));
    checks.push(
      makeCheck(
        'finalAnswer.includes',
        absent.length === 0,
        want.includes,
        answer,
        absent.length === 0
          ? 'every substring present'
          : `missing ${show(absent)} in final answer ${show(answer)}`,
      ),
    );
  }
  if (want.matches !== undefined) {
    const missed = want.matches.filter((pattern) => answer === null || !parseRegex(pattern).test(answer));
    checks.push(
      makeCheck(
        'finalAnswer.matches',
        missed.length === 0,
        want.matches,
        answer,
        missed.length === 0
          ? 'every pattern matches the final answer'
          : answer === null
            ? `there is no final answer (the run stopped with ${run.stopReason}), so nothing matches ${missed.map((p) => show(p)).join(', ')}`
            : `final answer ${show(answer)} does not match ${missed.map((p) => show(p)).join(', ')}`,
      ),
    );
  }
  if (want.excludes !== undefined) {
    const hits = want.excludes.flatMap((pattern) => {
      const found = answer === null ? null : parseRegex(pattern).exec(answer);
      return found ? [`${show(pattern)} (matched ${show(found[0], 80)})`] : [];
    });
    checks.push(
      makeCheck(
        'finalAnswer.excludes',
        hits.length === 0,
        want.excludes,
        answer,
        hits.length === 0
          ? 'no excluded pattern matches the final answer'
          : `final answer ${show(answer)} matches excluded ${hits.join(', ')}`,
      ),
    );
  }
  if (want.absent !== undefined) {
    const isAbsent = answer === null || answer === '';
    checks.push(
      makeCheck(
        'finalAnswer.absent',
        isAbsent === want.absent,
        want.absent,
        answer,
        `final answer ${show(answer)}`,
      ),
    );
  }
  return checks;
}
