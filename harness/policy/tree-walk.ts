/**
 * The folder tree a recursive command reads or writes (`grep -r`, `tar c`, `cp -r`, `chmod -R`),
 * walked the way the program walks it, so the policy sees what a direct `cat` of each file would
 * show it: the links it would follow out of the workspace, the sensitive files it would read
 * (`.env`), and the hard-linked files it would read or change. Links are followed only where the
 * program follows them (`follows`), and then only into folders inside the workspace (a link out
 * is reported, not walked). Bounded: more than {@link MAX_TREE_ENTRIES} entries stop the walk,
 * and the policy asks (`path:tree-too-large`).
 */
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/** Entries (files, folders, links) walked before the walk stops. */
export const MAX_TREE_ENTRIES = 20_000;

/** What a walk found. Paths are absolute. */
export interface WalkedTree {
  /** Regular files met (reached without following a link, or through links the program follows). */
  files: string[];
  /** Links the program would follow (resolve each: one that leaves the workspace is a read outside). */
  links: string[];
  /** Regular files with more than one hard link. */
  hardLinked: string[];
  /** The walk stopped at {@link MAX_TREE_ENTRIES} entries. */
  truncated: boolean;
}

function inside(workspace: string, file: string): boolean {
  const relative = path.relative(workspace, file);
  return (
    relative === '' ||
    (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative))
  );
}

/**
 * Walks the tree under `root` (absolute, resolved) inside `workspace`. `follows`: `all` follows
 * every link met (into folders inside the workspace), `roots` and `none` follow none below the
 * root. Never throws: unreadable folders are skipped.
 */
export async function walkTree(
  workspace: string,
  root: string,
  follows: 'all' | 'roots' | 'none',
  limit = MAX_TREE_ENTRIES,
): Promise<WalkedTree> {
  const out: WalkedTree = { files: [], links: [], hardLinked: [], truncated: false };
  const seen = new Set<string>();
  const stack: string[] = [];
  let count = 0;
  try {
    const top = await stat(root);
    if (!top.isDirectory()) {
      if (top.isFile()) {
        out.files.push(root);
        if (top.nlink > 1) out.hardLinked.push(root);
      }
      return out;
    }
    stack.push(root);
    seen.add(await realpath(root));
  } catch {
    return out;
  }
  while (stack.length > 0) {
    const folder = stack.pop()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      count += 1;
      if (count > limit) {
        out.truncated = true;
        return out;
      }
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) stack.push(file);
      else if (entry.isFile()) {
        out.files.push(file);
        try {
          if ((await lstat(file)).nlink > 1) out.hardLinked.push(file);
        } catch {
          /* gone */
        }
      } else if (entry.isSymbolicLink() && follows === 'all') {
        out.links.push(file);
        let target: string;
        try {
          target = await realpath(file);
        } catch {
          continue;
        }
        if (!inside(workspace, target) || seen.has(target)) continue;
        try {
          const stats = await stat(target);
          if (stats.isDirectory()) {
            seen.add(target);
            stack.push(file);
          } else if (stats.isFile()) out.files.push(file);
        } catch {
          /* dangling */
        }
      }
    }
  }
  return out;
}
