/**
 * Files opened below a root folder without following any link: the check the path policy made
 * (`policy/paths.ts`) and the use cannot drift apart when a command swaps a folder for a link in
 * between. On Linux every component is opened relative to the descriptor of its parent with
 * `O_NOFOLLOW` (through `/proc/self/fd/N/name`, which is `openat(N, name, …)`), so a link at any
 * depth below the root fails with `ELOOP` instead of being followed; missing folders are created
 * the same way. Elsewhere (no `/proc`), each component is opened by its full path with
 * `O_NOFOLLOW` and the opened file is compared (device and inode) with the path afterwards: a
 * narrow race remains there. Regular files with more than one hard link are refused for writes
 * (a write would change the other names, which may be outside the workspace) and, unless the
 * caller allows it, for reads (`HardLinkError`). Errors are Node-style (`code`), never a crash.
 * On Linux a small regular file is read with synchronous calls (the same opens and checks; a
 * thread-pool round trip per call was most of a tool loop's step); anything else asynchronously.
 */
import {
  closeSync,
  type Dirent,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
} from 'node:fs';
import { constants, lstat, mkdir, open, readdir, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { DirEntry } from './types.ts';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_DIRECTORY, O_APPEND, O_NONBLOCK } = constants;
/** True when descriptors can be used as folders in paths (`/proc/self/fd/N/name`). */
export const DESCRIPTOR_PATHS = process.platform === 'linux' && existsSync('/proc/self/fd');

/** A Node-style error with a code. */
export function failure(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/** A regular file with more than one hard link: refused (`code: 'EMLINK'`). */
export class HardLinkError extends Error {
  override readonly name = 'HardLinkError';
  readonly code = 'EMLINK';
  constructor(
    readonly file: string,
    readonly links: number,
  ) {
    super(
      `${file} has ${links} hard links; another name of it may be outside the workspace, so it is refused`,
    );
  }
}

/** The components of `file` below `root`, or an error when it is not below it. */
export function componentsBelow(root: string, file: string): string[] {
  const relative = path.relative(root, path.resolve(root, file));
  if (relative === '') return [];
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative))
    throw failure('EACCES', `${file} is not inside ${root}`);
  return relative.split(path.sep).filter((part) => part !== '' && part !== '.');
}

/** Opens `name` inside the open folder `dir` without following a link there. */
function openAt(
  dir: FileHandle,
  dirPath: string,
  name: string,
  flags: number,
  mode?: number,
): Promise<FileHandle> {
  const target = DESCRIPTOR_PATHS ? `/proc/self/fd/${dir.fd}/${name}` : path.join(dirPath, name);
  return open(target, flags | O_NOFOLLOW, mode);
}

async function isLink(file: string): Promise<boolean> {
  try {
    return (await lstat(file)).isSymbolicLink();
  } catch {
    return false;
  }
}

async function sameFile(handle: FileHandle, file: string): Promise<void> {
  if (DESCRIPTOR_PATHS) return;
  const [a, b] = await Promise.all([handle.stat(), lstat(file)]);
  if (a.dev !== b.dev || a.ino !== b.ino) throw failure('ELOOP', `${file} changed while it was opened`);
}

