/**
 * The path lookups of one turn (`policy/paths.ts` resolves every component of every path with
 * an `lstat`, and `readlink` for links). {@link TurnPathCache} answers them synchronously and
 * remembers each answer for the rest of the turn, so the calls of one turn that share folders
 * look at each folder once, and no lookup waits for the thread pool.
 *
 * It never weakens the path policy: resolution runs the same algorithm on the same answers the
 * file system gives (link targets, hard-link counts, errors: `entrySync` is `entry` with
 * synchronous calls); an answer is reused only until a call that may change the tree runs (the
 * dispatcher clears the cache after every call that is not a concurrent read, and each turn
 * starts with an empty one). Reads running concurrently change no links. What remains is the
 * window between a check and the use of its path that every check-then-use has, made no
 * longer than one turn's checks (`tools/builtin/files.ts` opens what the policy resolved,
 * below the workspace without following links, `sandbox/beneath.ts`).
 */
import { entrySync, type PathEntry, type PathLookup } from '../policy/paths.ts';

/** Synchronous, memoised component lookups for the checks of one turn. */
export class TurnPathCache implements PathLookup {
  /** Per absolute path: what `lstat` (and `readlink` for a link) said. */
  private readonly entries = new Map<string, PathEntry>();
  /** Calls in flight that may change the tree (commands): while any is, nothing is cached. */
  private held = 0;

  /** The component at `file`; never throws (errors are `{ kind: 'error' }`, as uncached). */
  entry(file: string): PathEntry {
    if (this.held > 0) return entrySync(file);
    let known = this.entries.get(file);
    if (known === undefined) {
      known = entrySync(file);
      this.entries.set(file, known);
    }
    return known;
  }

  /** Forgets every answer (a call that may have changed the tree ran). */
  clear(): void {
    this.entries.clear();
  }

  /** A call that may change the tree starts while others run: forget, and cache nothing until {@link release}. */
  hold(): void {
    this.held += 1;
    this.entries.clear();
  }

  /** That call is done: what was read while it ran is not trusted; caching resumes. */
  release(): void {
    this.held -= 1;
    this.entries.clear();
  }
}
