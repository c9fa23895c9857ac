/**
 * Bad user input: a broken scenario, cassette or config file. The CLI prints
 * `file: path: reason` lines and exits with code 2, writing nothing.
 */
import { readFileSync } from 'node:fs';
import { HarnessBenchError } from '../harness/errors.ts';
import { scanJson } from '../harness/tools/arguments.ts';
import { knownKeysAt, unknownKeyReason } from './did-you-mean.ts';

/**
 * One problem in one input file. `path` is a JSON pointer-like path (`/expect/stopReason`), `''` for the
 * whole file.
 */
export interface InputProblem {
  file: string;
  path: string;
  reason: string;
}

/**
 * Raised for any invalid input file; carries every problem found, not only the first.
 * Code `INPUT_INVALID`, fault `user_input`, data: the problems.
 */
export class InputError extends HarnessBenchError {
  override readonly name = 'InputError';
  constructor(readonly problems: InputProblem[]) {
    super('INPUT_INVALID', 'user_input', problems.map(formatProblem).join('\n'), problems);
  }
}

/** `file: /json/path: reason` (the path is left out when empty). */
export function formatProblem(problem: InputProblem): string {
  return `${problem.file}: ${problem.path ? `${problem.path}: ` : ''}${problem.reason}`;
}

/**
 * Converts ajv errors into problems for one file. With the `schema` that was validated, an
 * unknown key names the closest known key ("did you mean", `did-you-mean.ts`).
 */
export function problemsFromAjv(
  file: string,
  errors:
    | readonly {
        instancePath: string;
        message?: string;
        params?: Record<string, unknown>;
        keyword: string;
      }[]
    | null
    | undefined,
  schema?: unknown,
): InputProblem[] {
  return (errors ?? []).map((error) => {
    let reason = error.message ?? error.keyword;
    if (error.keyword === 'additionalProperties' && error.params?.additionalProperty !== undefined)
      reason = unknownKeyReason(
        String(error.params.additionalProperty),
        schema ? knownKeysAt(schema, error.instancePath) : [],
      );
    else if (error.keyword === 'enum' && Array.isArray(error.params?.allowedValues))
      reason = `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    return { file, path: error.instancePath || '/', reason };
  });
}

/**
 * The text of an input file (UTF-8).
 * @param shown the file as messages name it; `what` says what it holds (`the results file`).
 * @throws InputError `cannot read WHAT: ENOENT` (the error code, else its message), path `''`
 */
export function readInputText(file: string, shown: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError([
      {
        file: shown,
        path: '',
        reason: `cannot read ${what}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      },
    ]);
  }
}

/**
 * Parses the JSON text of an input file (a leading UTF-8 byte-order mark is ignored).
 * @throws InputError naming what is wrong and where: `JSON syntax error: expected ',' or '}' at line 3, column 7`.
 */
export function parseJsonInput(text: string, file: string): unknown {
  const source = text.replace(/^\uFEFF/, '');
  try {
    return JSON.parse(source);
  } catch {
    throw new InputError([jsonSyntaxProblem(source, file)]);
  }
}

/** The problem of a JSON text that does not parse, with line and column (1-based) of the first error. */
export function jsonSyntaxProblem(text: string, file: string): InputProblem {
  const found = scanJson(text) ?? { offset: 0, reason: 'not valid JSON' };
  const before = text.slice(0, found.offset);
  const line = before.split('\n').length;
  const column = found.offset - before.lastIndexOf('\n');
  return { file, path: '', reason: `JSON syntax error: ${found.reason} at line ${line}, column ${column}` };
}
