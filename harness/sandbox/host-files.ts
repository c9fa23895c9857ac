/**
 * File operations on the real file system, shared by every sandbox that runs on the host
 * (`none`, `bwrap`, `seatbelt`): the harness process itself is not boxed, so its file tools go
 * through `node:fs` at the paths the path policy resolved. Commands are left to subclasses.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DirEntry, ExecOptions, ExecResult, Sandbox } from './types.ts';

/**
 * Regular files up to this size are read synchronously: one blocking read of a few KiB costs less
 * than the thread-pool round trips (open, stat, read, close) of an asynchronous read, which were
 * most of a tool loop's step (`bench/`). Anything else is read asynchronously. Bytes.
 */
export const SYNC_READ_MAX_BYTES = 64 * 1024;

/** Non-blocking open: a FIFO or device never blocks the thread (it is then read asynchronously). */
const SYNC_OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/**
 * The text of `file` when it is a regular file of at most {@link SYNC_READ_MAX_BYTES} (checked on
 * the opened descriptor), else undefined. Errors are left to the asynchronous read.
 */
function readSmallFileSync(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, SYNC_OPEN_FLAGS);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    return st.isFile() && st.size <= SYNC_READ_MAX_BYTES ? readFileSync(fd, 'utf8') : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** `readFile`, `writeFile`, `list`, `realpath`, `exists` through `node:fs`; `exec` is the subclass's. */
export abstract class HostFileSandbox implements Sandbox {
  abstract readonly kind: string;

  /** UTF-8 text of `file` (links followed); rejects with the Node error (`ENOENT`, `EISDIR`, …). */
  async readFile(file: string): Promise<string> {
    return readSmallFileSync(file) ?? readFile(file, 'utf8');
  }

  /** Creates missing parent folders, then writes UTF-8 text. */
  async writeFile(file: string, content: string): Promise<void> {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content, 'utf8');
  }

  /** Entries sorted by name; links are reported as `symlink`, not followed; files carry their size in bytes. */
  async list(dir: string): Promise<DirEntry[]> {
    const entries = await readdir(dir, { withFileTypes: true });
    const out: DirEntry[] = [];
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const kind = entry.isSymbolicLink()
        ? 'symlink'
        : entry.isDirectory()
          ? 'dir'
          : entry.isFile()
            ? 'file'
            : 'other';
      const item: DirEntry = { name: entry.name, kind };
      if (kind === 'file') item.size = (await stat(path.join(dir, entry.name))).size;
      out.push(item);
    }
    return out;
  }

  async realpath(file: string): Promise<string> {
    return realpath(file);
  }

  async exists(file: string): Promise<boolean> {
    try {
      await stat(file);
      return true;
    } catch {
      return false;
    }
  }

  abstract exec(command: string, options: ExecOptions): Promise<ExecResult>;
}
