/**
 * The path lookups of one turn (`policy/paths.ts` resolves every component of every path with an
 * `lstat`, and `readlink` for links). {@link TurnPathCache} answers them synchronously and
 * remembers each answer, and each whole resolution (`ResolvedPath` per requested string, a pure
 * function of the answers it read), so the calls of a turn that share folders look at each
 * folder once and a repeated path costs one map lookup.
 *
 * It never weakens the path policy: resolution runs the same algorithm on the same answers the
 * file system gives (`entrySync` is `entry` with synchronous calls), and answers live for one
 * turn at most. Within the turn, the dispatcher (`loop/dispatch.ts`) clears the cache after every call
 * that is not a concurrent read, and while a call that may write is in flight nothing is cached
 * ({@link TurnPathCache.hold}); reads running concurrently change no links. Every turn starts
 * with an empty cache, so whatever changed the tree between turns (a command's background job,
 * another process, the harness's own spill and session files) is seen by the next turn's checks.
 */
import { entrySync, type PathEntry, type PathLookup, type ResolvedPath } from '../policy/paths.ts';

/** Synchronous, memoised component lookups and resolutions for the checks of one turn. */
export class TurnPathCache implements PathLookup {
  /** Per absolute path: the component found there. */
  private readonly answers = new Map<string, PathEntry>();
  /** Resolutions under {@link memoWorkspace}, by requested string. */
  private readonly resolutions = new Map<string, ResolvedPath>();
  private memoWorkspace: string | undefined;
  /** Calls in flight that may change the tree (commands): while any is, nothing is cached. */
  private held = 0;

  /** @param read how a component is read (`entrySync`; tests count calls with a fake) */
  constructor(private readonly read: (file: string) => PathEntry = entrySync) {}

  /** The component at `file`; never throws (errors are `{ kind: 'error' }`, as uncached). */
  entry(file: string): PathEntry {
    if (this.held > 0) return this.read(file);
    let known = this.answers.get(file);
    if (known === undefined) {
      known = this.read(file);
      this.answers.set(file, known);
    }
    return known;
  }

  /** The remembered resolution of `requested` under `workspace` (frozen: never mutate it), or undefined. */
  recall(workspace: string, requested: string): ResolvedPath | undefined {
    if (this.held > 0 || workspace !== this.memoWorkspace) return undefined;
    return this.resolutions.get(requested);
  }

  /** Remembers a resolution made entirely from this cache's answers (no lookup awaited, none dropped meanwhile). Freezes it. */
  remember(workspace: string, requested: string, resolved: ResolvedPath): void {
    if (this.held > 0) return;
    if (workspace !== this.memoWorkspace) {
      this.resolutions.clear();
      this.memoWorkspace = workspace;
    }
    this.resolutions.set(requested, Object.freeze(resolved));
  }

  /** Forgets every answer and resolution (a call that may have changed the tree ran). */
  clear(): void {
    this.answers.clear();
    this.resolutions.clear();
  }

  /** A call that may change the tree starts while others run: forget, and cache nothing until {@link release}. */
  hold(): void {
    this.held += 1;
    this.clear();
  }

  /** That call is done: what was read while it ran is not trusted; caching resumes. */
  release(): void {
    this.held -= 1;
    this.clear();
  }
}
