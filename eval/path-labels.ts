/**
 * The stable names a runner gives its temp folders in text the model reads (`harness/path-display.ts`):
 * a scenario's `$OUTSIDE`, and the temp folder itself as `$TMPDIR` (so `../x` from a temp
 * workspace reads the same on every machine). The workspace is `$WS` without being listed.
 */
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { PathLabel } from '../harness/path-display.ts';

/** The label of the folder scenarios call `$OUTSIDE`. */
export const OUTSIDE_LABEL = '$OUTSIDE';

/** The label of `os.tmpdir()` (and of its real path when that differs, as `/private/var/…` on macOS). */
const TMPDIR_LABEL = '$TMPDIR';

/** `extra` followed by the temp folder's labels. */
export function runnerPathLabels(extra: readonly PathLabel[] = []): PathLabel[] {
  const temp = tmpdir();
  let real = temp;
  try {
    real = realpathSync(temp);
  } catch {
    /* keep the name as given */
  }
  return [
    ...extra,
    { path: temp, label: TMPDIR_LABEL },
    ...(real !== temp ? [{ path: real, label: TMPDIR_LABEL }] : []),
  ];
}
