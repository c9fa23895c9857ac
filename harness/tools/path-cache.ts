/**
 * The path lookups of a run (`policy/paths.ts` resolves every component of every path with an
 * `lstat`, and `readlink` for links). {@link TurnPathCache} answers them synchronously and
 * remembers each answer, and each whole resolution (`ResolvedPath` per requested string, a pure
 * function of the answers it read), so calls that share folders look at each folder once, a
 * repeated path costs one map lookup, and no lookup waits for the thread pool.
 *
 * It never weakens the path policy: resolution runs the same algorithm on the same answers the
 * file system gives (`entrySync` is `entry` with synchronous calls). What may change the tree
 * while a run goes on, and why a kept answer is still the file system's:
 *
 * - **The run's own tool calls.** The dispatcher (`dispatch.ts`) clears the cache after every call
 *   that is not a concurrent read, and while a call that may write is in flight nothing is cached
 *   ({@link TurnPathCache.hold}); reads running concurrently change no links.
 * - **Processes those calls started.** A command's background job can keep changing the tree
 *   after its call returns. So answers are kept from one turn to the next only while the run is
 *   *quiet*: every call executed so far was a policy-classed `read` of a tool known to change
 *   nothing (the dispatcher's list: `read_file`, `list_dir`, `search_code`; no command, no
 *   subagent, no tool of unknown behaviour). The first other call ends that for the rest of the
 *   run ({@link TurnPathCache.endCarry}, before it runs): from then on every turn starts empty, as
 *   before. A subagent's run never keeps answers across turns (its parent's commands may still
 *   run), and neither does a run whose sandbox is not a host sandbox (below), nor one whose
 *   sandbox already holds a file `write_file` created (an earlier run of a chat: the file tools
 *   read such a file even when hard-linked, so only a fresh `lstat` would show a hard link to an
 *   outside file made since, which the policy asks about).
 * - **The harness itself.** Spill files, session logs and the `.gitignore` of `.harness-bench/`
 *   are created below the workspace (regular files and folders, never links), appended to or
 *   rewritten in place. That turns a missing component into an existing one and changes nothing
 *   else a lookup sees, so only answers about existing components are kept across turns: missing
 *   and unreadable ones, and every resolution that read one, are dropped at each turn's start.
 * - **Outside actors** (another process, a user's shell): the window between a check and the use
 *   of its path that every check-then-use has. Within a turn it is what it was. Across turns a
 *   kept answer is used only by the checks of tools that open what the policy resolved below the
 *   workspace without following any link and refuse hard-linked files (`sandbox/beneath.ts`,
 *   through a host sandbox's `readFile`, `writeFile` and `list` with `root`: the file tools
 *   `read_file`, `list_dir`, `search_code`, `write_file`, `str_replace`): a folder swapped for a
 *   link since is then `ELOOP` at the open, never a read or write outside. Before the checks of
 *   any other call (a command, which follows links; a tool of unknown behaviour) kept answers are
 *   dropped ({@link TurnPathCache.freshen}), and every turn that keeps answers first checks that
 *   the workspace folder is still the one they were read under (`stat`, device and inode:
 *   the opens start at the workspace by its path, so a swapped workspace or ancestor must not be
 *   trusted). A swap by an outside actor during a quiet run may then give `tool_failed` (`ELOOP`)
 *   where a fresh check would have denied the path: refused either way.
 */
import { statSync } from 'node:fs';
import { entrySync, type PathEntry, type PathLookup, type ResolvedPath } from '../policy/paths.ts';

/**
 * `device:inode` of a folder (links followed), or undefined when it cannot be read: missing,
 * a link loop, no permission (any error: the caller then keeps no answer across turns).
 */
export function folderIdentity(folder: string): string | undefined {
  try {
    const st = statSync(folder, { throwIfNoEntry: false });
    return st ? `${st.dev}:${st.ino}` : undefined;
  } catch {
    return undefined;
  }
}