/** Opens the folder holding `file` below `root`, each component without following links; creates missing ones when asked. */
async function openParent(
  root: string,
  parts: readonly string[],
  create: boolean,
): Promise<{ dir: FileHandle; dirPath: string }> {
  let dir = await open(root, O_RDONLY | O_DIRECTORY);
  let dirPath = root;
  try {
    for (const part of parts) {
      let next: FileHandle;
      try {
        next = await openAt(dir, dirPath, part, O_RDONLY | O_DIRECTORY);
      } catch (error) {
        // O_DIRECTORY with O_NOFOLLOW on a link fails with ENOTDIR: say it is a link.
        if ((error as NodeJS.ErrnoException).code === 'ENOTDIR' && (await isLink(path.join(dirPath, part))))
          throw failure('ELOOP', `${path.join(dirPath, part)} is a symbolic link`);
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !create) throw error;
        await mkdir(DESCRIPTOR_PATHS ? `/proc/self/fd/${dir.fd}/${part}` : path.join(dirPath, part)).catch(
          (e) => {
            if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
          },
        );
        next = await openAt(dir, dirPath, part, O_RDONLY | O_DIRECTORY);
      }
      await dir.close();
      dir = next;
      dirPath = path.join(dirPath, part);
      await sameFile(dir, dirPath);
    }
    return { dir, dirPath };
  } catch (error) {
    await dir.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Opens `file` (absolute or relative to `root`) below `root` without following any link below
 * the root. `root` must be a real path (it is opened as given).
 * @throws `ELOOP` (a link in the path), `ENOTDIR`, `ENOENT`, `EEXIST` (with `exclusive`), Node's other codes.
 */
export async function openBeneath(
  root: string,
  file: string,
  flags: number,
  options: { mkdirs?: boolean; mode?: number } = {},
): Promise<FileHandle> {
  const parts = componentsBelow(root, file);
  if (parts.length === 0) return open(root, flags);
  const { dir, dirPath } = await openParent(root, parts.slice(0, -1), options.mkdirs === true);
  try {
    const handle = await openAt(dir, dirPath, parts[parts.length - 1]!, flags, options.mode);
    await sameFile(handle, path.join(dirPath, parts[parts.length - 1]!)).catch(async (error) => {
      await handle.close();
      throw error;
    });
    return handle;
  } finally {
    await dir.close();
  }
}

/** What {@link readBeneath} found. */
export interface BeneathRead {
  text: string;
  /** `device:inode` of the file read. */
  id: string;
}

/**
 * Reads a UTF-8 file below `root` without following links.
 * @param allowHardLinks read a file with several hard links anyway (one this run created)
 * @throws HardLinkError, and `ELOOP`, `EISDIR`, `ENOENT`, … as Node errors
 */
export async function readBeneath(
  root: string,
  file: string,
  allowHardLinks: (id: string) => boolean = () => false,
): Promise<BeneathRead> {
  if (DESCRIPTOR_PATHS) {
    const read = readSmallBeneathSync(root, file, allowHardLinks);
    if (read !== undefined) return read;
  }
  const handle = await openBeneath(root, file, O_RDONLY);
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) throw failure('EISDIR', `${file} is a directory`);
    const id = `${stats.dev}:${stats.ino}`;
    if (stats.isFile() && stats.nlink > 1 && !allowHardLinks(id)) throw new HardLinkError(file, stats.nlink);
    return { text: await handle.readFile('utf8'), id };
  } finally {
    await handle.close();
  }
}

/**
 * Regular files up to this size are read below the root synchronously: one blocking read of a
 * few KiB costs far less than the thread-pool round trips of the asynchronous open, open, close,
 * stat, read, close (about 100 µs of CPU against 13, most of a tool loop's step: `bench/`).
 * Anything else is read asynchronously. Bytes.
 */
export const SYNC_READ_MAX_BYTES = 64 * 1024;

/**
 * {@link readBeneath} with synchronous calls, for a regular file of at most
 * {@link SYNC_READ_MAX_BYTES}: the same opens (each component relative to its parent's
 * descriptor with `O_NOFOLLOW`), the same checks in the same order and the same errors. The last
 * component is opened with `O_NONBLOCK`, so a FIFO or a device never blocks the thread: for
 * those, for a larger file and for the root itself it returns undefined and the caller reads
 * asynchronously, exactly as before. Linux only (`DESCRIPTOR_PATHS`).
 * @throws as {@link readBeneath}
 */
function readSmallBeneathSync(
  root: string,
  file: string,
  allowHardLinks: (id: string) => boolean,
): BeneathRead | undefined {
  const parts = componentsBelow(root, file);
  if (parts.length === 0) return undefined;
  const dir = openParentSync(root, parts, false);
  try {
    const fd = openSync(
      `/proc/self/fd/${dir}/${parts[parts.length - 1]!}`,
      O_RDONLY | O_NOFOLLOW | O_NONBLOCK,
    );
    return readOpened(fd, file, allowHardLinks);
  } finally {
    closeSync(dir);
  }
}

/**
 * The descriptor of the folder holding the last of `parts` below `root`, each component opened
 * relative to its parent's descriptor with `O_NOFOLLOW` (`/proc/self/fd/N/name`); with `create`,
 * a missing folder is made the same way. Linux only (`DESCRIPTOR_PATHS`). The caller closes it.
 * @throws `ELOOP` (a link as a component), `ENOENT` (missing, without `create`), `ENOTDIR`, Node's other codes
 */
