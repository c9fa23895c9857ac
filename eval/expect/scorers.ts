/**
 * Custom scorers: a JS or TS module whose default export (or `score` export) is a function of
 * the run, `(input: ScorerInput) => Check | Check[]` (async allowed), registered by name in a
 * configuration file or a scenario file (`"scorers": { "name": "./path.ts" }`, paths relative to
 * that file) and used from `expect.scorers: ["name"]`. Modules load once per process, before any
 * case runs when the command line prepares them (`prepareScorers`), so a missing file, a module
 * that throws on import, a module without a function and an unregistered name are bad input
 * (exit 2). Checks a scorer returns are named `scorers.<name>` (one check) or
 * `scorers.<name>.<check name>` and keep the scorer's `pass`, `expected`, `observed` and `reason`;
 * a scorer that throws or returns something else makes the case an `error` (the scorer is at
 * fault, not the harness). Pattern after promptfoo's `javascript` assertions and Inspect's
 * `@scorer`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { importUserModule } from '../user-module.ts';
import type { NamedConfig } from '../config-load.ts';
import { InputError, type InputProblem } from '../errors.ts';
import { verifyClaims } from '../claims/verify.ts';
import type { Expectations, LoadedScenario } from '../scenario/types.ts';
import { makeCheck, type Check } from './check.ts';
import type { ExpectContext, RegisteredScorer, Scorer } from './context.ts';

const modules = new Map<string, Promise<Scorer>>();

/** A problem of one scorer module, for an `InputError`. */
function problem(file: string, reason: string): InputError {
  return new InputError([{ file, path: '', reason }]);
}

/**
 * Imports a scorer module (cached by absolute path) and returns its function.
 * @throws InputError when the file is missing, throws on import, or exports no function.
 */
export function loadScorer(file: string): Promise<Scorer> {
  let loading = modules.get(file);
  if (!loading) {
    loading = (async () => {
      if (!existsSync(file)) throw problem(file, 'scorer module not found');
      let module: Record<string, unknown>;
      try {
        module = await importUserModule(file);
      } catch (error) {
        throw problem(
          file,
          `the scorer module throws on import: ${(error as Error)?.message ?? String(error)}`,
        );
      }
      const score = typeof module.default === 'function' ? module.default : module.score;
      if (typeof score !== 'function')
        throw problem(file, 'a scorer module exports its function as default or as "score"');
      return score as Scorer;
    })();
    modules.set(file, loading);
  }
  return loading;
}

/** The scorers a scenario can use under a configuration: the configuration's, then the scenario's own (absolute paths). */
export function scorerFiles(
  config: Pick<NamedConfig, 'bench'> | undefined,
  loaded: LoadedScenario,
): Record<string, string> {
  const own = Object.fromEntries(
    Object.entries(loaded.scenario.scorers ?? {}).map(([name, file]) => [
      name,
      path.resolve(path.dirname(loaded.absolutePath || path.resolve(loaded.file)), file),
    ]),
  );
  return { ...(config?.bench?.scorers ?? {}), ...own };
}

/** The names of `expect.scorers` and every `expectFor` block's. */
function usedNames(loaded: LoadedScenario): string[] {
  const blocks: Partial<Expectations>[] = [
    loaded.scenario.expect,
    ...Object.values(loaded.scenario.expectFor ?? {}),
  ];
  return [...new Set(blocks.flatMap((b) => b.scorers ?? []))];
}

/** Loads the scorers a case uses, by name. @throws InputError for an unregistered name or a bad module. */
export async function resolveScorers(
  config: Pick<NamedConfig, 'bench'> | undefined,
  loaded: LoadedScenario,
): Promise<Map<string, RegisteredScorer>> {
  const files = scorerFiles(config, loaded);
  const out = new Map<string, RegisteredScorer>();
  for (const name of usedNames(loaded)) {
    const file = files[name];
    if (file === undefined)
      throw new InputError([
        {
          file: loaded.file,
          path: '/expect/scorers',
          reason: `scorer "${name}" is not registered; register it under "scorers" in the configuration file or this scenario (${Object.keys(files).length > 0 ? `registered: ${Object.keys(files).join(', ')}` : 'none registered'})`,
        },
      ]);
    out.set(name, { file, score: await loadScorer(file) });
  }
  return out;
}

/** Every problem of the scorers the planned cases use (names and modules), before anything runs. */
export async function prepareScorers(
  configs: readonly Pick<NamedConfig, 'bench' | 'name'>[],
  scenarios: readonly LoadedScenario[],
): Promise<InputProblem[]> {
  const problems: InputProblem[] = [];
  const seen = new Set<string>();
  for (const config of configs)
    for (const loaded of scenarios) {
      if (usedNames(loaded).length === 0) continue;
      try {
        await resolveScorers(config, loaded);
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        for (const p of error.problems) {
          const key = `${p.file}\u0000${p.reason}`;
          if (!seen.has(key))
            problems.push(
              config.bench?.scorers ? p : { ...p, reason: `${p.reason} (configuration ${config.name})` },
            );
          seen.add(key);
        }
      }
    }
  return problems;
}

/** A scorer's return value as checks named after it. @throws Error when it is not a check or a list of checks. */
export function scorerChecks(name: string, file: string, value: unknown): Check[] {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) throw new Error(`scorer "${name}" (${file}) returned no check`);
  return list.map((item, index) => {
    const c = item as Partial<Check> | null;
    if (typeof c !== 'object' || c === null || typeof c.pass !== 'boolean')
      throw new Error(
        `scorer "${name}" (${file}) returned ${JSON.stringify(item) ?? String(item)} at ${index}, not a check with a boolean "pass"`,
      );
    const sub = typeof c.name === 'string' && c.name !== '' && c.name !== name ? `.${c.name}` : '';
    return makeCheck(
      `scorers.${name}${list.length > 1 && sub === '' ? `.${index}` : sub}`,
      c.pass,
      c.expected,
      c.observed,
      typeof c.reason === 'string' && c.reason !== ''
        ? c.reason
        : `scorer ${name} says ${c.pass ? 'pass' : 'fail'} (it gave no reason)`,
    );
  });
}

/** `scorers`: each named custom scorer, called with the run. @throws Error for a scorer fault (the case is an error). */
export async function checkScorers(want: Expectations['scorers'], context: ExpectContext): Promise<Check[]> {
  const checks: Check[] = [];
  for (const name of want ?? []) {
    const registered = context.scorers?.get(name);
    if (!registered) throw new Error(`scorer "${name}" is not registered for this case`);
    let value: unknown;
    try {
      value = await registered.score({
        case: context.subject,
        run: context.run,
        workspace: context.env.workspace,
        outside: context.env.outside,
        ...(context.env.workspaceChanges ? { workspaceChanges: context.env.workspaceChanges } : {}),
        claims: verifyClaims(context.run, context.env.workspaceChanges),
      });
    } catch (error) {
      throw new Error(
        `scorer "${name}" (${registered.file}) threw: ${(error as Error)?.message ?? String(error)}`,
      );
    }
    checks.push(...scorerChecks(name, registered.file, value));
  }
  return checks;
}
