/**
 * What the oracles of the fuzzed runs (`oracles.ts`) share: the canonical JSON form, the
 * top-level events, the error types the budget gate never counted, and the callback that
 * records a violation.
 */
import type { HarnessEvent } from '../../harness/events.ts';
import type { Invariant, Violation } from './types.ts';

/** The event of type `T`. */
export type Ev<T extends HarnessEvent['type']> = Extract<HarnessEvent, { type: T }>;

/** Error types of calls the dispatcher answered before its budget gate: they are not counted, not loop-checked. */
export const UNCOUNTED = new Set(['truncated_call', 'interrupted', 'not_executed']);

/** Output text queued between the values of {@link canonical}'s work list. */
class Text {
  constructor(readonly text: string) {}
}

/**
 * Key-sorted JSON text (the oracle's own canonical form, written apart from the harness's).
 * Iterative, so deeply nested values (thousands of levels, which models do send) cannot
 * overflow the stack.
 */
export function canonical(value: unknown): string {
  const out: string[] = [];
  const work: unknown[] = [value];
  while (work.length > 0) {
    const item = work.pop();
    if (item instanceof Text) out.push(item.text);
    else if (Array.isArray(item)) {
      work.push(new Text(']'));
      for (let k = item.length - 1; k >= 0; k -= 1) {
        work.push(item[k]);
        if (k > 0) work.push(new Text(','));
      }
      out.push('[');
    } else if (item && typeof item === 'object') {
      const record = item as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      work.push(new Text('}'));
      for (let k = keys.length - 1; k >= 0; k -= 1) {
        work.push(record[keys[k]!]);
        work.push(new Text(`${k > 0 ? ',' : ''}${JSON.stringify(keys[k])}:`));
      }
      out.push('{');
    } else out.push(JSON.stringify(item) ?? 'null');
  }
  return out.join('');
}

/** The events of the top-level scope (the oracles check that scope only). */
export const top = (events: readonly HarnessEvent[]) => events.filter((e) => e.scope.length === 0);

/** Records one violation of `invariant`; `extra` names the calls, model calls or stop reason it implies. */
export type Add = (
  invariant: Invariant,
  message: string,
  extra?: Pick<Violation, 'calls' | 'modelCalls' | 'stopReason'>,
) => void;
