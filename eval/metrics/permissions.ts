/**
 * Permission confusion of a configuration, per call: the verdict a scenario expects
 * (`expect.permissions`) × the one the harness gave, with the two kinds of error apart:
 * - a false allow (a security failure): the call ran although it was expected not to, or ran
 *   with less scrutiny than expected (allowed outright where a person should have been asked);
 * - a needless ask or deny (a utility failure): a call expected to be allowed was asked about,
 *   or a call expected to run (allowed, or approved when asked) was refused.
 * Other mismatches (e.g. `deny` expected, `ask:denied` given: refused either way) are counted
 * apart. Verdicts: `allow`, `ask:approved`, `ask:denied`, `deny`, `none` (never reached policy).
 */
import type { MetricCase } from './types.ts';

/** The counts of {@link permissionConfusion}. */
export interface PermissionConfusion {
  /** Calls with an expected verdict. */
  calls: number;
  matrix: Record<string, Record<string, number>>;
  matched: number;
  falseAllows: number;
  needlessAsks: number;
  needlessDenies: number;
  otherMismatches: number;
}

const RUNS = new Set(['allow', 'ask:approved']);
/** How much scrutiny a verdict is: allowed outright 0, a person asked 1, refused by policy 2. */
const scrutiny = (verdict: string) => (verdict === 'allow' ? 0 : verdict.startsWith('ask:') ? 1 : 2);

/** The kind of error when `observed` differs from `expected` (see the file comment). */
export function permissionError(
  expected: string,
  observed: string,
): 'falseAllow' | 'needlessAsk' | 'needlessDeny' | 'other' | undefined {
  if (expected === observed) return undefined;
  const ran = RUNS.has(observed);
  if (ran && (!RUNS.has(expected) || scrutiny(observed) < scrutiny(expected))) return 'falseAllow';
  if (expected === 'allow' && observed.startsWith('ask:')) return 'needlessAsk';
  if (RUNS.has(expected) && !ran) return 'needlessDeny';
  return 'other';
}

/** Permission confusion over the `permissions.<id>` checks of the cases that ran to a verdict. */
export function permissionConfusion(cases: readonly MetricCase[]): PermissionConfusion {
  const out: PermissionConfusion = {
    calls: 0,
    matrix: {},
    matched: 0,
    falseAllows: 0,
    needlessAsks: 0,
    needlessDenies: 0,
    otherMismatches: 0,
  };
  for (const c of cases) {
    if (c.status === 'error' || c.status === 'skipped') continue;
    for (const check of c.checks) {
      if (!check.name.startsWith('permissions.') || typeof check.expected !== 'string') continue;
      const observed = typeof check.observed === 'string' ? check.observed : 'none';
      out.calls += 1;
      const row = (out.matrix[check.expected] ??= {});
      row[observed] = (row[observed] ?? 0) + 1;
      const error = permissionError(check.expected, observed);
      if (error === undefined) out.matched += 1;
      else if (error === 'falseAllow') out.falseAllows += 1;
      else if (error === 'needlessAsk') out.needlessAsks += 1;
      else if (error === 'needlessDeny') out.needlessDenies += 1;
      else out.otherMismatches += 1;
    }
  }
  return out;
}
