/**
 * Path resolution for the path policy: every component is resolved like `realpath` does
 * (symbolic links followed, `..` applied after the link it follows), and the part of the path
 * that does not exist yet is appended as written. So a dangling link, a link as the last
 * component, or `output/../x` all resolve to where a write would really land (handed cases
 * E07 opencode#43336 and E08 thClaws#204). A link that changes while it is resolved (a racing
 * `ln -sfn`) never throws: the component is read again, and a path that cannot be resolved is
 * reported with `error` (the policy denies it, `path:unresolvable`).
 */
import { lstatSync, readlinkSync } from 'node:fs';
import { lstat, readlink } from 'node:fs/promises';
import path from 'node:path';

/** A path after resolution. `relative` is POSIX-style and relative to the workspace when inside. */
export interface ResolvedPath {
  requested: string;
  absolute: string;
  inside: boolean;
  relative: string;
  /** Hard links of the file it resolves to, when that is an existing regular file (`st_nlink`). */
  links?: number;
  /** Why the path could not be resolved (a component kept changing, a permission error): the policy denies it. */
  error?: string;
}

const MAX_LINK_HOPS = 40;
/** How often a component that changes between `lstat` and `readlink` is read again. */
const MAX_RETRIES = 8;

/** One component as resolution sees it: missing, a link and its target, or anything else. */
type Entry =
  | { kind: 'missing' }
  | { kind: 'link'; target: string }
  | { kind: 'other'; links: number; file: boolean };

/** An {@link Entry}, or why the component could not be read. */
export type PathEntry = Entry | { kind: 'error'; message: string };

/** Reads one component: missing, a link and its target, or anything else. Retries when it changes under us. */
async function entry(file: string): Promise<Entry | { kind: 'error'; message: string }> {
  for (let attempt = 0; attempt < MAX_RETRIES; attempt += 1) {
    let stats: Awaited<ReturnType<typeof lstat>>;
    try {
      stats = await lstat(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
      return { kind: 'error', message: `${file}: ${code ?? (error as Error).message}` };
    }
    if (!stats.isSymbolicLink()) return { kind: 'other', links: stats.nlink, file: stats.isFile() };
    try {
      return { kind: 'link', target: await readlink(file) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // EINVAL: it is no link any more; ENOENT: it is gone. Read it again.
      if (code !== 'EINVAL' && code !== 'ENOENT') return { kind: 'error', message: `${file}: ${code}` };
    }
  }
  return { kind: 'error', message: `${file} kept changing while it was resolved` };
}

/** `entry` with synchronous calls, for the per-turn cache (`tools/path-cache.ts`): the same answers. */
export function entrySync(file: string): PathEntry {
  for (let attempt = 0; attempt < MAX_RETRIES; attempt += 1) {
    let stats: ReturnType<typeof lstatSync>;
    try {
      stats = lstatSync(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
      return { kind: 'error', message: `${file}: ${code ?? (error as Error).message}` };
    }
    if (!stats.isSymbolicLink()) return { kind: 'other', links: stats.nlink, file: stats.isFile() };
    try {
      return { kind: 'link', target: readlinkSync(file) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // EINVAL: it is no link any more; ENOENT: it is gone. Read it again.
      if (code !== 'EINVAL' && code !== 'ENOENT') return { kind: 'error', message: `${file}: ${code}` };
    }
  }
  return { kind: 'error', message: `${file} kept changing while it was resolved` };
}

/**
 * How resolution reads a component, injectable so a caller can serve it from a per-turn cache
 * (`tools/path-cache.ts`). Never throws: failures are `{ kind: 'error' }` entries.
 */
export interface PathLookup {
  entry(file: string): PathEntry | Promise<PathEntry>;
  /**
   * A whole resolution remembered by a cache with exactly the lifetime of its answers (it is a
   * pure function of them), or undefined. The object is shared: callers must not mutate it.
   */
  recall?(workspace: string, requested: string): ResolvedPath | undefined;
  /**
   * Called with a resolution made only from answers `entry` gave synchronously. `durable`: no
   * component it read was missing or unreadable.
   */
  remember?(workspace: string, requested: string, resolved: ResolvedPath, durable: boolean): void;
}

/** `lstat` and `readlink` of `node:fs/promises`, with retries. */
const NODE_LOOKUP: PathLookup = { entry };

/**
 * Resolves `requested` (relative to `workspace`, or absolute) to its real location.
 * `workspace` must already be a real path. Never throws: a missing file resolves to where it
 * would be created; a link loop (more than 40 hops, as Linux's `ELOOP`) resolves to the last
 * position reached and is reported as outside the workspace, so it is denied; an unreadable or
 * racing component sets `error`. Through a lookup that remembers resolutions
 * (`PathLookup.recall`), a repeated path is answered from memory: the result may then be a
 * shared, frozen object (never mutate it; copy it).
 */
export async function resolvePath(
  workspace: string,
  requested: string,
  lookup: PathLookup = NODE_LOOKUP,
): Promise<ResolvedPath> {
  const known = lookup.recall?.(workspace, requested);
  if (known !== undefined) return known;
  // Not path.join: it would apply `..` lexically before links are followed (`link/../x` must go where the link points).
  const start = path.isAbsolute(requested) ? requested : `${workspace}${path.sep}${requested}`;
  const queue = start.split(path.sep).filter((part) => part !== '');
  let current = path.parse(start).root || path.sep;
  let hops = 0;
  let missing = false;
  let loop = false;
  let links: number | undefined;
  let error: string | undefined;
  // Whether every answer came synchronously (nothing else ran meanwhile) and none was of a missing component.
  let waited = false;
  let sawMissing = false;
  while (queue.length > 0) {
    const part = queue.shift()!;
    links = undefined;
    if (part === '.') continue;
    if (part === '..') {
      current = path.dirname(current);
      // Back in a folder that may exist: the components after it must be checked for links again.
      missing = false;
      continue;
    }
    // `current` is normalised (only a root ends with a separator) and `part` one plain
    // component: path.join of them is their concatenation.
    const next = current.endsWith(path.sep) ? `${current}${part}` : `${current}${path.sep}${part}`;
    if (missing) {
      current = next;
      continue;
    }
    // A per-turn cache answers synchronously: no await (and no microtask) per component then.
    const pending = lookup.entry(next);
    let found: PathEntry;
    if (pending instanceof Promise) {
      waited = true;
      found = await pending;
    } else found = pending;
    if (found.kind === 'error') {
      error = found.message;
      current = next;
      break;
    }
    if (found.kind === 'missing') {
      missing = true;
      sawMissing = true;
      current = next;
      continue;
    }
    if (found.kind === 'other') {
      if (found.file) links = found.links;
      current = next;
      continue;
    }
    hops += 1;
    if (hops > MAX_LINK_HOPS) {
      loop = true;
      current = next;
      break;
    }
    queue.unshift(...found.target.split(path.sep).filter((p) => p !== ''));
    if (path.isAbsolute(found.target)) current = path.parse(found.target).root || path.sep;
  }
  const relative = path.relative(workspace, current);
  const inside =
    !loop &&
    error === undefined &&
    (relative === '' ||
      (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative)));
  const resolved: ResolvedPath = {
    requested,
    absolute: current,
    inside,
    relative: inside ? relative.split(path.sep).join('/') || '.' : current,
  };
  // Set after the others, as the spreads were (the same keys in the same order).
  if (links !== undefined && queue.length === 0) resolved.links = links;
  if (error !== undefined) resolved.error = error;
  if (!waited && lookup.remember)
    lookup.remember(workspace, requested, resolved, !sawMissing && error === undefined);
  return resolved;
}
