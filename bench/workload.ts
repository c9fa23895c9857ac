/**
 * The per-step workload every system of `bench/per-step.ts` runs. A run of N steps is N model
 * turns: N − 1 `read_file` calls, each on a file of its own (`dir00/f0000.txt`,
 * `dir00/f0001.txt`, … : no file is read twice in a run, so nothing a system keeps about a file it
 * has read helps it), then a final answer `done`. The workspace holds its 999 files in 10
 * folders of 100 (`dir00` … `dir09`), each file 8 lines (336–360 bytes, no two alike), and
 * every call reads one whole file (`{ path }`, no offset or limit), as an
 * agent reading small source files does; every step does the same work, so a cost that grows
 * with N is the loop's. The peers and the "floor + read" system run the same tool body
 * ({@link readLines}: a synchronous read of the file and all its lines numbered); harness-bench
 * runs its own `read_file` through its sandbox; the bare floor runs no tool body at all (no file
 * I/O, `systems.ts`).
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Step counts of the per-step table. */
export const STEP_COUNTS = [10, 50, 200, 1000] as const;

/** The longest run the workspace has distinct files for: N − 1 files for N steps. */
export const MAX_STEPS = 1000;

/**
 * Steps one sample of the per-step table covers at least: a sample is as many back-to-back runs
 * of N steps as make this many (100 runs at N = 10, one at N = 1,000). The collector works in
 * periods (a scavenge every few hundred steps of this workload); a sample of one 10-step run
 * (0.3 ms) almost never holds one, so the median of such samples left the collector's work out
 * at small N and kept it at N = 1,000. With samples of equal work every N pays its share alike
 * (JMH's "operations per invocation" batching, for the same reason).
 */
export const SAMPLE_STEPS = 1000;

/** Lines of each file the loop reads (each call reads all of them). */
export const FILE_LINES = 8;

/** Files per folder of the workspace: file `i` is in folder `dir<floor(i / 100)>`. */
export const FILES_PER_FOLDER = 100;

/** Tool calls in a run of `steps` steps: every step but the last, which is the final answer. */
export function toolCallsIn(steps: number): number {
  return Math.max(0, steps - 1);
}

/** The path of file `i` (0-based) in the workspace: `dir00/f0000.txt` … `dir09/f0998.txt`. */
export function fileName(i: number): string {
  const folder = String(Math.floor(i / FILES_PER_FOLDER)).padStart(2, '0');
  return `dir${folder}/f${String(i).padStart(4, '0')}.txt`;
}

/** Arguments of call `i` (0-based) of a run: file `i` (a file of its own per call), read whole. */
export function callArgs(i: number): { path: string } {
  return { path: fileName(i) };
}

/** The JSON Schema of the tool's arguments (the one `read_file` of the harness declares, minus descriptions). */
export const READ_ARGS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['path'],
  properties: {
    path: { type: 'string', minLength: 1 },
    offset: { type: 'integer', minimum: 1 },
    limit: { type: 'integer', minimum: 1 },
  },
} as const;

/**
 * The text of file `i`: {@link FILE_LINES} lines naming the file and holding numbers of their
 * own, so no two files are alike (336–360 bytes a file).
 */
export function fileText(i: number): string {
  const name = path.basename(fileName(i));
  const lines = Array.from(
    { length: FILE_LINES },
    (_, n) => `${name} line ${n + 1}: export const v${n} = f(${i * FILE_LINES + n});`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * A temp workspace (a real path) holding `files` files ({@link fileName}, in their folders;
 * default enough for a run of {@link MAX_STEPS} steps); `dispose()` removes it.
 */
export function benchWorkspace(files = MAX_STEPS - 1): { dir: string; files: number; dispose: () => void } {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-bench-')));
  for (let i = 0; i < files; i += 1) {
    const file = path.join(dir, fileName(i));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, fileText(i));
  }
  return { dir, files, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Numbered lines `offset`…`offset+limit-1` of `text` (all of them in this workload, which gives
 * neither), `<number>\t<line>` joined by line feeds.
 */
export function numberLines(text: string, args: { offset?: number | null; limit?: number | null }): string {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const first = (args.offset ?? 1) - 1;
  const slice = lines.slice(first, first + (args.limit ?? 2000));
  return slice.map((line, i) => `${first + i + 1}\t${line}`).join('\n');
}

/** The tool body of the peers and of "floor + read": the file read from disk, then {@link numberLines}. */
export function readLines(
  workspace: string,
  args: { path: string; offset?: number | null; limit?: number | null },
): string {
  return numberLines(readFileSync(path.join(workspace, args.path), 'utf8'), args);
}
