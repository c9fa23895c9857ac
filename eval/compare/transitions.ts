/**
 * Per-case transitions between two configurations: a pass that became a failure, a failure that
 * became a pass, and — where the pass/fail outcome is the same — every behaviour that changed
 * (stop reason, permission verdict counts, turns, executed tool calls, tokens, cost, the first
 * failed check, the `expectFor` block used). With frozen models these are the harness's doing.
 */
import type { CaseResult, CaseStatus } from '../results.ts';
import type { BehaviourChange, CaseTransition, PairedTable, TransitionKind } from './types.ts';

/** The fields of a case result a transition reads. */
export type ComparedCase = Pick<
  CaseResult,
  'id' | 'config' | 'status' | 'stopReason' | 'usage' | 'verdicts' | 'firstFailure' | 'expectFor'
>;

/** `2 allow 1 deny` (zero counts left out; `-` when there is no call). */
export function verdictSummary(v: CaseResult['verdicts']): string {
  const order = ['allow', 'ask:approved', 'ask:denied', 'deny', 'none'] as const;
  return (
    order
      .filter((k) => v[k] > 0)
      .map((k) => `${v[k]} ${k}`)
      .join(' ') || '-'
  );
}

const passed = (s: CaseStatus) => s === 'pass';

/** The behaviour fields that differ between two results of one case, in a fixed order. */
export function behaviourChanges(a: ComparedCase, b: ComparedCase): BehaviourChange[] {
  const fields: [BehaviourChange['field'], string | number | null, string | number | null][] = [
    ['status', a.status, b.status],
    ['stopReason', a.stopReason, b.stopReason],
    ['verdicts', verdictSummary(a.verdicts), verdictSummary(b.verdicts)],
    ['turns', a.usage.turns, b.usage.turns],
    ['toolCalls', a.usage.toolCalls, b.usage.toolCalls],
    ['totalTokens', a.usage.totalTokens, b.usage.totalTokens],
    ['costUsd', a.usage.costUsd, b.usage.costUsd],
    ['firstFailure', a.firstFailure ?? null, b.firstFailure ?? null],
    ['expectFor', a.expectFor ?? null, b.expectFor ?? null],
  ];
  return fields
    .filter(([, x, y]) => x !== y)
    .map(([field, reference, candidate]) => ({ field, reference, candidate }));
}

/** The transition of one case, or `undefined` when nothing observable changed. */
export function transitionOf(a: ComparedCase, b: ComparedCase): CaseTransition | undefined {
  const changes = behaviourChanges(a, b);
  const behaviour = changes.filter((c) => c.field !== 'expectFor');
  if (behaviour.length === 0) return undefined;
  const kind: TransitionKind =
    a.status === 'skipped' || b.status === 'skipped'
      ? 'skip'
      : passed(a.status) && !passed(b.status)
        ? 'regression'
        : !passed(a.status) && passed(b.status)
          ? 'fix'
          : 'behaviour';
  return { id: a.id, kind, reference: a.status, candidate: b.status, changes };
}

/** Cases of one configuration by id (first occurrence wins; `--repeat` keeps trial 1 here). */
export function byId<T extends { id: string }>(cases: readonly T[]): Map<string, T> {
  const out = new Map<string, T>();
  for (const c of cases) if (!out.has(c.id)) out.set(c.id, c);
  return out;
}

/**
 * The cases run under both configurations (skipped under neither), in reference order, and the
 * paired pass/fail table over them (an `error` is not a pass).
 */
export function pairCases<T extends ComparedCase>(
  reference: readonly T[],
  candidate: readonly T[],
): { pairs: [T, T][]; table: PairedTable } {
  const other = byId(candidate);
  const pairs: [T, T][] = [];
  const table: PairedTable = { bothPass: 0, referenceOnly: 0, candidateOnly: 0, bothFail: 0 };
  for (const a of byId(reference).values()) {
    const b = other.get(a.id);
    if (!b || a.status === 'skipped' || b.status === 'skipped') continue;
    pairs.push([a, b]);
    const pa = passed(a.status);
    const pb = passed(b.status);
    if (pa && pb) table.bothPass += 1;
    else if (pa) table.referenceOnly += 1;
    else if (pb) table.candidateOnly += 1;
    else table.bothFail += 1;
  }
  return { pairs, table };
}
