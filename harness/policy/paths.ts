/**
 * Path resolution for the path policy: every component is resolved like `realpath` does
 * (symbolic links followed, `..` applied after the link it follows), and the part of the path
 * that does not exist yet is appended as written. So a dangling link, a link as the last
 * component, or `output/../x` all resolve to where a write would really land (handed cases
 * E07 opencode#43336 and E08 thClaws#204).
 */
import { lstat, readlink } from 'node:fs/promises';
import path from 'node:path';

/** A path after resolution. `relative` is POSIX-style and relative to the workspace when inside. */
export interface ResolvedPath {
  requested: string;
  absolute: string;
  inside: boolean;
  relative: string;
}

const MAX_LINK_HOPS = 40;

/**
 * The two file-system calls resolution makes, injectable so a caller can serve them from a
 * per-turn cache (`tools/path-cache.ts`). `isLink` fails (throws or rejects) when the path
 * cannot be looked at (missing, not a directory, no permission).
 */
export interface PathLookup {
  isLink(file: string): boolean | Promise<boolean>;
  readlink(file: string): string | Promise<string>;
}

/** `lstat` and `readlink` of `node:fs/promises`. */
const NODE_LOOKUP: PathLookup = {
  isLink: async (file) => (await lstat(file)).isSymbolicLink(),
  readlink: (file) => readlink(file),
};

/**
 * Resolves `requested` (relative to `workspace`, or absolute) to its real location.
 * `workspace` must already be a real path. Never throws for missing files; a link loop (more
 * than 40 hops, as Linux's `ELOOP`) resolves to the last position reached and is reported as
 * outside the workspace, so it is denied.
 */
export async function resolvePath(
  workspace: string,
  requested: string,
  lookup: PathLookup = NODE_LOOKUP,
): Promise<ResolvedPath> {
  // Not path.join: it would apply `..` lexically before links are followed (`link/../x` must go where the link points).
  const start = path.isAbsolute(requested) ? requested : `${workspace}${path.sep}${requested}`;
  const queue = start.split(path.sep).filter((part) => part !== '');
  let current = path.parse(start).root || path.sep;
  let hops = 0;
  let missing = false;
  let loop = false;
  while (queue.length > 0) {
    const part = queue.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      current = path.dirname(current);
      // Back in a folder that may exist: the components after it must be checked for links again.
      missing = false;
      continue;
    }
    const next = path.join(current, part);
    if (missing) {
      current = next;
      continue;
    }
    let isLink = false;
    try {
      isLink = await lookup.isLink(next);
    } catch {
      missing = true;
      current = next;
      continue;
    }
    if (!isLink) {
      current = next;
      continue;
    }
    hops += 1;
    if (hops > MAX_LINK_HOPS) {
      loop = true;
      current = next;
      break;
    }
    const target = await lookup.readlink(next);
    queue.unshift(...target.split(path.sep).filter((p) => p !== ''));
    if (path.isAbsolute(target)) current = path.parse(target).root || path.sep;
  }
  const relative = path.relative(workspace, current);
  const inside =
    !loop &&
    (relative === '' ||
      (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative)));
  return {
    requested,
    absolute: current,
    inside,
    relative: inside ? relative.split(path.sep).join('/') || '.' : current,
  };
}
