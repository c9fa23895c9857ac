/**
 * Loop detection (`docs/architecture.md` §6): identity is the tool name plus the
 * canonical arguments; a call counts as a repeat only while the outcome of the previous
 * identical call is unchanged. The `warnAt`-th identical call is answered with `repeated_call`
 * and not run; the `stopAt`-th also ends the run with `repeated_tool_call`. A changed outcome
 * is progress and resets the count, so polling does not trip it (handed case C01, goose#9758).
 */

/** What to do with a call. */
export type LoopVerdict = { kind: 'run' } | { kind: 'warn'; count: number } | { kind: 'stop'; count: number };

/** The verdict of a call that may run: one frozen object, not one per call. */
const RUN: LoopVerdict = Object.freeze({ kind: 'run' });

interface Entry {
  count: number;
  /** Whether the last outcome was a success, and its text (the data, or `type:message` of a failure); `text` undefined before the first. */
  ok: boolean;
  text: string | undefined;
}

/** Tracks identical calls within one run. */
export class LoopDetector {
  private readonly entries = new Map<string, Entry>();
  constructor(private readonly limits: { warnAt: number; stopAt: number }) {}

  /** Called before a call runs. `key` is tool name + canonical arguments. A `run` verdict is shared and frozen. */
  check(key: string): LoopVerdict {
    const entry = this.entries.get(key);
    if (!entry) {
      this.entries.set(key, { count: 1, ok: false, text: undefined });
      return RUN;
    }
    entry.count += 1;
    if (entry.count >= this.limits.stopAt) return { kind: 'stop', count: entry.count };
    if (entry.count >= this.limits.warnAt) return { kind: 'warn', count: entry.count };
    return RUN;
  }

  /**
   * Called after a call ran with its outcome: `ok` and its text (a success's data, or a failure's
   * `type:message`). A changed outcome resets the count. The text is kept as given, never joined
   * to a prefix: a success's data is the tool result the history holds anyway, so the detector
   * keeps no second copy of it (a `ok:`-prefixed string was a rope kept per distinct call).
   */
  record(key: string, ok: boolean, text: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    if (entry.text !== undefined && (entry.ok !== ok || entry.text !== text)) entry.count = 1;
    entry.ok = ok;
    entry.text = text;
  }
}
