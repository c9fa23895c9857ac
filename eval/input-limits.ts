/**
 * Size limits of input files, checked before a file is read: a 50 MB scenario was accepted and
 * then hung the run. One limit per kind of file (scenario, cassette, configuration), raised or
 * lowered for every kind at once by `--max-file-size SIZE` (commands that read inputs) or the
 * environment variable `HARNESS_BENCH_MAX_FILE_SIZE`; the flag wins over the variable. Sizes
 * are bytes, or a number with a binary unit: `512KB`, `64MB`, `1GB` (1 MB = 1,048,576 bytes;
 * `KiB`, `MiB`, `GiB`, `k`, `m`, `g` mean the same).
 */
import { statSync } from 'node:fs';
import { InputError, type InputProblem } from './errors.ts';

/** The kinds of input file that have a limit. */
export type InputKind = 'scenario' | 'cassette' | 'config';

const MiB = 1024 * 1024;

/**
 * Default limits in bytes. Scenarios generate large workspace files with `$gen` and stay small
 * (the bundled ones are under 20 KB); cassettes of long live sessions are the largest inputs
 * (the bundled real recordings are under 100 KB); configurations are a few KB.
 */
export const DEFAULT_INPUT_LIMITS: Readonly<Record<InputKind, number>> = {
  scenario: 8 * MiB,
  cassette: 64 * MiB,
  config: 1 * MiB,
};

/** The environment variable that overrides every limit. */
export const MAX_FILE_SIZE_ENV = 'HARNESS_BENCH_MAX_FILE_SIZE';

const WORDS: Record<InputKind, string> = {
  scenario: 'a scenario file',
  cassette: 'a cassette',
  config: 'a configuration file',
};

let flagLimit: number | undefined;

/**
 * Parses a size: digits, optionally followed by a unit (B, KB, MB, GB, their `i` forms, or k/m/g).
 * @returns bytes, or `undefined` when the text is not a size.
 */
export function parseSize(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?\s*$/i.exec(text);
  if (!match) return undefined;
  const unit = (match[2] ?? 'b').toLowerCase()[0]!;
  const factor = unit === 'k' ? 1024 : unit === 'm' ? MiB : unit === 'g' ? 1024 * MiB : 1;
  const bytes = Math.floor(Number(match[1]) * factor);
  return bytes > 0 ? bytes : undefined;
}

/** `8 MiB`, `512 KiB`, `300 bytes`. */
export function formatSize(bytes: number): string {
  if (bytes >= MiB) return `${Number((bytes / MiB).toFixed(1))} MiB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`;
  return `${bytes} bytes`;
}

/**
 * Sets (or, with `undefined`, clears) the limit of `--max-file-size` for the rest of the
 * command. @throws InputError when the text is not a size.
 */
export function setMaxFileSize(text: string | undefined): void {
  if (text === undefined) {
    flagLimit = undefined;
    return;
  }
  const bytes = parseSize(text);
  if (bytes === undefined)
    throw new InputError([
      {
        file: '(flags)',
        path: '--max-file-size',
        reason: `must be a size such as 64MB, got ${JSON.stringify(text)}`,
      },
    ]);
  flagLimit = bytes;
}

/**
 * The limit in bytes for a kind of file: the flag's, else the environment's, else the default.
 * @throws InputError when `HARNESS_BENCH_MAX_FILE_SIZE` is set but not a size.
 */
export function inputLimit(kind: InputKind, env: NodeJS.ProcessEnv = process.env): number {
  if (flagLimit !== undefined) return flagLimit;
  const text = env[MAX_FILE_SIZE_ENV];
  if (text !== undefined && text !== '') {
    const bytes = parseSize(text);
    if (bytes === undefined)
      throw new InputError([
        {
          file: MAX_FILE_SIZE_ENV,
          path: '',
          reason: `must be a size such as 64MB, got ${JSON.stringify(text)}`,
        },
      ]);
    return bytes;
  }
  return DEFAULT_INPUT_LIMITS[kind];
}

/**
 * The problem of a file over its limit, or `undefined` (also when it cannot be stat'ed: the
 * reader reports that). `shown` is the name used in the message.
 */
export function inputSizeProblem(
  file: string,
  kind: InputKind,
  shown: string = file,
): InputProblem | undefined {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return undefined;
  }
  const limit = inputLimit(kind);
  if (size <= limit) return undefined;
  return {
    file: shown,
    path: '',
    reason: `is ${formatSize(size)}; the limit for ${WORDS[kind]} is ${formatSize(limit)} (raise it with --max-file-size SIZE or ${MAX_FILE_SIZE_ENV}=SIZE)`,
  };
}

/** @throws InputError when `file` is over the limit of its kind (see {@link inputSizeProblem}). */
export function checkInputSize(file: string, kind: InputKind, shown: string = file): void {
  const problem = inputSizeProblem(file, kind, shown);
  if (problem) throw new InputError([problem]);
}
