/**
 * The harness's own files (session logs, the `.gitignore` of `.harness-bench/`, spill files):
 * written through the same code as the file tools, below the workspace without following any
 * link (`beneath.ts`), so a `.harness-bench` link shipped with a repository (or made by a command)
 * cannot send them anywhere the harness user may write. Files outside the root (a session folder
 * the user configured elsewhere, `~/.harness-bench`) are written as they are: the harness
 * created those folders itself.
 */
import { appendFile, lstat, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { readBeneath, writeBeneath } from './beneath.ts';
import { appendBeneathSync } from './beneath-append.ts';

/** True when `file` is below `root`. */
export function isBelow(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return (
    relative !== '' &&
    !relative.startsWith(`..${path.sep}`) &&
    relative !== '..' &&
    !path.isAbsolute(relative)
  );
}

/**
 * Appends UTF-8 text to a harness file, creating it and its folders.
 * @throws `ELOOP` when a link is in the way below `root`, `EMLINK` for a hard-linked file.
 */
export async function appendHarnessFile(root: string | undefined, file: string, text: string): Promise<void> {
  if (root !== undefined && isBelow(root, file)) {
    await writeBeneath(root, file, text, { append: true });
    return;
  }
  await mkdir(path.dirname(file), { recursive: true });
  await appendFile(file, text, 'utf8');
}

/**
 * {@link appendHarnessFile} with synchronous calls when it can (a file below `root` on Linux, a
 * text of at most `SYNC_APPEND_MAX_CHARS`): the same opens and checks (`beneath-append.ts`).
 * Returns false, having written nothing, when the caller must append asynchronously.
 * @throws as {@link appendHarnessFile}
 */
export function appendHarnessFileSync(root: string | undefined, file: string, text: string): boolean {
  if (root === undefined || !isBelow(root, file)) return false;
  return appendBeneathSync(root, file, text);
}

/** Checks that a harness file below `root` is reached without a link (it is opened and closed). @throws `ELOOP`, `EMLINK`, `ENOENT` */
export async function checkHarnessFile(root: string | undefined, file: string): Promise<void> {
  if (root !== undefined && isBelow(root, file)) await readBeneath(root, file);
}

/** True when `file` exists (a link counts, dangling or not). */
export async function present(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch {
    return false;
  }
}
