/**
 * The per-step workload every system of `bench/per-step.ts` runs: a scripted model that asks for
 * `read_file` N times (each call with different arguments, so no loop detector fires), then
 * answers `done`. Every system executes the same tool body ({@link readLines}: a synchronous read
 * of a 105-line file and the three numbered lines asked for), so the difference between systems
 * is the loop around the tool, not the tool; and every step does the same work, so a cost that
 * grows with N is the loop's.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Step counts of the per-step table. */
export const STEP_COUNTS = [10, 50, 200, 1000] as const;

/**
 * Steps one sample of the per-step table covers at least: a sample is as many back-to-back runs
 * of N steps as make this many (100 runs at N = 10, one at N = 1,000). The collector works in
 * periods (a scavenge every few hundred steps of this workload); a sample of one 10-step run
 * (0.3 ms) almost never holds one, so the median of such samples left the collector's work out
 * at small N and kept it at N = 1,000. With samples of equal work every N pays its share alike
 * (JMH's "operations per invocation" batching, for the same reason).
 */
export const SAMPLE_STEPS = 1000;

/** Lines of each file the loop reads. */
export const FILE_LINES = 105;

/** The files (`f0.txt` … `f9.txt`, the same text in each). */
export const FILE_COUNT = 10;

/** Lines each call asks for. */
export const LINES_PER_CALL = 3;

/** Arguments of call `i` (0-based): every call up to 1,000 distinct (10 files × offsets 1–100), each answered by 3 lines. */
export function callArgs(i: number): { path: string; offset: number; limit: number } {
  return { path: `f${Math.floor(i / 100) % FILE_COUNT}.txt`, offset: (i % 100) + 1, limit: LINES_PER_CALL };
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

/** A temp workspace (a real path) holding the files; `dispose()` removes it. */
export function benchWorkspace(): { dir: string; dispose: () => void } {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-bench-')));
  const lines = Array.from(
    { length: FILE_LINES },
    (_, i) => `line ${i + 1}: const value${i} = compute(${i});`,
  );
  for (let f = 0; f < FILE_COUNT; f += 1) writeFileSync(path.join(dir, `f${f}.txt`), `${lines.join('\n')}\n`);
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The tool body of the peers and the floor: numbered lines `offset`…`offset+limit-1` of the file. */
export function readLines(
  workspace: string,
  args: { path: string; offset?: number; limit?: number },
): string {
  const lines = readFileSync(path.join(workspace, args.path), 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const first = (args.offset ?? 1) - 1;
  const slice = lines.slice(first, first + (args.limit ?? 2000));
  return slice.map((line, i) => `${first + i + 1}\t${line}`).join('\n');
}
