/**
 * Reading and writing cassette files: JSON parse, format and version check, migration by named
 * steps, ajv validation (every problem, not only the first), atomic write.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Ajv, type ValidateFunction } from 'ajv';
import { InputError, parseJsonInput, problemsFromAjv, type InputProblem } from '../errors.ts';
import { checkInputSize } from '../input-limits.ts';
import { responseContentProblems } from './content-check.ts';
import { CASSETTE_SCHEMA } from './schema.ts';
import { CASSETTE_FORMAT, CASSETTE_VERSION, type Cassette } from './types.ts';

/**
 * One migration step: turns a parsed cassette of version `from` into version `from + 1`.
 * `up` receives a plain JSON object and returns the migrated object (it may mutate its input).
 */
export interface MigrationStep {
  from: number;
  /** A name for messages and logs, e.g. `v1-to-v2: split meta.model`. */
  name: string;
  up(doc: Record<string, unknown>): Record<string, unknown>;
}

/**
 * How problems with a file that is not a cassette at all begin. The rest of the reason says what
 * the file is; foreign recordings need `harness-bench import FILE --out DIR` first.
 */
export const NOT_A_CASSETTE = 'not a cassette';

/**
 * True when a parsed JSON value declares itself a cassette (`"format": "harness-bench.cassette"`),
 * whatever else it holds: such a file is loaded (and its problems reported), anything else
 * matched by a glob is skipped.
 */
export function declaresCassette(value: unknown): boolean {
  return (
    typeof value === 'object' && value !== null && (value as { format?: unknown }).format === CASSETTE_FORMAT
  );
}

/** The migration steps, by source version. Only version 1 exists, so there are none yet. */
export const MIGRATIONS: readonly MigrationStep[] = [];

let validator: ValidateFunction | undefined;

function validate(): ValidateFunction {
  validator ??= new Ajv({
    allErrors: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
  }).compile(CASSETTE_SCHEMA);
  return validator;
}

/**
 * Brings a parsed cassette to {@link CASSETTE_VERSION} by applying {@link MIGRATIONS} in order.
 * Returns the (possibly new) object and the names of the steps applied.
 *
 * @throws InputError at `/version` when the version is newer than this build, or older with no
 *   step to migrate it.
 */
export function migrateCassette(
  doc: Record<string, unknown>,
  file: string,
  steps: readonly MigrationStep[] = MIGRATIONS,
): { doc: Record<string, unknown>; applied: string[] } {
  const applied: string[] = [];
  let current = doc;
  let version = current.version;
  if (typeof version !== 'number' || !Number.isInteger(version))
    throw new InputError([
      {
        file,
        path: '/version',
        reason: `must be an integer cassette version (this build reads version ${CASSETTE_VERSION}), got ${JSON.stringify(version)}`,
      },
    ]);
  if (version > CASSETTE_VERSION)
    throw new InputError([
      {
        file,
        path: '/version',
        reason: `cassette version ${version} is newer than this build reads (version ${CASSETTE_VERSION}); upgrade harness-bench`,
      },
    ]);
  while (version < CASSETTE_VERSION) {
    const step = steps.find((s) => s.from === version);
    if (!step)
      throw new InputError([
        {
          file,
          path: '/version',
          reason: `cassette version ${version} is not supported: there is no migration step from version ${version} (this build reads version ${CASSETTE_VERSION}); re-record or re-import it`,
        },
      ]);
    current = step.up(current);
    applied.push(step.name);
    version += 1;
    current.version = version;
  }
  return { doc: current, applied };
}

/**
 * Parses cassette JSON text. `file` is only used in problem reports.
 *
 * @throws InputError naming the file, a JSON pointer and the reason: not JSON, not an object,
 *   wrong `format` (these three begin with {@link NOT_A_CASSETTE}, except JSON syntax errors in
 *   a `.json` file), unsupported `version`, or any schema violation (all of them).
 */
