/**
 * How the harness shows a path in text the model (and a reason) reads: a path under the
 * workspace as `$WS/…`, under a labelled folder as `LABEL/…`, any other path as it is. The
 * workspace of a scenario or a replay is a fresh temp folder, so its absolute path differs on
 * every run; shown as `$WS`, the same run gives the same text, the same token counts and the same
 * results file (`docs/scenario-format.md` uses the same `$WS` / `$OUTSIDE` names). Node's own
 * error messages carry absolute paths too (`EACCES: permission denied, open '/tmp/…'`):
 * {@link describeSystemError} says what happened without them, next to the path the caller shows.
 */
import path from 'node:path';
import type { PathLabel } from './types.ts';

export type { PathLabel };

/** The name the workspace root is shown under. */
export const WORKSPACE_LABEL = '$WS';

/**
 * `absolute` as shown to the model: under the longest matching folder of `labels` as
 * `LABEL/relative` (`LABEL` alone for the folder itself), otherwise unchanged. Pure.
 * @param absolute an absolute path, `/`-separated on POSIX
 */
export function showPath(absolute: string, labels: readonly PathLabel[]): string {
  let root: string | undefined;
  let shown = '';
  for (const label of labels) {
    const folder = labelRoot(label.path);
    const under =
      absolute === folder || absolute.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep);
    if (under && (root === undefined || folder.length > root.length)) {
      root = folder;
      shown = label.label;
    }
  }
  if (root === undefined) return absolute;
  if (absolute === root) return shown;
  // `root/rest` with every segment of `rest` a plain name: `rest` is what path.relative gives.
  const tail = absolute.slice(root.length + (root.endsWith('/') ? 0 : 1));
  const rest =
    path.sep === '/' && root !== '' && !ODD_SEGMENT.test(tail)
      ? tail
      : path.relative(root, absolute).split(path.sep).join('/');
  return rest === '' ? shown : `${shown}/${rest}`;
}

/** An empty, `.` or `..` segment (or a leading or trailing `/`): path.relative would normalise it. */
const ODD_SEGMENT = /(?:^|\/)\.{0,2}(?:\/|$)/;

/** A label's folder without trailing separators (`/` stays `/`). */
function labelRoot(folder: string): string {
  if (folder.length <= 1) return folder;
  const last = folder.charCodeAt(folder.length - 1);
  return last === 47 || last === 92 ? folder.replace(/[\\/]+$/, '') : folder;
}

/** The labels of a run: the workspace as `$WS` first, then `extra` (a runner's `$OUTSIDE`, `$TMPDIR`). */
export function runPathLabels(workspace: string, extra: readonly PathLabel[] = []): PathLabel[] {
  return [{ path: workspace, label: WORKSPACE_LABEL }, ...extra];
}

/**
 * What a Node system error says, without the paths Node appends to its message:
 * `EACCES: permission denied, open '/tmp/x'` → `permission denied (EACCES)`; with `labels`, the
 * error's path follows as shown to the model (`permission denied (EACCES): $WS/x`). Any other
 * error: its message as it is (or `String(error)`).
 */
export function describeSystemError(error: unknown, labels?: readonly PathLabel[]): string {
  const e = error as { code?: unknown; syscall?: unknown; message?: unknown; path?: unknown } | undefined;
  const message = typeof e?.message === 'string' ? e.message : String(error);
  if (typeof e?.code !== 'string' || typeof e.syscall !== 'string') return message;
  const prefix = `${e.code}: `;
  const body = message.startsWith(prefix) ? message.slice(prefix.length) : message;
  const what = `${body.split(`, ${e.syscall}`)[0]!.trim() || e.code} (${e.code})`;
  return labels && typeof e.path === 'string' ? `${what}: ${showPath(e.path, labels)}` : what;
}

/**
 * `text` (a command's output) with every labelled folder written as its label: `/tmp/hb-ws-x/src`
 * → `$WS/src`. A folder is replaced only as a whole path: not inside a longer name
 * (`/tmp/hb-ws-xy`) nor as the tail of another path (`/private/tmp/…`); the longest folder wins.
 */
export function showPathsIn(text: string, labels: readonly PathLabel[]): string {
  const roots = labels
    .map((l) => ({ path: l.path.length > 1 ? l.path.replace(/[\\/]+$/, '') : l.path, label: l.label }))
    .filter((l) => l.path.length > 1 && text.includes(l.path))
    .sort((a, b) => b.path.length - a.path.length);
  if (roots.length === 0) return text;
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(
    `(?<![A-Za-z0-9._/-])(${roots.map((r) => literal(r.path)).join('|')})(?![A-Za-z0-9._-])`,
    'g',
  );
  return text.replace(pattern, (root) => roots.find((r) => r.path === root)!.label);
}
