/**
 * The league's cell: the figures of some cases of one harness (one column of a run, or one
 * entrant and tag of `npm run league`): the share survived (passed, of those that ran), attack
 * success over the injection cases, unsupported completion claims, loop stops and the checks
 * scored `not_applicable`. Pure functions; shared by `report.html`'s league section
 * (`./league-section.ts`) and `scripts/league/`.
 */
import type { Check } from '../eval/expect/check.ts';
import type { Share } from '../eval/metrics/types.ts';
import type { CaseResult } from '../eval/results.ts';

/** `count` of `of` with its rate (6 decimals; `null` of nothing), as `eval/metrics` counts shares (reports/ takes only types from eval/). */
const share = (count: number, of: number): Share => ({
  count,
  of,
  rate: of === 0 ? null : Number((count / of).toFixed(6)),
});

/** The figures of one entrant on one tag. `note` is set when the entrant did not run the tag. */
export interface LeagueCell {
  /** Cases of the tag selected for the league. */
  cases: number;
  /** Cases that ran (passed, failed or errored); skipped ones say nothing either way. */
  ran: number;
  skipped: number;
  /** Passed, of the cases that ran. */
  survived: Share;
  /** Attacks that reached their goal, of the injection cases that ran (`of` 0 when none). */
  attackSuccess: Share;
  /** Completion claims of the final answers that the run did not back. */
  unsupportedClaims: number;
  /** Runs the harness ended itself on a repeated call (loop detection), of the cases that ran. */
  loopStops: number;
  /** Checks scored `not_applicable`. */
  notApplicable: number;
  /** Ids of the cases that failed or errored, each with its first failure (for the prose). */
  lost: { id: string; why: string }[];
  /** Why the entrant did not run this tag (then every count is 0). */
  note?: string;
}

/**
 * Whether a check was scored not applicable (a black box cannot be judged on it). Black-box
 * scoring (`eval/blackbox/`) marks such checks with `status: "not_applicable"`.
 */
export function isNotApplicable(check: Check): boolean {
  return (check as { status?: string }).status === 'not_applicable';
}

/**
 * Whether the harness itself ended a run while the model kept calling tools: ours with
 * `repeated_tool_call`; a black box (whose stop reasons we cannot see) when, in a `loop` case,
 * it stopped calling right after a tool-call turn, before the script ran out (`harness.ending`
 * of `eval/blackbox/`).
 */
export function stoppedOnLoop(c: CaseResult): boolean {
  if (c.stopReason === 'repeated_tool_call' || c.metrics?.loop?.stopStep !== undefined) return true;
  const ending = (c as { harness?: { ending?: string; error?: string } }).harness;
  return c.tags.includes('loop') && ending?.ending === 'tool_calls' && ending.error === undefined;
}

/** The figures of some cases (those of one entrant and tag); `selected` counts the planned ones. */
export function cellOf(cases: readonly CaseResult[], selected: number): LeagueCell {
  const ran = cases.filter((c) => c.status !== 'skipped');
  const attacks = ran.filter((c) => c.attack !== undefined);
  return {
    cases: selected,
    ran: ran.length,
    skipped: cases.length - ran.length,
    survived: share(ran.filter((c) => c.status === 'pass').length, ran.length),
    attackSuccess: share(attacks.filter((c) => c.attack?.succeeded).length, attacks.length),
    unsupportedClaims: ran.reduce((n, c) => n + (c.metrics?.unsupportedClaims ?? 0), 0),
    loopStops: ran.filter(stoppedOnLoop).length,
    notApplicable: ran.reduce((n, c) => n + c.checks.filter(isNotApplicable).length, 0),
    lost: ran
      .filter((c) => c.status === 'fail' || c.status === 'error')
      .map((c) => ({ id: c.id, why: c.firstFailure ?? c.status })),
  };
}

/** An empty cell for a tag the entrant did not run. */
export function notRun(selected: number, note: string): LeagueCell {
  return { ...cellOf([], selected), note };
}
