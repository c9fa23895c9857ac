/**
 * Handlers for the event stream (`harness/events.ts`): `events` and `eventsAbsent`.
 *
 * `events` is a list of types that must appear (the short form), or an object:
 * - `present` / `absent`: types that appear at least once / never;
 * - `sequence`: events that appear in this order, others allowed between them (a subsequence);
 *   each item is a type or `{ "type", …fields }` whose fields must equal the event's;
 * - `count`: per type, an exact number or `{ "min", "max" }`;
 * - `scope`: which events are counted and ordered: `top` (default: the top-level run only, so a
 *   subagent's `run_end` does not count), `each` (every scope on its own: the top-level run and
 *   each subagent, e.g. exactly one `run_end` per scope), `all` (the whole stream as one), or a
 *   call id (the subagent that `task` call started).
 */
import { isDeepStrictEqual } from 'node:util';
import type { HarnessEvent, HarnessEventType } from '../../harness/events.ts';
import type { EventMatcher, EventsExpectation, Expectations } from '../scenario/types.ts';
import { makeCheck, show, type Check } from './check.ts';
import type { ExpectContext } from './context.ts';

/** One group of events to check: its label for reasons and the events in stream order. */
interface ScopeGroup {
  label: string;
  events: HarnessEvent[];
}

const scopeLabel = (scope: readonly string[]) =>
  scope.length === 0 ? 'top-level run' : `scope ${scope.join('/')}`;

/** The groups the expectation's `scope` selects (see the file comment). */
export function scopeGroups(
  events: readonly HarnessEvent[],
  scope: EventsExpectation['scope'],
): ScopeGroup[] {
  const which = scope ?? 'top';
  if (which === 'all') return [{ label: 'whole event stream', events: [...events] }];
  if (which === 'top')
    return [{ label: 'top-level run', events: events.filter((e) => e.scope.length === 0) }];
  if (which === 'each') {
    const groups = new Map<string, ScopeGroup>([['', { label: 'top-level run', events: [] }]]);
    for (const event of events) {
      const key = event.scope.join('/');
      const group = groups.get(key) ?? { label: scopeLabel(event.scope), events: [] };
      group.events.push(event);
      groups.set(key, group);
    }
    return [...groups.values()];
  }
  return [{ label: `scope ${which}`, events: events.filter((e) => e.scope.at(-1) === which) }];
}

/** The type a matcher names. */
const typeOf = (matcher: EventMatcher): HarnessEventType =>
  typeof matcher === 'string' ? matcher : matcher.type;

/** True when `event` is of the matcher's type and every other field of the matcher equals the event's. */
export function eventMatches(matcher: EventMatcher, event: HarnessEvent): boolean {
  if (typeof matcher === 'string') return event.type === matcher;
  const record = event as unknown as Record<string, unknown>;
  return Object.entries(matcher).every(([key, value]) => isDeepStrictEqual(record[key], value));
}

/**
 * Where the sequence breaks in `events`: `undefined` when every item is found in order, else
 * the index of the first item not found after the previous match and the `seq` of that match.
 */
export function sequenceBreak(
  sequence: readonly EventMatcher[],
  events: readonly HarnessEvent[],
): { index: number; afterSeq: number | undefined } | undefined {
  let position = 0;
  let afterSeq: number | undefined;
  for (const [index, matcher] of sequence.entries()) {
    let found = -1;
    for (let i = position; i < events.length; i += 1)
      if (eventMatches(matcher, events[i]!)) {
        found = i;
        break;
      }
    if (found < 0) return { index, afterSeq };
    afterSeq = events[found]!.seq;
    position = found + 1;
  }
  return undefined;
}

/** `once`, `0 times`, `3 times`. */
export const times = (n: number) => (n === 1 ? 'once' : `${n} times`);

function countOf(events: readonly HarnessEvent[], type: string): number {
  return events.filter((e) => e.type === type).length;
}

