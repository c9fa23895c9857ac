/**
 * Everything `run` decides before a case runs: the project configuration (found from the working
 * folder), the configurations (`-c`, with the project's tolerances), the scenarios and recordings (`-s`, `-r`, the project's, or
 * the package's bundled suite), the selection (`--filter`, `--tag`), and the output paths
 * (`--out`, `--json`, `--trace-file`), all checked first. Every problem of every input is
 * collected into one `InputError` (exit 2), so nothing runs and nothing is written.
 */
import path from 'node:path';
import { resolveHarness, type HarnessChoice } from '../eval/adapters/load.ts';
import { assertLaunchable } from '../eval/adapters/requires.ts';
import { PACKAGE_ROOT, type NamedConfig } from '../eval/config-load.ts';
import { InputError, type InputProblem } from '../eval/errors.ts';
import { discoverProjectConfig, type ProjectConfig } from '../eval/project-config.ts';
import type { LoadedScenario } from '../eval/scenario/types.ts';
import { cassetteAsScenario } from '../eval/expect/cassette.ts';
import { prepareScorers } from '../eval/expect/scorers.ts';
import { loadCassettes, loadScenarioFiles, planCases, type LoadedCassette } from '../eval/suite.ts';
import { loadConfigs } from './config-specs.ts';
import { outputPathProblems, REPORT_FILES, type OutputTarget } from './output-paths.ts';
import { describeSelection, selectInputs, type Selection } from './select.ts';

/** The flags `prepareRun` reads. */
export interface RunPlanFlags {
  scenarios?: string[];
  recordings?: string[];
  config?: string[];
  json?: string;
  out?: string;
  filter?: string[];
  tag?: string[];
  traceFile?: string;
  /** `--list`: nothing is written, so output paths are not checked. */
  list?: boolean;
  /** `--harness ours|NAME|FILE` (`eval/adapters/load.ts`), repeatable to bench harnesses side by side. */
  harness?: string | string[];
}

/** What a run will do, every input loaded and checked. Paths are absolute. */
export interface PreparedRun {
  project?: ProjectConfig;
  configs: NamedConfig[];
  scenarios: LoadedScenario[];
  recordings: LoadedCassette[];
  selection: Selection;
  /** The harness under test: ours unless `--harness` names an adapter. */
  harness: HarnessChoice;
  /** `--out DIR`, else the project's `out`. */
  out?: string;
  json?: string;
}

/** Collects the problems of `load` instead of throwing them. */
async function collect<T>(problems: InputProblem[], fallback: T, load: () => T | Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    problems.push(...error.problems);
    return fallback;
  }
}

/**
 * The output targets of `run` (and of anything that writes the same reports): `--out` (a
 * folder holding {@link REPORT_FILES}, or the project's `out`), `--json`, `--trace-file`.
 */
export function runOutputTargets(
  flags: Pick<RunPlanFlags, 'out' | 'json' | 'traceFile'>,
  project?: ProjectConfig,
  cwd = process.cwd(),
): OutputTarget[] {
  const targets: OutputTarget[] = [];
  if (flags.out) targets.push({ flag: '--out', value: flags.out, kind: 'dir', children: REPORT_FILES });
  else if (project?.out)
    targets.push({
      flag: `${path.relative(cwd, project.file) || project.file}: out`,
      value: path.resolve(project.dir, project.out),
      kind: 'dir',
      children: REPORT_FILES,
    });
  if (flags.json) targets.push({ flag: '--json', value: flags.json, kind: 'file' });
  if (flags.traceFile) targets.push({ flag: '--trace-file', value: flags.traceFile, kind: 'file' });
  return targets;
}

/**
 * The configurations with the project's `tolerances` (the baseline gate) under each one's own
 * `baseline.tolerances`: a configuration file's tolerance for a metric wins over the project's,
 * and `--tolerance` wins over both (`cli/run-compare.ts` prepareCompare).
 */
export function withProjectTolerances(configs: NamedConfig[], project?: ProjectConfig): NamedConfig[] {
  const shared = project?.tolerances;
  if (!shared || Object.keys(shared).length === 0) return configs;
  return configs.map((c) => ({
    ...c,
    bench: {
      ...c.bench,
      baseline: { tolerances: { ...shared, ...(c.bench?.baseline?.tolerances ?? {}) } },
    },
  }));
}

