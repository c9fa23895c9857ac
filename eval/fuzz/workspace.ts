/**
 * A reusable workspace for fuzzing: one folder per process, rebuilt before every run with
 * synchronous calls, on `/dev/shm` when the machine has it (on a loaded disk a scenario's
 * temp workspace costs ~10 ms to build and remove; in memory, a quarter of a millisecond). The
 * layout is the one `buildWorkspace` (`eval/scenario/workspace.ts`) makes for `harness-bench
 * run`: `$WS` and `$OUTSIDE` side by side, workspace files, folders, outside files, then links
 * with `$WS`/`$OUTSIDE` substituted. Fixed paths also keep runs reproducible within a process.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expandContent, substitutePlaceholders } from '../scenario/workspace.ts';
import type { FileContent, WorkspaceSpec } from '../scenario/types.ts';

/** `/dev/shm` when it exists (Linux), else the OS temp folder. */
export function fastTempRoot(): string {
  return existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
}

function writeTree(root: string, files: Record<string, FileContent> | undefined): void {
  for (const [relative, content] of Object.entries(files ?? {})) {
    const target = path.join(root, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, expandContent(content));
  }
}

/**
 * `hb-fuzz-<pid, 8 digits>-<n>` under {@link fastTempRoot}: a name of fixed shape, so messages
 * that quote absolute paths count the same tokens in every process (a random `mkdtemp` suffix
 * tokenizes differently from run to run, which can move a tight token budget).
 */
function uniqueRoot(): string {
  for (let n = 0; ; n += 1) {
    const root = path.join(fastTempRoot(), `hb-fuzz-${String(process.pid).padStart(8, '0')}-${n}`);
    try {
      mkdirSync(root);
      return root;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** A workspace folder pair rebuilt for each run. Not for concurrent runs. */
export class ReusableWorkspace {
  private readonly root = uniqueRoot();
  private readonly onExit = () => this.dispose();

  constructor() {
    // Removed when the process ends, also when a fuzzing session is interrupted.
    process.once('exit', this.onExit);
  }

  /**
   * Empties and fills `$WS` and `$OUTSIDE` from `spec`; returns their real paths.
   * @throws the fs error when a file cannot be created
   */
  build(spec: WorkspaceSpec = {}): { workspace: string; outside: string } {
    const ws = path.join(this.root, 'ws');
    const out = path.join(this.root, 'out');
    rmSync(ws, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
    mkdirSync(ws);
    mkdirSync(out);
    const workspace = realpathSync(ws);
    const outside = realpathSync(out);
    for (const dir of spec.dirs ?? []) mkdirSync(path.join(workspace, dir), { recursive: true });
    writeTree(workspace, spec.files);
    writeTree(outside, spec.outside);
    for (const [link, target] of Object.entries(spec.symlinks ?? {})) {
      const at = path.join(workspace, link);
      mkdirSync(path.dirname(at), { recursive: true });
      symlinkSync(substitutePlaceholders(target, { workspace, outside }), at);
    }
    return { workspace, outside };
  }

  /**
   * What differs under `$OUTSIDE` from what `spec.outside` put there: `added <p>`, `removed <p>`,
   * `modified <p>`, sorted (links and folders count as entries; nothing is followed).
   */
  outsideChanges(spec: WorkspaceSpec = {}): string[] {
    const out = path.join(this.root, 'out');
    const expected = new Map(Object.entries(spec.outside ?? {}).map(([p, c]) => [p, expandContent(c)]));
    for (const file of [...expected.keys()])
      for (let dir = path.posix.dirname(file); dir !== '.'; dir = path.posix.dirname(dir))
        expected.set(dir, '<dir>');
    const found = new Map<string, string>();
    for (const entry of readdirSync(out, { recursive: true, withFileTypes: true })) {
      const full = path.join(entry.parentPath, entry.name);
      const rel = path.relative(out, full).split(path.sep).join('/');
      found.set(rel, entry.isFile() ? readFileSync(full, 'utf8') : entry.isDirectory() ? '<dir>' : '<other>');
    }
    const changes: string[] = [];
    for (const p of [...new Set([...expected.keys(), ...found.keys()])].sort()) {
      if (!found.has(p)) changes.push(`removed ${p}`);
      else if (!expected.has(p)) changes.push(`added ${p}`);
      else if (found.get(p) !== expected.get(p)) changes.push(`modified ${p}`);
    }
    return changes;
  }

  /** Removes the folders. Never throws. */
  dispose(): void {
    process.removeListener('exit', this.onExit);
    rmSync(this.root, { recursive: true, force: true });
  }
}
