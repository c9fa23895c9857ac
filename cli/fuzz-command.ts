/**
 * `harness-bench fuzz [--runs N] [--seed S] [--family F] [--save-counterexample DIR]`: runs
 * generated model turn streams through the harness (`eval/fuzz/`), checks every invariant on
 * every run, and on a failure prints the shrunk case, the seed that replays it and (with
 * `--save-counterexample`) the scenario file it wrote. `--replay FILE` runs a saved
 * `.case.json` again. Exit 0: every invariant held; 1: a family failed; 2: bad flags.
 */
import path from 'node:path';
import { loadConfig } from '../eval/config-load.ts';
import { InputError } from '../eval/errors.ts';
import { FAMILIES, type Family } from '../eval/fuzz/case.ts';
import { describeReport, fuzzFamily, replayCaseFile } from '../eval/fuzz/fuzz.ts';
import type { CliIo } from './io.ts';

/** The flags of `harness-bench fuzz` as commander parses them. */
export interface FuzzFlags {
  /** Runs in all, split evenly over the families. */
  runs: string;
  seed?: string;
  family?: string[];
  saveCounterexample?: string;
  config?: string;
  replay?: string;
}

function flagError(flag: string, reason: string): InputError {
  return new InputError([{ file: flag, path: '', reason }]);
}

/**
 * Runs `fuzz`; resolves with the exit code.
 * @throws InputError (exit 2) for an unknown family, a seed that is not an integer, or a bad configuration
 */
export async function fuzzCommand(flags: FuzzFlags, io: CliIo): Promise<number> {
  const families = (flags.family ?? [...FAMILIES]) as Family[];
  for (const family of families)
    if (!(FAMILIES as readonly string[]).includes(family))
      throw flagError('--family', `unknown family "${family}"; the families are ${FAMILIES.join(', ')}`);
  if (flags.seed !== undefined && !/^-?\d{1,10}$/.test(flags.seed))
    throw flagError('--seed', `"${flags.seed}" is not an integer`);
  const base = flags.config ? loadConfig(path.resolve(io.cwd, flags.config)) : loadConfig();
  if (flags.replay) {
    const file = path.resolve(io.cwd, flags.replay);
    let violations: Awaited<ReturnType<typeof replayCaseFile>>;
    try {
      violations = await replayCaseFile(file, base.config);
    } catch (error) {
      throw flagError('--replay', (error as Error).message);
    }
    for (const v of violations) io.stdout(`${v.invariant}: ${v.message}\n`);
    io.stdout(
      violations.length === 0 ? `${flags.replay}: every invariant held\n` : `${flags.replay}: FAILED\n`,
    );
    return violations.length === 0 ? 0 : 1;
  }
  // A seed for every family, printed so that any failure can be replayed.
  const seed = flags.seed !== undefined ? Number(flags.seed) : Math.floor(Math.random() * 2 ** 31);
  const total = Number(flags.runs);
  const per = Math.max(1, Math.ceil(total / families.length));
  const save = flags.saveCounterexample ? path.resolve(io.cwd, flags.saveCounterexample) : undefined;
  io.stderr(`fuzzing ${families.join(', ')}: ${per} runs each, seed ${seed}\n`);
  let failed = 0;
  let runs = 0;
  for (const family of families) {
    const onRun = io.isTTY
      ? (done: number) => {
          if (done % 25 === 0) io.stderr(`\r${family}: ${done}/${per}`);
        }
      : undefined;
    const report = await fuzzFamily(family, {
      runs: per,
      seed,
      base,
      ...(save ? { save } : {}),
      ...(onRun ? { onRun } : {}),
    });
    if (io.isTTY) io.stderr('\r\u001b[2K');
    io.stdout(`${describeReport(report)}\n`);
    runs += report.runs;
    if (report.failed) failed += 1;
  }
  io.stdout(
    failed === 0
      ? `fuzz: ${runs} runs, seed ${seed}: every invariant held\n`
      : `fuzz: ${failed} of ${families.length} families FAILED (seed ${seed}; rerun with --seed ${seed} --family <name>)\n`,
  );
  return failed === 0 ? 0 : 1;
}