/**
 * Loads and checks everything a run needs (see the module comment). With neither `-s` nor `-r`,
 * the project configuration's scenarios and recordings run; without a project configuration,
 * the package's bundled `scenarios/` and `recordings/`. A run that selects no case is bad input:
 * a suite that runs nothing must not pass.
 * @throws InputError with every problem found (exit 2).
 */
export async function prepareRun(flags: RunPlanFlags, cwd: string): Promise<PreparedRun> {
  const problems: InputProblem[] = [];
  const project = await collect(problems, undefined, () => discoverProjectConfig(cwd));
  if (!flags.list) problems.push(...outputPathProblems(runOutputTargets(flags, project, cwd), cwd));
  let configs = withProjectTolerances(
    await collect(problems, [], () => loadConfigs(flags.config, cwd, project)),
    project,
  );
  const specs = flags.harness === undefined ? [undefined] : [flags.harness].flat();
  const harnesses = await collect<HarnessChoice[]>(problems, [{ kind: 'ours', name: 'ours' }], () =>
    specs.map((spec) => resolveHarness(spec, cwd)),
  );
  const harness = harnesses[0]!;
  const named = Boolean(flags.scenarios || flags.recordings);
  const source = named
    ? { base: cwd, scenarios: flags.scenarios, recordings: flags.recordings }
    : project
      ? { base: project.dir, scenarios: project.scenarios, recordings: project.recordings }
      : { base: PACKAGE_ROOT, scenarios: ['scenarios'], recordings: ['recordings'] };
  const scenarios = source.scenarios?.length
    ? await collect(problems, [], () => loadScenarioFiles(source.scenarios!, source.base))
    : [];
  const recordings = source.recordings?.length
    ? await collect(problems, [], () => loadCassettes(source.recordings!, source.base))
    : [];
  if (problems.length === 0) {
    // Custom scorers named by scenarios, configurations and cassette expectations load before any case runs.
    const withExpectations = recordings.flatMap((r) =>
      r.expectations ? [cassetteAsScenario(r.expectations, { id: r.cassette.meta.id, task: '' })] : [],
    );
    problems.push(...(await prepareScorers(configs, [...scenarios, ...withExpectations])));
  }
  if (problems.length > 0) throw new InputError(problems);
  if (!flags.list) for (const h of harnesses) if (h.kind !== 'ours') assertLaunchable(h);
  if (harnesses.length > 1) configs = harnessColumns(harnesses, configs);
  const selection: Selection = { filters: flags.filter ?? [], tags: flags.tag ?? [] };
  const selected = selectInputs(selection, scenarios, recordings);
  if (planCases({ configs, ...selected }).length === 0) {
    const described = describeSelection(selection);
    throw new InputError([
      {
        file: described || 'run',
        path: '',
        reason: `no case to run (${scenarios.length} scenarios and ${recordings.length} recordings loaded${described ? ', none selected by these flags' : ''}); a suite that runs nothing must not pass`,
      },
    ]);
  }
  const outDir = flags.out
    ? path.resolve(cwd, flags.out)
    : project?.out
      ? path.resolve(project.dir, project.out)
      : undefined;
  return {
    ...(project ? { project } : {}),
    configs,
    ...selected,
    selection,
    harness,
    ...(outDir ? { out: outDir } : {}),
    ...(flags.json ? { json: path.resolve(cwd, flags.json) } : {}),
  };
}

/**
 * Harnesses side by side (`run --harness A --harness B`, with `-c` for each): one column per
 * harness × configuration, named `HARNESS` when there is one configuration and `HARNESS:CONFIG`
 * otherwise, each expecting what its configuration expects (`expectAs`) and running its harness.
 * The comparison machinery of configurations then applies unchanged. Pure.
 * @throws InputError when two harnesses have the same name (their columns would merge)
 */
export function harnessColumns(
  harnesses: readonly HarnessChoice[],
  configs: readonly NamedConfig[],
): NamedConfig[] {
  const names = harnesses.map((h) => h.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice)
    throw new InputError([
      {
        file: '--harness',
        path: '',
        reason: `two harnesses are named "${twice}": give each adapter file its own name`,
      },
    ]);
  return harnesses.flatMap((harness) =>
    configs.map((config) => ({
      ...config,
      name: configs.length === 1 ? harness.name : `${harness.name}:${config.name}`,
      expectAs: config.expectAs ?? config.name,
      harness,
    })),
  );
}
