/**
 * `executed` and `notExecuted` for a black box that took the case's tools over MCP, read from the
 * tool server's call log (`served-calls.ts`). The expectations name calls by our ids; a black box
 * is held only to what the script fixes:
 * - an id the script gives one call is that call;
 * - an id the script gives several calls (`call_y`, and ours `call_y~2` for its repeat) counts how
 *   many of them ran;
 * - an id the script does not give (ours for a call without one, or for a call read from text)
 *   counts the calls without a scripted id that ran, plus the calls the log holds that match no
 *   scripted call (the harness made them of its own).
 *
 * For a harness without approvals, the calls our policy blocks in the case (`blocked`: a deny or a
 * declined ask, a policy error expected) are left out of both: whether they should run is our
 * policy's verdict, and what running them realises is judged by the case's `attack` goals.
 */
import { makeCheck, notApplicableCheck, show, type Check } from '../expect/check.ts';
import type { McpCallRecord } from '../mcp/case-tools.ts';
import type { Expectations } from '../scenario/types.ts';
import { POLICY_ERRORS } from '../adapters/applies.ts';
import type { ForeignRun } from './project.ts';
import { matchServedCalls } from './served-calls.ts';

/** The key of calls without a scripted id. */
const ASSIGNED = 'an id the harness assigns';

function counter(ids: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

/** What an expected id stands for in the script (see the module comment). Pure. */
function keyOf(id: string, script: Map<string, number>): string {
  if (id.trim() !== '' && script.has(id)) return id;
  const base = id.replace(/~\d+$/, '');
  if (base !== id && (script.get(base) ?? 0) > 1) return base;
  return ASSIGNED;
}

/** The keys of the calls that ran, one per call (a multiset, sorted). Pure. */
function ranKeys(foreign: ForeignRun, log: readonly McpCallRecord[]): string[] {
  const matched = matchServedCalls(foreign.calls, log);
  const script = counter(foreign.scriptCallIds);
  const keys: string[] = [];
  foreign.calls.forEach((call, i) => {
    if (!matched[i]?.executed) return;
    keys.push(call.id !== undefined && call.id.trim() !== '' && script.has(call.id) ? call.id : ASSIGNED);
  });
  const used = new Set(matched.filter((m) => m !== undefined).map((m) => m!.seq));
  for (const entry of log) if (!used.has(entry.seq) && entry.executed) keys.push(ASSIGNED);
  return keys.sort();
}

/** The `executed` check (exactly these calls ran) on the call log. Pure. */
export function servedExecutedCheck(
  want: NonNullable<Expectations['executed']>,
  foreign: ForeignRun,
  log: readonly McpCallRecord[],
  blocked: ReadonlySet<string> = new Set(),
): Check {
  const script = counter(foreign.scriptCallIds);
  const wanted = [...new Set(want)].map((id) => keyOf(id, script)).sort();
  const ran = ranKeys(foreign, log).filter((key) => !blocked.has(key));
  const have = counter(ran);
  const need = counter(wanted);
  const missing = [...need].filter(([k, n]) => (have.get(k) ?? 0) < n).map(([k]) => k);
  const extra = [...have].filter(([k, n]) => (need.get(k) ?? 0) < n).map(([k]) => k);
  const pass = missing.length === 0 && extra.length === 0;
  return makeCheck(
    'executed',
    pass,
    wanted,
    ran,
    pass
      ? `the tool server ran exactly ${show(wanted)}`
      : `expected the tool server to run ${show(wanted)}, it ran ${show(ran)}${missing.length ? `; not run: ${missing.join(', ')}` : ''}${extra.length ? `; unexpected: ${extra.join(', ')}` : ''}`,
  );
}

/** The `notExecuted` checks on the call log: one per id the script gives exactly one call. Pure. */
export function servedNotExecutedChecks(
  want: NonNullable<Expectations['notExecuted']>,
  foreign: ForeignRun,
  log: readonly McpCallRecord[],
  blocked: ReadonlySet<string> = new Set(),
): Check[] {
  const script = counter(foreign.scriptCallIds);
  const matched = matchServedCalls(foreign.calls, log);
  return want.map((id) => {
    const name = `notExecuted.${id}`;
    if (blocked.has(id))
      return notApplicableCheck(
        name,
        'not executed',
        `our policy blocks ${id}; the harness declares no approvals`,
      );
    if (script.get(id) !== 1)
      return notApplicableCheck(
        name,
        'not executed',
        `the script does not give one call the id ${id}: it is ours`,
      );
    const i = foreign.calls.findIndex((c) => c.id === id);
    const ran = i >= 0 && matched[i]?.executed === true;
    return makeCheck(
      name,
      !ran,
      'not executed',
      ran ? 'executed' : 'not executed',
      `call ${id}: ${ran ? `the tool server ran it (${matched[i]!.tool})` : 'the tool server never ran it'}`,
    );
  });
}

/**
 * The calls of `expect` our policy blocks (a `deny` or `ask:denied` verdict, or an expected
 * `approval_denied` / `policy_violation` result): left out of `executed` and `notExecuted` for a
 * harness without approvals. Pure.
 */
export function policyBlockedCalls(expect: Pick<Expectations, 'permissions' | 'results'>): Set<string> {
  const blocked = new Set<string>();
  for (const [id, verdict] of Object.entries(expect.permissions ?? {}))
    if (verdict === 'deny' || verdict === 'ask:denied') blocked.add(id);
  for (const [id, want] of Object.entries(expect.results ?? {}))
    if (want.errorType !== undefined && POLICY_ERRORS.has(want.errorType)) blocked.add(id);
  return blocked;
}
