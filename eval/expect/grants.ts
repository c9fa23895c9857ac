/**
 * Handler for `grants`: session grants, read from the `approval_decision` events
 * (`harness/events.ts`). A grant is *given* when the approver answered with a shape the harness
 * kept (`by: approver` with `grant`, written `tool:shape`, e.g. `bash:npm test*`); it is *used*
 * when a later ask was approved by it without asking (`by: grant`). A shape the harness refused
 * to keep (wildcards alone, or one that does not cover the call it was shown with) is no grant.
 */
import type { HarnessEvent } from '../../harness/events.ts';
import type { Expectations } from '../scenario/types.ts';
import { makeCheck, show, type Check } from './check.ts';
import type { ExpectContext } from './context.ts';

/** The grants given and the calls approved by a grant, in event order (any scope). */
export function grantsOf(events: readonly HarnessEvent[]): {
  given: string[];
  usedBy: { callId: string; grant: string }[];
} {
  const given: string[] = [];
  const usedBy: { callId: string; grant: string }[] = [];
  for (const event of events) {
    if (event.type !== 'approval_decision' || !event.grant) continue;
    if (event.by === 'grant') usedBy.push({ callId: event.callId, grant: event.grant });
    else given.push(event.grant);
  }
  return { given, usedBy };
}

function exactSet(name: string, want: readonly string[], observed: readonly string[], what: string): Check {
  const wanted = [...new Set(want)];
  const seen = [...new Set(observed)];
  const missing = wanted.filter((x) => !seen.includes(x));
  const extra = seen.filter((x) => !wanted.includes(x));
  const pass = missing.length === 0 && extra.length === 0;
  return makeCheck(
    name,
    pass,
    wanted,
    seen,
    pass
      ? `${what}: exactly ${show(wanted)}`
      : `${what}: expected exactly ${show(wanted)}, observed ${show(seen)}${missing.length ? `; missing: ${missing.join(', ')}` : ''}${extra.length ? `; unexpected: ${extra.join(', ')}` : ''}`,
  );
}

/** `grants`: `grants.given` and `grants.usedBy`, each an exact set. */
export function checkGrants(want: Expectations['grants'], { run }: ExpectContext): Check[] {
  if (!want) return [];
  const { given, usedBy } = grantsOf(run.events);
  const checks: Check[] = [];
  if (want.given !== undefined) checks.push(exactSet('grants.given', want.given, given, 'grants given'));
  if (want.usedBy !== undefined) {
    const check = exactSet(
      'grants.usedBy',
      want.usedBy,
      usedBy.map((u) => u.callId),
      'calls approved by a grant',
    );
    checks.push(
      usedBy.length > 0
        ? {
            ...check,
            reason: `${check.reason} (${usedBy.map((u) => `${u.callId} by ${u.grant}`).join(', ')})`,
          }
        : check,
    );
  }
  return checks;
}
