/**
 * Loading harness configurations from JSON files: validated against `CONFIG_SCHEMA` (every
 * problem reported with file, JSON path and reason), merged over the defaults.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import {
  CONFIG_SCHEMA,
  DEFAULT_CONFIG,
  mergeConfig,
  type HarnessConfig,
  type PartialConfig,
} from '../harness/config.ts';
import { parseTolerance, type Tolerance } from './compare/baseline.ts';
import { InputError, parseJsonInput, problemsFromAjv, type InputProblem } from './errors.ts';
import { checkInputSize } from './input-limits.ts';
import { unknownMetricReason } from './metric-names.ts';
import { PACKAGE_ROOT } from './package-root.ts';
import { pointerChild } from './scenario/json-pointer.ts';
import { SANDBOX_UNAVAILABLE } from './unavailable-sandbox.ts';
import type { HarnessChoice } from './adapters/load.ts';

export { PACKAGE_ROOT } from './package-root.ts';

/** `configs/default.json` of the package: used by every command without `--config`. */
export const DEFAULT_CONFIG_FILE = path.join(PACKAGE_ROOT, 'configs', 'default.json');

/**
 * What a configuration file may say beyond the harness configuration, for the bench alone:
 * `sandbox: "unavailable"` (instead of the `sandbox` object) runs every scenario with the
 * sandbox made unavailable (`eval/unavailable-sandbox.ts`); `scorers` registers custom scorers;
 * `baseline.tolerances` sets the tolerances of the baseline gate.
 */
export interface BenchOptions {
  sandbox?: 'unavailable';
  /** Custom scorers: name → absolute path of the module (`eval/expect/scorers.ts`); the file gives paths relative to itself. */
  scorers?: Record<string, string>;
  /**
   * Tolerances of the baseline gate (`run --baseline`, `eval/compare/baseline.ts`): metric name →
   * an absolute amount in the metric's unit or a percentage of the baseline value (`"5%"`).
   */
  baseline?: { tolerances: Record<string, Tolerance> };
}

/** A configuration with its name (file name without extension, or the `name=` of `-c name=path`) and source file. */
export interface NamedConfig {
  name: string;
  file: string;
  config: HarnessConfig;
  /** Bench-only settings of the file, when it has any. */
  bench?: BenchOptions;
  /**
   * The configuration whose `expectFor` block applies, when `name` is a column label of several
   * harnesses side by side (`mine:strict` expects what `strict` expects). @default name
   */
  expectAs?: string;
  /** The harness this column runs (`run --harness A --harness B`); absent: the run's one harness. */
  harness?: HarnessChoice;
}

/**
 * Splits a parsed configuration file into the harness part and the bench part
 * ({@link BenchOptions}): a string `sandbox` is the bench's (it must be `"unavailable"`), and so
 * are `scorers` (an object of module paths) and `baseline.tolerances` (each naming a metric,
 * `eval/metric-names.ts`, with a tolerance value).
 * @throws InputError naming each bad bench key.
 */
function splitBenchKeys(value: unknown, file: string): { harness: unknown; bench: BenchOptions } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { harness: value, bench: {} };
  const { sandbox, scorers, baseline, ...rest } = value as Record<string, unknown>;
  const bench: BenchOptions = {};
  const problems: InputProblem[] = [];
  const harness: Record<string, unknown> =
    typeof sandbox === 'string' || sandbox === undefined ? rest : { ...rest, sandbox };
  if (typeof sandbox === 'string') {
    if (sandbox === SANDBOX_UNAVAILABLE) bench.sandbox = 'unavailable';
    else
      problems.push({
        file,
        path: '/sandbox',
        reason: `must be an object ({ "kind": … }) or "unavailable" (run every scenario with the sandbox made unavailable), got ${JSON.stringify(sandbox)}`,
      });
  }
  if (scorers !== undefined) {
    const entries =
      typeof scorers === 'object' && scorers !== null && !Array.isArray(scorers)
        ? Object.entries(scorers)
        : undefined;
    if (!entries)
      problems.push({ file, path: '/scorers', reason: 'must be an object: scorer name → module path' });
    for (const [name, module] of entries ?? []) {
      if (typeof module !== 'string' || module === '')
        problems.push({ file, path: `/scorers/${name}`, reason: 'must be the path of a JS or TS module' });
      else (bench.scorers ??= {})[name] = path.resolve(path.dirname(path.resolve(file)), module);
    }
  }
  if (baseline !== undefined) {
    const tolerances = (baseline as { tolerances?: unknown } | null)?.tolerances;
    if (
      typeof baseline !== 'object' ||
      baseline === null ||
      Array.isArray(baseline) ||
      Object.keys(baseline).some((k) => k !== 'tolerances') ||
      typeof tolerances !== 'object' ||
      tolerances === null ||
      Array.isArray(tolerances)
    )
      problems.push({
        file,
        path: '/baseline',
        reason: 'must be { "tolerances": { metric: number or "N%" } } (the baseline gate, run --baseline)',
      });
    else {
      const parsed: Record<string, Tolerance> = {};
      for (const [metric, v] of Object.entries(tolerances)) {
        const unknown = unknownMetricReason(metric);
        if (unknown)
          problems.push({ file, path: pointerChild('/baseline/tolerances', metric), reason: unknown });
        try {
          parsed[metric] = parseTolerance(v);
        } catch (error) {
          problems.push({ file, path: `/baseline/tolerances/${metric}`, reason: (error as Error).message });
        }
      }
      bench.baseline = { tolerances: parsed };
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  return { harness, bench };
}

const ajv = new Ajv({ allErrors: true, strict: false });
const validatePartial = ajv.compile(CONFIG_SCHEMA);

/** Validates a partial configuration object. @returns the problems, empty when valid. */
function configProblems(file: string, value: unknown, prefix = '') {
  if (validatePartial(value)) return [];
  return problemsFromAjv(file, validatePartial.errors, CONFIG_SCHEMA).map((p) => ({
    ...p,
    path: prefix + (p.path === '/' && prefix ? '' : p.path),
  }));
}

/**
 * Loads a configuration file and merges it over {@link DEFAULT_CONFIG}, named `name` (default:
 * the file name without `.json`); bench-only keys
 * ({@link BenchOptions}) go to `bench`.
 * @throws InputError when the file is unreadable, over the size limit (`input-limits.ts`), not
 *   JSON, fails the schema, or names no metric in `baseline.tolerances`.
 */
export function loadConfig(file: string = DEFAULT_CONFIG_FILE, name?: string): NamedConfig {
  checkInputSize(file, 'config');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError([
      {
        file,
        path: '',
        reason: `cannot read the configuration: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      },
    ]);
  }
  const { harness, bench } = splitBenchKeys(parseJsonInput(text, file), file);
  const problems = configProblems(file, harness);
  if (problems.length > 0) throw new InputError(problems);
  return {
    name: name ?? path.basename(file).replace(/\.json$/i, ''),
    file,
    config: mergeConfig(DEFAULT_CONFIG, harness as PartialConfig),
    ...(Object.keys(bench).length > 0 ? { bench } : {}),
  };
}
