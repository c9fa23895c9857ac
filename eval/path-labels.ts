/**
 * The stable names a runner gives its temp folders in text the model reads (`harness/path-display.ts`):
 * a scenario's `$OUTSIDE`, the temp folder itself as `$TMPDIR` (so `../x` from a temp
 * workspace reads the same on every machine), and the user's home folder as `$HOME` (a denial
 * says where `~/.gitconfig` resolves: the same text, and the same token count, on every machine).
 * The workspace is `$WS` without being listed.
 */
import { realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import type { PathLabel } from '../harness/path-display.ts';

/** The label of the folder scenarios call `$OUTSIDE`. */
export const OUTSIDE_LABEL = '$OUTSIDE';

/** The label of `os.tmpdir()` (and of its real path when that differs, as `/private/var/…` on macOS). */
const TMPDIR_LABEL = '$TMPDIR';

/** The label of the user's home folder (`os.homedir()`). */
const HOME_LABEL = '$HOME';

/** `extra` followed by the temp folder's labels and the home folder's. */
export function runnerPathLabels(extra: readonly PathLabel[] = []): PathLabel[] {
  const temp = tmpdir();
  let real = temp;
  try {
    real = realpathSync(temp);
  } catch {
    /* keep the name as given */
  }
  const home = homedir();
  return [
    ...extra,
    { path: temp, label: TMPDIR_LABEL },
    ...(real !== temp ? [{ path: real, label: TMPDIR_LABEL }] : []),
    // The root folder is no home to label (a home of `/` would rewrite every path).
    ...(home.length > 1 ? [{ path: home, label: HOME_LABEL }] : []),
  ];
}