/** Synchronous, memoised component lookups and resolutions for the checks of a run. */
export class TurnPathCache implements PathLookup {
  /** Per absolute path: an existing component (`other` or `link`), kept across quiet turns. */
  private readonly kept = new Map<string, PathEntry>();
  /** Per absolute path: a missing or unreadable component, dropped at every turn. */
  private readonly turnOnly = new Map<string, PathEntry>();
  /** Resolutions of {@link memoWorkspace} that read only existing components, by requested string. */
  private readonly keptMemo = new Map<string, ResolvedPath>();
  /** Resolutions of {@link memoWorkspace} that read a missing or unreadable component. */
  private readonly turnMemo = new Map<string, ResolvedPath>();
  private memoWorkspace: string | undefined;
  /** Calls in flight that may change the tree (commands): while any is, nothing is cached. */
  private held = 0;
  /** False once a call ran that may leave the tree changing (see the file comment). */
  private quiet = true;
  /** The kept answers come from an earlier turn. */
  private carried = false;
  /** {@link folderIdentity} of the workspace the kept answers were read under. */
  private identity: string | undefined;

  /**
   * @param read how a component is read (`entrySync`; tests count calls with a fake)
   * @param identify `device:inode` of the workspace ({@link folderIdentity})
   */
  constructor(
    private readonly read: (file: string) => PathEntry = entrySync,
    private readonly identify: (folder: string) => string | undefined = folderIdentity,
  ) {}

  /** The component at `file`; never throws (errors are `{ kind: 'error' }`, as uncached). */
  entry(file: string): PathEntry {
    if (this.held > 0) return this.read(file);
    let known = this.kept.get(file) ?? this.turnOnly.get(file);
    if (known === undefined) {
      known = this.read(file);
      (known.kind === 'missing' || known.kind === 'error' ? this.turnOnly : this.kept).set(file, known);
    }
    return known;
  }

  /** The remembered resolution of `requested` under `workspace` (frozen: never mutate it), or undefined. */
  recall(workspace: string, requested: string): ResolvedPath | undefined {
    if (this.held > 0 || workspace !== this.memoWorkspace) return undefined;
    return this.keptMemo.get(requested) ?? this.turnMemo.get(requested);
  }

  /**
   * Remembers a resolution made entirely from this cache's answers (no lookup awaited, none
   * dropped meanwhile). `durable`: it read no missing or unreadable component. Freezes it.
   */
  remember(workspace: string, requested: string, resolved: ResolvedPath, durable: boolean): void {
    if (this.held > 0) return;
    if (workspace !== this.memoWorkspace) {
      this.keptMemo.clear();
      this.turnMemo.clear();
      this.memoWorkspace = workspace;
    }
    (durable ? this.keptMemo : this.turnMemo).set(requested, Object.freeze(resolved));
  }

  /**
   * A turn starts. `carry`: the run may keep answers across turns (a root run on a host
   * sandbox); they are kept when it may and the run is still quiet and `workspace` is the same
   * folder it was, else every answer is forgotten.
   */
  startTurn(workspace: string, carry: boolean): void {
    this.turnOnly.clear();
    this.turnMemo.clear();
    if (!carry || !this.quiet) {
      this.clear();
      return;
    }
    const identity = this.identify(workspace);
    if (identity === undefined || identity !== this.identity) {
      this.clear();
      this.identity = identity;
      return;
    }
    this.carried = this.kept.size > 0;
  }

  /** Before the checks of a call whose use may follow links: forget what an earlier turn read. */
  freshen(): void {
    if (this.carried) this.clear();
  }

  /** A call that may leave the tree changing is about to run: no answer outlives a turn from now on. */
  endCarry(): void {
    this.quiet = false;
  }

  /** True until {@link endCarry}: every call so far was a read by a tool known to change nothing. */
  get isQuiet(): boolean {
    return this.quiet;
  }

  /** Forgets every answer and resolution (a call that may have changed the tree ran). */
  clear(): void {
    this.kept.clear();
    this.turnOnly.clear();
    this.keptMemo.clear();
    this.turnMemo.clear();
    this.carried = false;
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
