/** Handlers for the event stream: `events` (these types appear) and `eventsAbsent` (they do not). */
import type { HarnessEvent } from '../../harness/events.ts';
import type { Expectations } from '../scenario/types.ts';
import { makeCheck, type Check } from './check.ts';
import type { ExpectContext } from './context.ts';

function countByType(events: readonly HarnessEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const event of events) counts.set(event.type, (counts.get(event.type) ?? 0) + 1);
  return counts;
}

/** `events`: each listed type is seen at least once (one check per type). */
export function checkEvents(want: Expectations['events'], { run }: ExpectContext): Check[] {
  const counts = countByType(run.events);
  return (want ?? []).map((type) => {
    const n = counts.get(type) ?? 0;
    return makeCheck(`events.${type}`, n > 0, 'present', n, `event ${type} seen ${n} times`);
  });
}

/** `eventsAbsent`: no listed type is seen (one check per type). */
export function checkEventsAbsent(want: Expectations['eventsAbsent'], { run }: ExpectContext): Check[] {
  const counts = countByType(run.events);
  return (want ?? []).map((type) => {
    const n = counts.get(type) ?? 0;
    return makeCheck(`eventsAbsent.${type}`, n === 0, 'absent', n, `event ${type} seen ${n} times`);
  });
}
