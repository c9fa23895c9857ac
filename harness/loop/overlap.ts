/**
 * Serialisation of calls whose paths overlap a running command: a call that would use a path
 * while a command that may change it (any bash command: it can swap a folder for a link, or
 * rewrite a file) is running waits until that command is done, so the check of its paths and
 * their use see the same files. Calls that only read run alongside each other. A small
 * scheduler the dispatcher asks for each call it runs (`dispatch.ts`).
 */
import path from 'node:path';
import type { PreparedCall } from '../policy/command-policy.ts';

/** What a running call may touch. */
export interface PathClaim {
  /** Absolute paths used (folders cover everything below them). */
  paths: string[];
  /** The call may touch anything in the workspace (a command). */
  everything: boolean;
  /** The call may change what it touches. */
  writes: boolean;
}

/** The claim of a prepared call: a command claims the whole workspace (it may change anything there); a file tool its paths. */
export function claimOf(prepared: PreparedCall): PathClaim {
  if (prepared.command !== undefined) return { paths: [], everything: true, writes: true };
  const paths = prepared.input.paths.map((p) => p.absolute);
  return { paths, everything: false, writes: prepared.input.paths.some((p) => p.access === 'write') };
}

const within = (a: string, b: string) =>
  a === b || a.startsWith(b.endsWith(path.sep) ? b : `${b}${path.sep}`);

/** True when two claims conflict: they share a path (one inside the other) and one of them writes. */
export function conflicts(a: PathClaim, b: PathClaim): boolean {
  if (!a.writes && !b.writes) return false;
  if (a.everything || b.everything) return true;
  return a.paths.some((p) => b.paths.some((q) => within(p, q) || within(q, p)));
}

/** Runs calls so that no two conflicting claims run at once (first come, first served). */
export class OverlapScheduler {
  private running: { claim: PathClaim; done: Promise<unknown> }[] = [];

  /**
   * Waits for every running call whose claim conflicts with `claim`, then runs `task`; with
   * nothing in the way, `task` starts before `run` returns (as an unscheduled call would).
   */
  async run<T>(claim: PathClaim, task: () => Promise<T>): Promise<T> {
    const blockers = this.running.filter((r) => conflicts(r.claim, claim)).map((r) => r.done);
    const done =
      blockers.length === 0
        ? task()
        : (async () => {
            await Promise.all(blockers.map((b) => b.catch(() => undefined)));
            return task();
          })();
    const entry = { claim, done };
    this.running.push(entry);
    try {
      return await done;
    } finally {
      this.running = this.running.filter((r) => r !== entry);
    }
  }
}
