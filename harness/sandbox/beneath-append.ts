/**
 * {@link appendBeneathSync}: `writeBeneath(root, file, text, { append: true })` of `beneath.ts`
 * with synchronous calls, for the harness's own append-only files (session logs). The same opens
 * (each component relative to its parent's descriptor with `O_NOFOLLOW`, missing folders created
 * the same way), the same checks (a regular file, one hard link) and the same errors; no
 * thread-pool round trip per call, which made a session's appends most of a step (the per-step
 * bench with session persistence on). Linux only (`DESCRIPTOR_PATHS`); elsewhere, and
 * for large texts, the caller appends asynchronously as before.
 */
import { closeSync, constants, fstatSync, openSync, writeSync } from 'node:fs';
import { componentsBelow, DESCRIPTOR_PATHS, failure, HardLinkError, openParentSync } from './beneath.ts';

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_APPEND, O_NONBLOCK } = constants;

/** The last component's open: no link followed, and a FIFO (or device) refuses at once instead of blocking the thread. */
const APPEND = O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK;

/** Texts longer than this (UTF-16 units) are appended asynchronously: a synchronous write must stay short. */
export const SYNC_APPEND_MAX_CHARS = 256 * 1024;

/**
 * Appends `text` to `file` below `root` (created with mode 0644, and its missing folders, when
 * absent) without following any link below the root. Returns false, having done nothing, when
 * it cannot run synchronously here (no `/proc/self/fd`, a text over
 * {@link SYNC_APPEND_MAX_CHARS}, the file is the root itself).
 * @throws `ELOOP` (a link in the path), `EISDIR` (not a regular file), `ENXIO` (a FIFO nobody
 *   reads: refused rather than waited for), `HardLinkError`
 *   (`EMLINK`), `ENOTDIR`, and Node's other codes: nothing is written then.
 */
export function appendBeneathSync(root: string, file: string, text: string): boolean {
  if (!DESCRIPTOR_PATHS || text.length > SYNC_APPEND_MAX_CHARS) return false;
  const parts = componentsBelow(root, file);
  if (parts.length === 0) return false;
  const dir = openParentSync(root, parts, true);
  try {
    const at = `/proc/self/fd/${dir}/${parts[parts.length - 1]!}`;
    // The file usually exists (an append-only log): open it first, create it when it is missing
    // (a failed open throws, and a thrown error costs more than the open).
    let fd: number;
    try {
      fd = openSync(at, APPEND);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      try {
        fd = openSync(at, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644);
      } catch (raced) {
        // Created meanwhile by someone else: append to it.
        if ((raced as NodeJS.ErrnoException).code !== 'EEXIST') throw raced;
        fd = openSync(at, APPEND);
      }
    }
    try {
      const stats = fstatSync(fd);
      if (!stats.isFile()) throw failure('EISDIR', `${file} is not a regular file`);
      if (stats.nlink > 1) throw new HardLinkError(file, stats.nlink);
      const bytes = Buffer.from(text, 'utf8');
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
    } finally {
      closeSync(fd);
    }
    return true;
  } finally {
    closeSync(dir);
  }
}