export function parseCassette(text: string, file: string): Cassette {
  let parsed: unknown;
  try {
    parsed = parseJsonInput(text, file);
  } catch (error) {
    // A `.json` file that does not parse is a broken cassette (line and column help); anything
    // else named as a cassette (SOURCES.md, a VCR YAML) is not a cassette at all.
    if (!(error instanceof InputError) || /\.json$/i.test(file)) throw error;
    throw new InputError([
      {
        file,
        path: '',
        reason: `${NOT_A_CASSETTE}: not JSON (${error.problems[0]?.reason ?? 'unreadable'})`,
      },
    ]);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new InputError([{ file, path: '', reason: `${NOT_A_CASSETTE}: a cassette is a JSON object` }]);
  const doc = parsed as Record<string, unknown>;
  if (doc.format !== CASSETTE_FORMAT)
    throw new InputError([
      {
        file,
        path: '/format',
        reason: `${NOT_A_CASSETTE}: "format" must be "${CASSETTE_FORMAT}", got ${doc.format === undefined ? 'none' : JSON.stringify(doc.format)} (foreign recordings need \`harness-bench import\` first)`,
      },
    ]);
  const migrated = migrateCassette(doc, file).doc;
  const check = validate();
  if (!check(migrated)) throw new InputError(problemsFromCassetteAjv(file, check.errors));
  const content = responseContentProblems(migrated, file);
  if (content.length > 0) throw new InputError(content);
  return migrated as unknown as Cassette;
}

function problemsFromCassetteAjv(file: string, errors: ValidateFunction['errors']): InputProblem[] {
  const problems = problemsFromAjv(file, errors, CASSETTE_SCHEMA).map((problem, i) =>
    errors?.[i]?.keyword === 'not'
      ? {
          ...problem,
          reason: 'has both "body" and "events": a response is either a JSON body or a stream of events',
        }
      : problem,
  );
  // `required` errors point at the parent object; name the missing member in the path.
  return problems.map((problem, i) => {
    const error = errors?.[i];
    const missing =
      error?.keyword === 'required'
        ? (error.params as { missingProperty?: string }).missingProperty
        : undefined;
    if (missing === undefined) return problem;
    const parent = problem.path === '/' ? '' : problem.path;
    return { ...problem, path: `${parent}/${missing}`, reason: 'is required' };
  });
}

/**
 * Checks an in-memory cassette against the schema, then what its success responses hold
 * (`responseContentProblems`: cut-off JSON bodies, unreadable encodings, malformed SSE events).
 * Returns every problem (empty when valid);
 * `file` is only used in the problems.
 */
export function validateCassette(value: unknown, file: string): InputProblem[] {
  const check = validate();
  return check(value) ? responseContentProblems(value, file) : problemsFromCassetteAjv(file, check.errors);
}

/**
 * Reads and validates a cassette file.
 *
 * @throws InputError (file, JSON pointer, reason) when the file cannot be read, is over the size
 *   limit (`input-limits.ts`), is not JSON, is not a cassette, has an unsupported version, does not match the schema,
 *   or holds a success response that cannot be a model turn (`./content-check.ts`).
 */
export function loadCassette(file: string): Cassette {
  checkInputSize(file, 'cassette');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError([{ file, path: '', reason: `cannot read the file: ${(error as Error).message}` }]);
  }
  return parseCassette(text, file);
}

/**
 * Writes a cassette as pretty JSON (2-space indent, trailing newline), atomically: a temporary
 * file in the same folder, then a rename. Creates the folder when missing.
 *
 * @throws InputError when the cassette does not match the schema (nothing is written);
 *   file-system errors are thrown as they are.
 */
export function saveCassette(file: string, cassette: Cassette): void {
  const problems = validateCassette(cassette, file);
  if (problems.length > 0) throw new InputError(problems);
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify(cassette, null, 2)}\n`, 'utf8');
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
