/**
 * The path lookups of one turn (`policy/paths.ts` resolves every component of every path with
 * an `lstat`, and `readlink` for links). {@link TurnPathCache} answers them synchronously and
 * remembers each answer for the rest of the turn, so the calls of one turn that share folders
 * look at each folder once, and no lookup waits for the thread pool.
 *
 * It never weakens the path policy: resolution runs the same algorithm on the same answers the
 * file system gives; an answer is reused only until a call that may change the tree runs (the
 * dispatcher clears the cache after every call that is not a concurrent read, and each turn
 * starts with an empty one). Reads running concurrently change no links. What remains is the
 * window between a check and the use of its path that every check-then-use has, made no
 * longer than one turn's checks (`tools/builtin/files.ts` opens what the policy resolved).
 */
import { lstatSync, readlinkSync } from 'node:fs';
import type { PathLookup } from '../policy/paths.ts';

/** Synchronous, memoised `lstat` and `readlink` for the checks of one turn. */
export class TurnPathCache implements PathLookup {
  /** Per absolute path: a link or not, or the error `lstat` gave. */
  private readonly links = new Map<string, boolean | Error>();
  private readonly targets = new Map<string, string>();

  /** @throws the `lstat` error (missing, not a directory, …), as often as asked */
  isLink(file: string): boolean {
    let known = this.links.get(file);
    if (known === undefined) {
      try {
        known = lstatSync(file).isSymbolicLink();
      } catch (error) {
        known = error as Error;
      }
      this.links.set(file, known);
    }
    if (known instanceof Error) throw known;
    return known;
  }

  readlink(file: string): string {
    let target = this.targets.get(file);
    if (target === undefined) {
      target = readlinkSync(file);
      this.targets.set(file, target);
    }
    return target;
  }

  /** Forgets every answer (a call that may have changed the tree ran). */
  clear(): void {
    this.links.clear();
    this.targets.clear();
  }
}
