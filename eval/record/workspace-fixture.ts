/**
 * The workspace fixture of a recording (`meta.workspace.files`): the text files of the workspace
 * as they were before the session, when they are few and small enough to keep in the cassette.
 * Folders that are not the project (`.git`, `node_modules`, `.harness-bench`) and files that
 * usually hold secrets (`.env*`, `*.pem`, `*.key`, `id_rsa*`) are never taken.
 */
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** Limits of a fixture. */
export interface FixtureLimits {
  /** @default 200 */
  maxFiles: number;
  /** Total size in bytes. @default 262144 (256 KiB) */
  maxBytes: number;
}

/** The default {@link FixtureLimits}. */
export const FIXTURE_LIMITS: FixtureLimits = { maxFiles: 200, maxBytes: 262_144 };

const SKIPPED_DIRS = new Set(['.git', 'node_modules', '.harness-bench']);
const SECRET_FILES = /^(\.env.*|.*\.pem|.*\.key|id_rsa.*|id_ed25519.*)$/;

/** A fixture, or why there is none; `skipped` lists files left out (binary, links, secret-looking). */
export type FixtureResult =
  | { ok: true; files: Record<string, string>; skipped: string[] }
  | { ok: false; reason: string; skipped: string[] };

/**
 * Reads the fixture of `root` (relative paths with `/` separators, sorted). Over the limits the
 * result is `{ok: false}` with the counts in `reason`.
 */
export async function snapshotWorkspace(
  root: string,
  limits: FixtureLimits = FIXTURE_LIMITS,
): Promise<FixtureResult> {
  const files: Record<string, string> = {};
  const skipped: string[] = [];
  let count = 0;
  let bytes = 0;
  const walk = async (dir: string): Promise<string | undefined> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      const relative = path.relative(root, full).split(path.sep).join('/');
      if (entry.isDirectory()) {
        if (SKIPPED_DIRS.has(entry.name)) continue;
        const over = await walk(full);
        if (over) return over;
        continue;
      }
      if (!entry.isFile() || (await lstat(full)).isSymbolicLink() || SECRET_FILES.test(entry.name)) {
        skipped.push(relative);
        continue;
      }
      const content = await readFile(full);
      if (content.includes(0)) {
        skipped.push(relative);
        continue;
      }
      count += 1;
      bytes += content.length;
      if (count > limits.maxFiles) return `more than ${limits.maxFiles} files`;
      if (bytes > limits.maxBytes) return `more than ${limits.maxBytes} bytes`;
      files[relative] = content.toString('utf8');
    }
    return undefined;
  };
  const over = await walk(root);
  return over
    ? {
        ok: false,
        reason: `the workspace has ${over} (limits: ${limits.maxFiles} files, ${limits.maxBytes} bytes)`,
        skipped,
      }
    : { ok: true, files, skipped };
}
