/**
 * Strings a run keeps, kept as one piece. V8 represents `a + b` (and every template literal or
 * `+=` whose result is 13 characters or more) as a rope — a 32-byte node pointing at both halves —
 * and `text.slice(…)` of 13 characters or more as a view that keeps the whole of `text` alive.
 * A rope kept for the rest of a run costs every collection that copies it: a loop key built from
 * six pieces is about 250 bytes as a rope against 115 flat (measured with heap snapshots; the
 * per-step bench keeps one per call for the whole run, and what a step keeps is what makes a long
 * run's collections dearer, docs/loop.md "What a step keeps").
 */

/**
 * `text`, flattened in place: V8 copies a rope's characters into one sequential string at the
 * first indexed read (the rope's node then points at that copy alone, and the next scavenge
 * drops the node). Returns `text` itself (the same value, never a copy to the caller); a flat
 * string costs one character read. Engines without ropes lose nothing.
 */
export function flatString(text: string): string {
  text.charCodeAt(0);
  return text;
}
