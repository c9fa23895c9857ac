/**
 * Per-process temporary folders of the sandboxes (the box's synthetic `/etc` files, the git
 * guard's shim), left nothing behind: each is named after the process that made it
 * (`PREFIX<pid>-XXXXXX`), removed when that process exits (normally, by `process.exit`, or by an
 * uncaught exception), and one whose process is gone (killed with SIGKILL, a crash that skipped
 * the exit handlers) is removed by the next process that makes one of the same prefix.
 */
import { mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const made = new Set<string>();
let hooked = false;

/** True when a process with this id is alive (or not ours to signal). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the folders of `prefix` in `dir` whose process is gone; returns how many. Never throws
 * (a folder that cannot be removed stays).
 */
export function sweepStale(prefix: string, dir: string = tmpdir()): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(/^(\d+)-/.exec(name.slice(prefix.length))?.[1]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || alive(pid)) continue;
    try {
      rmSync(path.join(dir, name), { recursive: true, force: true });
      removed += 1;
    } catch {
      /* left for a later sweep */
    }
  }
  return removed;
}

/**
 * A new folder `PREFIX<pid>-XXXXXX` in the system temp folder (its real path), removed when this
 * process exits; stale ones of the same prefix are swept first.
 */
export function processTempDir(prefix: string): string {
  sweepStale(prefix);
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), `${prefix}${process.pid}-`)));
  made.add(dir);
  if (!hooked) {
    hooked = true;
    process.once('exit', () => {
      for (const folder of made) rmSync(folder, { recursive: true, force: true });
    });
  }
  return dir;
}
