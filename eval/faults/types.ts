/**
 * The fault catalogue's shapes (the rule they serve: "every scenario must fail on the bug it
 * names"). A fault is a realistic harness bug written as a textual patch: the exact code it
 * replaces and what replaces it, applied to a temporary copy of the repository; the fault tests
 * run the scenarios of the fault's tag against that copy and require at least one of them to
 * fail (`eval/faults/README.md`).
 */

/** The tags of the fault library, each with its own catalogue (`eval/faults/catalogue/*.ts`). */
export const FAULT_TAGS = [
  'bad-json',
  'hallucinated-tool',
  'injection',
  'loop',
  'budget',
  'permissions',
  'sandbox',
  'context',
  'session',
  'subagent',
  'transcript',
  'replay',
] as const;

/** One tag of {@link FAULT_TAGS}. */
export type FaultTag = (typeof FAULT_TAGS)[number];

/**
 * One textual edit. `search` is matched whitespace-insensitively (runs of spaces and line
 * breaks may differ, so a reformatted file still matches) and must occur exactly once in
 * `file`; when the text has moved to another source file under `harness/` or `eval/`, it is
 * applied there and the move is reported. `replace` is inserted as it is.
 */
export interface FaultPatch {
  /** Path relative to the repository root, `/`-separated. */
  file: string;
  search: string;
  replace: string;
}

/** A harness bug of one tag, as the developer would have written it. */
export interface Fault {
  /** Unique, `<tag>/<name>`: the name the fault tests report. */
  id: string;
  tag: FaultTag;
  /** One sentence: the bug, in the words of a code review. */
  bug: string;
  patches: FaultPatch[];
  /**
   * Statuses besides `fail` that count as catching this fault, for a fault whose nature is a
   * crash (`error`) or a prerequisite made to look missing (`skipped`, an error under CI=true).
   * Otherwise only a failed check catches it: a case that errors or is skipped says nothing about
   * whether a scenario would notice the bug.
   */
  caughtAs?: readonly ('error' | 'skipped')[];
}
