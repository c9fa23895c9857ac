/**
 * The harness-wide types that depend on nothing: the determinism a run is given. Every layer may
 * import this file; it imports nothing (see `docs/architecture.md`, "Layers").
 */

/**
 * Clock, ids, randomness and waiting: everything in `harness/` that needs time, ids or chance
 * takes it from here, so a replay is byte-identical. Implementations: `deterministicDeps()` and
 * `liveDeps()` in `harness/deps.ts`.
 */
export interface Determinism {
  /** Milliseconds since the epoch. */
  now(): number;
  /** A fresh id with the given prefix, e.g. `call_` → `call_0001`. */
  newId(prefix: string): string;
  /** A number in [0, 1). */
  random(): number;
  /** Waits `ms` milliseconds (retries, backoff); a fake clock may advance instead. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Folders outside the workspace that text for the model names by a stable label instead of
   * their absolute path (a scenario's `$OUTSIDE`, the temp folder as `$TMPDIR`), so a run in a
   * fresh temp folder reads the same every time. The workspace is always shown as `$WS`
   * (`harness/path-display.ts`). Absent: other paths are shown as they are.
   */
  pathLabels?: readonly PathLabel[];
}

/**
 * A folder shown under a stable name instead of its absolute path, e.g.
 * `{ path: '/tmp/hb-out-x1', label: '$OUTSIDE' }`. `path` is absolute (a real path).
 */
export interface PathLabel {
  path: string;
  label: string;
}
