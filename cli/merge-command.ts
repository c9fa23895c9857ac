/**
 * `harness-bench merge a.json b.json … --out DIR`: joins the results files of a sharded run
 * (`run --shard i/n`) into the results file of the unsharded run and renders `report.md`,
 * `junit.xml` and `report.html` from it (`eval/merge.ts`, `reports/write.ts` writeReportDir). Every input is read and checked before anything is
 * written: a bad input is exit 2 with every problem named. Exit 1 when a merged case failed or
 * errored, as `run` would have.
 */
import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import { InputError, type InputProblem } from '../eval/errors.ts';
import { mergeResults, readResultsFile, type MergeInput } from '../eval/merge.ts';
import { palette, useColor } from '../reports/color.ts';
import { renderRun } from './run-compare.ts';
import { writeReportDir, writeResultsJson } from '../reports/write.ts';
import type { CliIo } from './io.ts';
import { outputPathProblems } from './output-paths.ts';
import { runOutputTargets } from './run-plan.ts';

/** Flags of `merge`. */
export interface MergeFlags {
  out?: string;
  json?: string;
}

/** Runs `merge`; resolves with the exit code. @throws InputError (exit 2) */
export async function mergeCommand(files: readonly string[], flags: MergeFlags, io: CliIo): Promise<number> {
  if (!flags.out && !flags.json)
    throw new InputError([
      { file: '(flags)', path: '--out', reason: 'say where to write: --out DIR and/or --json FILE' },
    ]);
  const problems: InputProblem[] = outputPathProblems(runOutputTargets(flags, undefined, io.cwd), io.cwd);
  const inputs: MergeInput[] = [];
  for (const file of files) {
    try {
      inputs.push(readResultsFile(path.resolve(io.cwd, file), file));
    } catch (error) {
      if (error instanceof InputError) problems.push(...error.problems);
      else throw error;
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  const { results, warnings } = mergeResults(inputs);
  for (const warning of warnings) io.stderr(`warning: ${warning}\n`);
  const color = useColor({ isTTY: io.isTTY }, io.env);
  const c = palette(color);
  io.stdout(`${renderRun(results, { color }, {})}\n`);
  const written: string[] = [];
  if (flags.out) {
    const out = path.resolve(io.cwd, flags.out);
    // Each shard's case sidecars (run --out) join the merged folder, so report.html and show find them.
    for (const file of files) {
      const cases = path.join(path.dirname(path.resolve(io.cwd, file)), 'cases');
      if (existsSync(cases) && path.resolve(cases) !== path.join(out, 'cases'))
        cpSync(cases, path.join(out, 'cases'), { recursive: true });
    }
    written.push(...writeReportDir(out, results));
  }
  if (flags.json) {
    writeResultsJson(path.resolve(io.cwd, flags.json), results);
    written.push(path.resolve(io.cwd, flags.json));
  }
  io.stdout(
    `merged ${inputs.length} shards: ${results.summary.total} cases, ${results.summary.passed} passed, ${results.summary.failed} failed, ${results.summary.errored} errored\n`,
  );
  for (const file of written) io.stdout(`${c.dim(`wrote ${path.relative(io.cwd, file) || file}`)}\n`);
  return results.summary.failed + results.summary.errored > 0 ? 1 : 0;
}
