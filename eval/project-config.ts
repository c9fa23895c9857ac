/**
 * The project configuration, `harness-bench.config.yaml`: which scenarios and recordings a
 * user's project has, its harness configurations by name, where reports go, the tolerances of
 * the baseline gate and the metrics it names as scorers (both checked against the metric names,
 * `eval/metric-names.ts`). Found by walking up from the working folder to the
 * file-system root, the nearest file winning, as vitest and ESLint find theirs; created by
 * `harness-bench init`. Paths in it are relative to the folder that holds it.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { parseDocument } from 'yaml';
import { InputError, problemsFromAjv, type InputProblem } from './errors.ts';
import { checkInputSize } from './input-limits.ts';
import { unknownMetricReason } from './metric-names.ts';
import { pointerChild } from './scenario/json-pointer.ts';

/** The file names looked for in each folder, in this order. */
export const PROJECT_CONFIG_NAMES: readonly string[] = [
  'harness-bench.config.yaml',
  'harness-bench.config.yml',
];

/** A loaded project configuration, its paths resolved against {@link ProjectConfig.dir}. */
export interface ProjectConfig {
  /** The file (absolute). */
  file: string;
  /** The folder that holds it; every relative path in it is relative to this folder. */
  dir: string;
  /** Scenario files, folders or globs, relative to `dir`. */
  scenarios: string[];
  /** Cassette files, folders or globs, relative to `dir`. */
  recordings: string[];
  /**
   * Harness configurations by name: a path (relative to `dir`) to a JSON configuration, or the
   * name of a configuration the package ships (`default`, `strict`, `permissive`, …).
   */
  configurations: Record<string, string>;
  /** Folder for `results.json` and the reports, relative to `dir`, when set. */
  out?: string;
  /**
   * Metric names (`eval/metric-names.ts`: `passRate`, `tokensPerCase`, a dotted path of
   * `summary.metrics`). Checked, an unknown name being bad input, but not read by any command
   * yet: the comparison and the reports show every metric whatever this says. Custom scorers
   * (modules) are registered in a JSON configuration's or a scenario's `scorers` instead.
   */
  scorers?: string[];
  /**
   * Tolerances of the baseline gate (`run --baseline`) by metric name (`eval/metric-names.ts`),
   * a number in the metric's unit (a rate, tokens, USD, ms): they apply to every configuration,
   * under a configuration file's own `baseline.tolerances` and `--tolerance` (both win).
   */
  tolerances?: Record<string, number>;
}

const stringOrList = {
  anyOf: [
    { type: 'string', minLength: 1 },
    { type: 'array', items: { type: 'string', minLength: 1 } },
  ],
};

/** The JSON Schema of the project configuration (YAML, read as JSON data). */
export const PROJECT_CONFIG_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'harness-bench project configuration (harness-bench.config.yaml)',
  type: 'object',
  additionalProperties: false,
  properties: {
    scenarios: { ...stringOrList, description: 'scenario files, folders or globs' },
    recordings: { ...stringOrList, description: 'cassette files, folders or globs' },
    configurations: {
      type: 'object',
      description: 'harness configurations by name: a JSON file, or a shipped name (default, strict, …)',
      propertyNames: { pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$' },
      additionalProperties: { type: 'string', minLength: 1 },
    },
    out: { type: 'string', minLength: 1, description: 'folder for results.json and the reports' },
    scorers: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      description: 'metric names (passRate, tokensPerCase, …); checked, not read by any command yet',
    },
    tolerances: {
      type: 'object',
      additionalProperties: { type: 'number', minimum: 0 },
      description: 'baseline gate (run --baseline): metric name → how far it may worsen, in its unit',
    },
  },
} as const;

const validate = new Ajv({ allErrors: true, strict: false }).compile(PROJECT_CONFIG_SCHEMA);

/**
 * The nearest project configuration file at or above `cwd`, or `undefined` when there is none
 * up to the file-system root.
 */
export function findProjectConfigFile(cwd: string): string | undefined {
  let dir = path.resolve(cwd);
  for (;;) {
    for (const name of PROJECT_CONFIG_NAMES) {
      const file = path.join(dir, name);
      if (existsSync(file) && statSync(file).isFile()) return file;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Reads and validates a project configuration file.
 * @throws InputError (file, path, reason) when it cannot be read, is over the size limit, is not
 *   YAML, is not a mapping, fails the schema (unknown keys say "did you mean"), or names a
 *   metric that does not exist in `tolerances` or `scorers` (`/tolerances/NAME`, `/scorers/I`).
 */
export function loadProjectConfig(file: string): ProjectConfig {
  checkInputSize(file, 'config');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError([{ file, path: '', reason: `cannot read the file: ${(error as Error).message}` }]);
  }
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0)
    throw new InputError(
      doc.errors.map((e) => ({ file, path: '', reason: `YAML syntax error: ${e.message.split('\n')[0]}` })),
    );
  const value = (doc.toJS() as unknown) ?? {};
  if (!validate(value)) throw new InputError(problemsFromAjv(file, validate.errors, PROJECT_CONFIG_SCHEMA));
  const raw = value as {
    scenarios?: string | string[];
    recordings?: string | string[];
    configurations?: Record<string, string>;
    out?: string;
    scorers?: string[];
    tolerances?: Record<string, number>;
  };
  const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  const unknown: InputProblem[] = [];
  for (const name of Object.keys(raw.tolerances ?? {})) {
    const reason = unknownMetricReason(name);
    if (reason) unknown.push({ file, path: pointerChild('/tolerances', name), reason });
  }
  (raw.scorers ?? []).forEach((name, i) => {
    const reason = unknownMetricReason(name);
    if (reason) unknown.push({ file, path: `/scorers/${i}`, reason });
  });
  if (unknown.length > 0) throw new InputError(unknown);
  const scenarios = list(raw.scenarios);
  const recordings = list(raw.recordings);
  if (scenarios.length === 0 && recordings.length === 0)
    throw new InputError([
      { file, path: '', reason: 'names no scenarios and no recordings: add "scenarios: [scenarios/]"' },
    ]);
  return {
    file,
    dir: path.dirname(file),
    scenarios,
    recordings,
    configurations: raw.configurations ?? {},
    ...(raw.out !== undefined ? { out: raw.out } : {}),
    ...(raw.scorers !== undefined ? { scorers: raw.scorers } : {}),
    ...(raw.tolerances !== undefined ? { tolerances: raw.tolerances } : {}),
  };
}

/** The project configuration that applies in `cwd`, or `undefined`. @throws InputError */
export function discoverProjectConfig(cwd: string): ProjectConfig | undefined {
  const file = findProjectConfigFile(cwd);
  return file === undefined ? undefined : loadProjectConfig(file);
}
