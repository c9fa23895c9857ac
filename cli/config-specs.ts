/**
 * `-c` values: `-c FILE` (named after the file), `-c NAME=FILE` (named NAME), or `-c NAME`: a
 * configuration of the project configuration (`harness-bench.config.yaml`) or one the package
 * ships (`configs/NAME.json`). Without `-c`: every configuration the project names, else the
 * package's `configs/default.json`.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_CONFIG_FILE, loadConfig, PACKAGE_ROOT, type NamedConfig } from '../eval/config-load.ts';
import { didYouMean } from '../eval/did-you-mean.ts';
import { InputError, type InputProblem } from '../eval/errors.ts';
import type { ProjectConfig } from '../eval/project-config.ts';

/** A configuration name: what `-c NAME=FILE` and the project configuration accept. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** The names of the configurations the package ships (`configs/*.json`), sorted. */
export function shippedConfigNames(): string[] {
  const dir = path.join(PACKAGE_ROOT, 'configs');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

const isFile = (file: string) => existsSync(file) && statSync(file).isFile();

/** A configuration value of the project file: a path relative to it, or a shipped name. */
function projectEntryFile(value: string, project: ProjectConfig): string {
  const file = path.resolve(project.dir, value);
  if (isFile(file) || /[\\/]|\.json$/i.test(value)) return file;
  return path.join(PACKAGE_ROOT, 'configs', `${value}.json`);
}

/** One `-c` value resolved to a name and a file, or the problem with it. */
export function resolveConfigSpec(
  spec: string,
  cwd: string,
  project?: ProjectConfig,
): { name?: string; file: string } | InputProblem {
  const direct = path.resolve(cwd, spec);
  if (isFile(direct)) return { file: direct };
  const named = /^([^=\\/]+)=(.+)$/.exec(spec);
  if (named && NAME.test(named[1]!) && !named[2]!.includes('=')) {
    // The value is a path or a name itself: `-c tight=strict`, `-c mine=configs/mine.json`.
    const value = resolveConfigSpec(named[2]!, cwd, project);
    return 'reason' in value ? { ...value, file: `-c ${spec}` } : { name: named[1]!, file: value.file };
  }
  if (spec.startsWith('='))
    return {
      file: `-c ${spec}`,
      path: '',
      reason: `the name before "=" is empty: -c NAME=FILE, e.g. -c tight${spec}`,
    };
  if (named)
    return {
      file: `-c ${spec}`,
      path: '',
      reason: `"${named[1]}" is not a configuration name (letters, digits, "_", "-", "."; it starts with a letter or digit)`,
    };
  if (/[\\/]|\.json$/i.test(spec)) return { file: direct };
  if (project && Object.hasOwn(project.configurations, spec))
    return { name: spec, file: projectEntryFile(project.configurations[spec]!, project) };
  const shipped = path.join(PACKAGE_ROOT, 'configs', `${spec}.json`);
  if (NAME.test(spec) && isFile(shipped)) return { name: spec, file: shipped };
  const names = [...Object.keys(project?.configurations ?? {}), ...shippedConfigNames()];
  return {
    file: `-c ${spec}`,
    path: '',
    reason: `no configuration file or name "${spec}"${didYouMean(spec, names)}; names: ${[...new Set(names)].join(', ')} (or give a path, or NAME=PATH)`,
  };
}

/**
 * Loads every configuration given by `-c` values (see the module comment), or the defaults;
 * collects every problem before failing. Two configurations may not share a name.
 * @throws InputError
 */
export function loadConfigs(
  specs: readonly string[] | undefined,
  cwd: string,
  project?: ProjectConfig,
): NamedConfig[] {
  const problems: InputProblem[] = [];
  const configs: NamedConfig[] = [];
  // `entry`: the value as the project file gives it, for the message when it names nothing.
  const wanted: { name?: string; file: string; shown: string; entry?: string }[] = [];
  if (specs && specs.length > 0)
    for (const spec of specs) {
      const resolved = resolveConfigSpec(spec, cwd, project);
      if ('reason' in resolved) problems.push(resolved);
      else wanted.push({ ...resolved, shown: spec.includes('=') ? spec.slice(spec.indexOf('=') + 1) : spec });
    }
  else if (project && Object.keys(project.configurations).length > 0)
    for (const [name, value] of Object.entries(project.configurations))
      wanted.push({
        name,
        file: projectEntryFile(value, project),
        shown: `${path.relative(cwd, project.file) || project.file}: configurations.${name}`,
        entry: value,
      });
  else wanted.push({ file: DEFAULT_CONFIG_FILE, shown: DEFAULT_CONFIG_FILE });
  for (const { name, file, shown, entry } of wanted) {
    if (entry !== undefined && !isFile(file) && !/[\\/]|\.json$/i.test(entry)) {
      problems.push({
        file: shown,
        path: '',
        reason: `no configuration file or name "${entry}"${didYouMean(entry, shippedConfigNames())}; names: ${shippedConfigNames().join(', ')} (or a JSON file, relative to this file)`,
      });
      continue;
    }
    try {
      const loaded = loadConfig(file);
      const config = name === undefined ? loaded : { ...loaded, name };
      if (configs.some((c) => c.name === config.name))
        problems.push({
          file: shown,
          path: '',
          reason: `two configurations are named "${config.name}"; name them with -c NAME=PATH`,
        });
      configs.push(config);
    } catch (error) {
      if (error instanceof InputError) problems.push(...error.problems.map((p) => ({ ...p, file: shown })));
      else throw error;
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  return configs;
}