export function openParentSync(root: string, parts: readonly string[], create: boolean): number {
  let dir = openSync(root, O_RDONLY | O_DIRECTORY);
  let dirPath = root;
  try {
    for (let i = 0; i < parts.length - 1; i += 1) {
      const part = parts[i]!;
      const at = `/proc/self/fd/${dir}/${part}`;
      let next: number;
      try {
        next = openSync(at, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOTDIR' && isLinkSync(path.join(dirPath, part)))
          throw failure('ELOOP', `${path.join(dirPath, part)} is a symbolic link`);
        if (code !== 'ENOENT' || !create) throw error;
        try {
          mkdirSync(at);
        } catch (made) {
          if ((made as NodeJS.ErrnoException).code !== 'EEXIST') throw made;
        }
        next = openSync(at, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      }
      closeSync(dir);
      dir = next;
      dirPath = path.join(dirPath, part);
    }
    return dir;
  } catch (error) {
    closeSync(dir);
    throw error;
  }
}

/** The checks and the read of {@link readSmallBeneathSync} on the opened last component; closes `fd`. */
function readOpened(
  fd: number,
  file: string,
  allowHardLinks: (id: string) => boolean,
): BeneathRead | undefined {
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) throw failure('EISDIR', `${file} is a directory`);
    if (!stats.isFile() || stats.size > SYNC_READ_MAX_BYTES) return undefined;
    const id = `${stats.dev}:${stats.ino}`;
    if (stats.nlink > 1 && !allowHardLinks(id)) throw new HardLinkError(file, stats.nlink);
    return { text: readFileSync(fd, 'utf8'), id };
  } finally {
    closeSync(fd);
  }
}

function isLinkSync(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Creates or replaces a UTF-8 file below `root` without following links, creating missing folders
 * the same way. A file with several hard links is refused before anything is written.
 * @returns whether the file was created, and its `device:inode`
 * @throws HardLinkError, and `ELOOP`, `EISDIR`, `ENOTDIR`, … as Node errors
 */
export async function writeBeneath(
  root: string,
  file: string,
  content: string,
  options: { append?: boolean } = {},
): Promise<{ created: boolean; id: string }> {
  let created = true;
  let handle: FileHandle;
  try {
    handle = await openBeneath(root, file, O_WRONLY | O_CREAT | O_EXCL, { mkdirs: true, mode: 0o644 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    created = false;
    handle = await openBeneath(root, file, O_WRONLY | (options.append ? O_APPEND : 0));
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw failure('EISDIR', `${file} is not a regular file`);
    if (stats.nlink > 1) throw new HardLinkError(file, stats.nlink);
    if (!options.append) await handle.truncate(0);
    await handle.write(content, options.append ? null : 0, 'utf8');
    return { created, id: `${stats.dev}:${stats.ino}` };
  } finally {
    await handle.close();
  }
}

/**
 * The entries of a listed folder `base`, sorted by name in UTF-16 code-unit order (the same on
 * every machine, whatever its locale); links are reported as `symlink`, never followed; files
 * carry their size in bytes (0 when the file vanished while listing).
 */
export async function describeEntries(base: string, entries: Dirent[]): Promise<DirEntry[]> {
  const out: DirEntry[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const kind = entry.isSymbolicLink()
      ? 'symlink'
      : entry.isDirectory()
        ? 'dir'
        : entry.isFile()
          ? 'file'
          : 'other';
    const item: DirEntry = { name: entry.name, kind };
    if (kind === 'file')
      item.size = (await lstat(path.join(base, entry.name)).catch(() => undefined))?.size ?? 0;
    out.push(item);
  }
  return out;
}

/** Lists a folder below `root` without following links (links are reported as `symlink`), sorted by name. */
export async function listBeneath(root: string, folder: string): Promise<DirEntry[]> {
  const handle = await openBeneath(root, folder, O_RDONLY | O_DIRECTORY).catch(async (error) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR' && (await isLink(path.resolve(root, folder))))
      throw failure('ELOOP', `${folder} is a symbolic link`);
    throw error;
  });
  try {
    const base = DESCRIPTOR_PATHS ? `/proc/self/fd/${handle.fd}` : path.resolve(root, folder);
    return await describeEntries(base, await readdir(base, { withFileTypes: true }));
  } finally {
    await handle.close();
  }
}
