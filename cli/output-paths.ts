/**
 * Output paths are checked before anything runs: a file where a folder is needed, a folder where
 * a file is needed, a place that cannot be written. Every problem is collected into one
 * `InputError` (exit 2, nothing written), so a run of ten minutes never dies at the last step
 * on `EISDIR`. Shared by every command that writes (`run`, `merge`, `import`, `export`, `init`).
 */
import { accessSync, constants, mkdtempSync, rmdirSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { InputError, type InputProblem } from '../eval/errors.ts';

/**
 * One place a command will write. `kind: 'file'` for `--json FILE`, `--out FILE`, `--junit FILE`;
 * `kind: 'dir'` for `--out DIR`, with the names it will write inside (`results.json`, …), each
 * of which must not be a folder.
 */
export interface OutputTarget {
  /** The flag as the user typed it (`--json`), for the message. */
  flag: string;
  /** The value as given (relative to `cwd` or absolute). */
  value: string;
  kind: 'file' | 'dir';
  /** For a folder: the files written inside it. */
  children?: readonly string[];
}

/** How writability is asked; injected in tests (as root every `access` succeeds). */
export type WritableCheck = (dir: string) => boolean;

/**
 * True when the current user may create entries in `dir`: write and search permission by
 * `access(2)`, then an empty folder created and removed at once (`.hb-probe-XXXXXX`). The probe
 * is what catches the places `access` passes for root: a read-only file system, `/proc`, `/sys`.
 */
export const canWriteIn: WritableCheck = (dir) => {
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
    rmdirSync(mkdtempSync(path.join(dir, '.hb-probe-')));
    return true;
  } catch {
    return false;
  }
};

function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/**
 * The problems of one target, empty when it can be written. Walks up from the target to the
 * nearest existing path: every existing ancestor must be a folder, and the nearest existing
 * folder must be writable (folders are created on write, reports renamed into place).
 */
export function outputProblems(
  target: OutputTarget,
  cwd: string,
  writable: WritableCheck = canWriteIn,
): InputProblem[] {
  const file = `${target.flag} ${target.value}`;
  const absolute = path.resolve(cwd, target.value);
  // Relative to the working folder when inside it, else absolute (`/sys`, not `../../sys`).
  const shown = (p: string) => {
    const relative = path.relative(cwd, p);
    return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : p;
  };
  const problem = (reason: string): InputProblem[] => [{ file, path: '', reason }];
  const self = statOrUndefined(absolute);
  if (self) {
    if (target.kind === 'file' && self.isDirectory())
      return problem(`"${shown(absolute)}" is a folder; ${target.flag} takes a file name`);
    if (target.kind === 'dir' && !self.isDirectory())
      return problem(`"${shown(absolute)}" is a file; ${target.flag} takes a folder`);
  }
  let existing = self && target.kind === 'dir' ? absolute : path.dirname(absolute);
  for (;;) {
    const info = statOrUndefined(existing);
    if (info) {
      if (!info.isDirectory())
        return problem(`"${shown(existing)}" is a file, so nothing can be written under it`);
      break;
    }
    const parent = path.dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  const folder = existing;
  if (!writable(folder))
    return problem(`cannot write in "${shown(folder)}" (permission denied or a read-only file system)`);
  if (target.kind === 'dir' && self)
    for (const child of target.children ?? []) {
      const inside = path.join(absolute, child);
      if (statOrUndefined(inside)?.isDirectory())
        return problem(`"${shown(inside)}" is a folder, so ${child} cannot be written there`);
    }
  return [];
}

/**
 * Checks every output target of a command; targets whose `value` is empty or absent are skipped.
 * @throws InputError listing every problem (exit 2), before anything is run or written.
 */
export function checkOutputPaths(
  targets: readonly (OutputTarget | undefined)[],
  cwd: string,
  writable: WritableCheck = canWriteIn,
): void {
  const problems = outputPathProblems(targets, cwd, writable);
  if (problems.length > 0) throw new InputError(problems);
}

/** The problems of every target (see {@link outputProblems}); for commands that collect problems first. */
export function outputPathProblems(
  targets: readonly (OutputTarget | undefined)[],
  cwd: string,
  writable: WritableCheck = canWriteIn,
): InputProblem[] {
  return targets.flatMap((t) => (t?.value ? outputProblems(t, cwd, writable) : []));
}

/** The files `--out DIR` of `run` and `merge` writes (reports/write.ts, `writeReportDir`). */
export const REPORT_FILES: readonly string[] = ['results.json', 'report.md', 'junit.xml', 'report.html'];