function presenceChecks(types: readonly HarnessEventType[], groups: ScopeGroup[], absent: boolean): Check[] {
  return types.map((type) => {
    const seen = groups.map((g) => ({ label: g.label, n: countOf(g.events, type) }));
    const bad = seen.filter(({ n }) => (absent ? n > 0 : n === 0));
    const name = absent ? `events.absent.${type}` : `events.${type}`;
    const where = (list: typeof seen) => list.map(({ label, n }) => `${times(n)} in the ${label}`).join(', ');
    return makeCheck(
      name,
      bad.length === 0,
      absent ? 'absent' : 'present',
      groups.length === 1 ? seen[0]!.n : Object.fromEntries(seen.map(({ label, n }) => [label, n])),
      `event ${type} seen ${where(seen)}`,
    );
  });
}

function sequenceCheck(sequence: readonly EventMatcher[], groups: ScopeGroup[]): Check {
  const breaks = groups.map((g) => ({ group: g, at: sequenceBreak(sequence, g.events) }));
  const failed = breaks.filter((b) => b.at !== undefined);
  const shown = sequence.map((m) => (typeof m === 'string' ? m : show(m, 120))).join(' → ');
  const reasons = failed.map(({ group, at }) => {
    const missing = sequence[at!.index]!;
    const type = typeOf(missing);
    const seqs = group.events.filter((e) => e.type === type).map((e) => e.seq);
    const after = at!.afterSeq === undefined ? '' : ` after seq ${at!.afterSeq}`;
    const seen =
      seqs.length === 0 ? `no ${type} event at all` : `${type} at seq ${seqs.slice(0, 10).join(', ')}`;
    return `in the ${group.label}, ${typeof missing === 'string' ? missing : show(missing, 120)} (item ${at!.index + 1}) not found${after}; ${seen}`;
  });
  return makeCheck(
    'events.sequence',
    failed.length === 0,
    sequence,
    failed.length === 0
      ? 'in order'
      : failed.map(({ group, at }) => ({ scope: group.label, missingItem: at!.index + 1 })),
    failed.length === 0 ? `events in order: ${shown}` : reasons.join('; '),
  );
}

function countChecks(count: NonNullable<EventsExpectation['count']>, groups: ScopeGroup[]): Check[] {
  return Object.entries(count).map(([type, want]) => {
    const bound = typeof want === 'number' ? { min: want, max: want } : want;
    const ok = (n: number) =>
      (bound.min === undefined || n >= bound.min) && (bound.max === undefined || n <= bound.max);
    const seen = groups.map((g) => ({ label: g.label, n: countOf(g.events, type) }));
    const bad = seen.filter(({ n }) => !ok(n));
    const wanted =
      typeof want === 'number'
        ? `exactly ${want}`
        : [
            want.min !== undefined ? `at least ${want.min}` : '',
            want.max !== undefined ? `at most ${want.max}` : '',
          ]
            .filter(Boolean)
            .join(' and ');
    return makeCheck(
      `events.count.${type}`,
      bad.length === 0,
      want,
      groups.length === 1 ? seen[0]!.n : Object.fromEntries(seen.map(({ label, n }) => [label, n])),
      bad.length === 0
        ? `${type}: ${wanted} in ${groups.length === 1 ? `the ${groups[0]!.label}` : `each of ${groups.length} scopes`}`
        : `${type}: expected ${wanted}, observed ${bad.map(({ label, n }) => `${n} in the ${label}`).join(', ')}`,
    );
  });
}

/**
 * `events`: the list form (each type seen at least once anywhere in the stream, as before the
 * object form existed) or the object form (see the file comment).
 */
export function checkEvents(want: Expectations['events'], { run }: ExpectContext): Check[] {
  if (want === undefined) return [];
  // The list form counts the whole stream, as it always has: a type seen anywhere is present.
  if (Array.isArray(want)) return presenceChecks(want, scopeGroups(run.events, 'all'), false);
  const groups = scopeGroups(run.events, want.scope);
  return [
    ...presenceChecks(want.present ?? [], groups, false),
    ...presenceChecks(want.absent ?? [], groups, true),
    ...(want.sequence ? [sequenceCheck(want.sequence, groups)] : []),
    ...countChecks(want.count ?? {}, groups),
  ];
}

/** `eventsAbsent`: no listed type is seen anywhere in the stream (one check per type). */
export function checkEventsAbsent(want: Expectations['eventsAbsent'], { run }: ExpectContext): Check[] {
  return (want ?? []).map((type) => {
    const n = countOf(run.events, type);
    return makeCheck(`eventsAbsent.${type}`, n === 0, 'absent', n, `event ${type} seen ${times(n)}`);
  });
}
