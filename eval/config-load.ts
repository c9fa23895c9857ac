/**
 * Loading harness configurations from JSON files: validated against `CONFIG_SCHEMA` (every
 * problem reported with file, JSON path and reason), merged over the defaults.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import {
  CONFIG_SCHEMA,
  DEFAULT_CONFIG,
  mergeConfig,
  type HarnessConfig,
  type PartialConfig,
} from '../harness/config.ts';
import { InputError, parseJsonInput, problemsFromAjv } from './errors.ts';

/** The package root (where `configs/` and `scenarios/` live), whatever the working directory. */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `configs/default.json` of the package: used by every command without `--config`. */
export const DEFAULT_CONFIG_FILE = path.join(PACKAGE_ROOT, 'configs', 'default.json');

/** A configuration with its name (file name without extension) and source file. */
export interface NamedConfig {
  name: string;
  file: string;
  config: HarnessConfig;
}

const ajv = new Ajv({ allErrors: true, strict: false });
const validatePartial = ajv.compile(CONFIG_SCHEMA);

/** Validates a partial configuration object. @returns the problems, empty when valid. */
function configProblems(file: string, value: unknown, prefix = '') {
  if (validatePartial(value)) return [];
  return problemsFromAjv(file, validatePartial.errors).map((p) => ({
    ...p,
    path: prefix + (p.path === '/' && prefix ? '' : p.path),
  }));
}

/**
 * Loads a configuration file and merges it over {@link DEFAULT_CONFIG}.
 * @throws InputError when the file is unreadable, not JSON, or fails the schema.
 */
export function loadConfig(file: string = DEFAULT_CONFIG_FILE): NamedConfig {
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
  const value = parseJsonInput(text, file);
  const problems = configProblems(file, value);
  if (problems.length > 0) throw new InputError(problems);
  return {
    name: path.basename(file).replace(/\.json$/i, ''),
    file,
    config: mergeConfig(DEFAULT_CONFIG, value as PartialConfig),
  };
}
