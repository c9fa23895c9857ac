/**
 * The `cases/` folder of a run's `--out` folder, written as cases end and swapped in whole at the
 * end: sidecars go to a staging folder beside it (`.cases-<pid>.tmp`), and {@link CaseFileStage.commit}
 * replaces the previous run's `cases/` with it, so a folder never mixes two runs' transcripts and a
 * run that dies half-way leaves the previous one intact. Memory stays flat: nothing is kept but the
 * relative paths.
 */
import { existsSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { CaseResult, ResultsFile } from '../eval/results.ts';
import type { RunResult } from '../harness/ledger.ts';
import { writeCaseFile, type HarnessOutput } from './case-file.ts';

/** Stages the sidecars of one run for an `--out` folder. */
export class CaseFileStage {
  readonly #dir: string;
  readonly #staging: string;
  /** `config\u0000id` → sidecar path relative to the out folder. */
  readonly #written = new Map<string, string>();
  /** Whether the out folder existed before this stage (else {@link discard} removes it when empty). */
  readonly #outExisted: boolean;

  /** @param outDir the run's `--out` folder (created when the first sidecar is written) */
  constructor(outDir: string) {
    this.#dir = outDir;
    this.#staging = path.join(outDir, `.cases-${process.pid}.tmp`);
    this.#outExisted = existsSync(outDir);
    rmSync(this.#staging, { recursive: true, force: true });
  }

  /**
   * Drops the staged sidecars (the run failed before {@link commit}, e.g. a baseline that cannot
   * be compared): the out folder is left as it was, and removed when this stage created it and
   * nothing else is in it. Never throws.
   */
  discard(): void {
    try {
      rmSync(this.#staging, { recursive: true, force: true });
      if (!this.#outExisted && existsSync(this.#dir) && readdirSync(this.#dir).length === 0)
        rmdirSync(this.#dir);
    } catch {
      // Best effort: the failure being reported matters more than the leftover.
    }
  }

  /** Writes the sidecar of one finished case. @throws the file system's error */
  write(result: CaseResult, run: RunResult | undefined, output?: HarnessOutput): void {
    const relative = writeCaseFile(this.#staging, result, run, output);
    this.#written.set(`${result.config}\u0000${result.id}`, relative);
  }

  /**
   * Moves the staged sidecars to `<out>/cases` (replacing the previous run's) and returns the
   * results with each case's `transcript` link set. @throws the file system's error
   */
  commit(results: ResultsFile): ResultsFile {
    const target = path.join(this.#dir, 'cases');
    rmSync(target, { recursive: true, force: true });
    if (existsSync(path.join(this.#staging, 'cases'))) renameSync(path.join(this.#staging, 'cases'), target);
    rmSync(this.#staging, { recursive: true, force: true });
    return {
      ...results,
      cases: results.cases.map((c) => {
        const transcript = this.#written.get(`${c.config}\u0000${c.id}`);
        return transcript ? { ...c, transcript } : c;
      }),
    };
  }
}
