/**
 * File operations on the real file system, shared by every sandbox that runs on the host
 * (`none`, `bwrap`, `seatbelt`): the harness process itself is not boxed, so its file tools go
 * through `node:fs` at the paths the path policy resolved — opened below the workspace without
 * following links (`beneath.ts`) when the caller gives the root, as the file tools and the
 * harness's own files do. Commands are left to subclasses.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describeEntries, listBeneath, readBeneath, SYNC_READ_MAX_BYTES, writeBeneath } from './beneath.ts';
import type { DirEntry, ExecOptions, ExecResult, FileAccessOptions, Sandbox } from './types.ts';

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

  /**
   * UTF-8 text of `file`. With `options.root`, opened below the root without following links and
   * refusing a hard-linked file unless `allowHardLinks` (`beneath.ts`); without it, links are
   * followed (a small regular file is read synchronously). Rejects with the Node error
   * (`ENOENT`, `EISDIR`, `ELOOP`, `EMLINK`, …).
   */
  async readFile(file: string, options: FileAccessOptions = {}): Promise<string> {
    if (options.root !== undefined)
      return (await readBeneath(options.root, file, () => options.allowHardLinks === true)).text;
    return readSmallFileSync(file) ?? readFile(file, 'utf8');
  }

  /** Creates missing parent folders, then writes (or appends) UTF-8 text. */
  async writeFile(file: string, content: string, options: FileAccessOptions = {}): Promise<void> {
    if (options.root !== undefined) {
      await writeBeneath(options.root, file, content, options.append ? { append: true } : {});
      return;
    }
    await mkdir(path.dirname(file), { recursive: true });
    if (options.append) await appendFile(file, content, 'utf8');
    else await writeFile(file, content, 'utf8');
  }

  /** Entries sorted by name; links are reported as `symlink`, not followed; files carry their size in bytes. */
  async list(dir: string, options: FileAccessOptions = {}): Promise<DirEntry[]> {
    if (options.root !== undefined) return listBeneath(options.root, dir);
    return describeEntries(dir, await readdir(dir, { withFileTypes: true }));
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
