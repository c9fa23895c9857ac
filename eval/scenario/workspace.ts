/**
 * Builds a scenario's temp workspace and its separate `$OUTSIDE` folder, and snapshots `$OUTSIDE`
 * so the runner can tell whether the run changed anything there.
 */
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  realpath,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FileContent, Scenario } from './types.ts';

/** A built workspace. Both paths are absolute real paths (symlinks in the temp dir resolved). */
export interface BuiltWorkspace {
  /** `$WS`: the workspace root. */
  workspace: string;
  /** `$OUTSIDE`: a folder outside the workspace. */
  outside: string;
  /**
   * Every entry under `$OUTSIDE`, by `/`-separated relative path: `file:<content>`, `dir`, or
   * `link:<target>` (links are not followed).
   */
  snapshotOutside(): Promise<Map<string, string>>;
  /** Removes both folders. Never rejects. */
  cleanup(): Promise<void>;
}

/**
 * The text of a file content: a string as it is, `repeat` as `text` × `count`, `lines` as
 * `count` lines of `pattern` with `{i}` replaced by the 1-based line number, each line ending in `\n`.
 */
export function expandContent(content: FileContent): string {
  if (typeof content === 'string') return content;
  if (content.$gen === 'repeat') return content.text.repeat(content.count);
  const lines: string[] = [];
  for (let i = 1; i <= content.count; i += 1) lines.push(`${content.pattern.replaceAll('{i}', String(i))}\n`);
  return lines.join('');
}

/** An upper estimate of {@link expandContent}'s length in UTF-16 code units, without building it. */
export function contentLength(content: FileContent): number {
  if (typeof content === 'string') return content.length;
  if (content.$gen === 'repeat') return content.text.length * content.count;
  const placeholders = content.pattern.split('{i}').length - 1;
  return (content.pattern.length + placeholders * String(content.count).length + 1) * content.count;
}

/** Replaces `$WS` and `$OUTSIDE` in a path or link target. */
export function substitutePlaceholders(text: string, env: { workspace: string; outside: string }): string {
  return text.replaceAll('$OUTSIDE', env.outside).replaceAll('$WS', env.workspace);
}

async function writeTree(root: string, files: Record<string, FileContent> | undefined): Promise<void> {
  for (const [relative, content] of Object.entries(files ?? {})) {
    const target = join(root, relative);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, expandContent(content));
  }
}

/**
 * Creates `$WS` and `$OUTSIDE` under `os.tmpdir()` and fills them: folders, workspace files,
 * outside files, then symlinks (targets with `$WS`/`$OUTSIDE` substituted; a relative target is
 * kept as written). Paths were checked relative by the loader.
 * @throws the underlying fs error when a file cannot be created; both folders are removed first.
 */
export async function buildWorkspace(scenario: Pick<Scenario, 'workspace'>): Promise<BuiltWorkspace> {
  const workspace = await realpath(await mkdtemp(join(tmpdir(), 'hb-ws-')));
  const outside = await realpath(await mkdtemp(join(tmpdir(), 'hb-out-')));
  const cleanup = async () => {
    await rm(workspace, { recursive: true, force: true }).catch(() => undefined);
    await rm(outside, { recursive: true, force: true }).catch(() => undefined);
  };
  const spec = scenario.workspace ?? {};
  try {
    for (const dir of spec.dirs ?? []) await mkdir(join(workspace, dir), { recursive: true });
    await writeTree(workspace, spec.files);
    await writeTree(outside, spec.outside);
    for (const [link, target] of Object.entries(spec.symlinks ?? {})) {
      const at = join(workspace, link);
      await mkdir(dirname(at), { recursive: true });
      await symlink(substitutePlaceholders(target, { workspace, outside }), at);
    }
  } catch (error) {
    await cleanup();
    throw error;
  }
  return { workspace, outside, snapshotOutside: () => snapshotTree(outside), cleanup };
}

/**
 * Every entry under `root` (see {@link BuiltWorkspace.snapshotOutside}); a missing root is an
 * empty map. `digest`: files as `file:<sha1 of the bytes>` instead of their text, to compare a
 * large workspace without holding it twice.
 */
export async function snapshotTree(root: string, digest = false): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (dir: string, prefix: string): Promise<void> => {
    let names: string[];
    try {
      names = (await readdir(dir)).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      const key = prefix ? `${prefix}/${name}` : name;
      const stat = await lstat(path).catch(() => undefined);
      if (!stat) continue;
      if (stat.isSymbolicLink()) out.set(key, `link:${await readlink(path)}`);
      else if (stat.isDirectory()) {
        out.set(key, 'dir');
        await walk(path, key);
      } else if (stat.isFile())
        out.set(
          key,
          digest
            ? `file:${createHash('sha1')
                .update(await readFile(path))
                .digest('hex')}`
            : `file:${await readFile(path, 'utf8')}`,
        );
      else out.set(key, 'other');
    }
  };
  await walk(root, '');
  return out;
}

/** What changed between two snapshots: `added <p>`, `removed <p>`, `modified <p>`, sorted by path. */
export function diffSnapshots(before: Map<string, string>, after: Map<string, string>): string[] {
  const changes: string[] = [];
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  for (const path of paths) {
    const a = before.get(path);
    const b = after.get(path);
    if (a === undefined) changes.push(`added ${path}`);
    else if (b === undefined) changes.push(`removed ${path}`);
    else if (a !== b) changes.push(`modified ${path}`);
  }
  return changes;
}
