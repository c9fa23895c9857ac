/**
 * Loads scenario files (JSON or YAML, parsed by `parse.ts`) from globs, validates each against
 * the scenario schema and the semantic rules (`validate.ts`), and either returns every scenario
 * or throws one `InputError` that lists every problem of every file (nothing is half-loaded).
 */
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { glob } from 'tinyglobby';
import { InputError, type InputProblem } from '../errors.ts';
import { inputSizeProblem } from '../input-limits.ts';
import { parseScenarioText } from './parse.ts';
import type { LoadedScenario, Scenario } from './types.ts';
import { validateScenario } from './validate.ts';

const EXTENSIONS = ['.json', '.yaml', '.yml'];

/**
 * Loads every scenario matched by `globs` (tinyglobby patterns or plain paths, relative to
 * `cwd`). A directory means every `.json`, `.yaml` and `.yml` file under it; any `schema/`
 * folder is skipped; a pattern that matches no file is a problem.
 * @returns the scenarios sorted by file path.
 * @throws InputError carrying every problem of every file (parse errors with line and column,
 *   schema errors with the JSON path, semantic errors, duplicate ids across files, files over the
 *   size limit of `input-limits.ts`).
 */
export async function loadScenarios(
  globs: readonly string[],
  cwd: string = process.cwd(),
): Promise<{ scenarios: LoadedScenario[] }> {
  const problems: InputProblem[] = [];
  const files = new Set<string>();
  for (const pattern of globs) {
    const matched = await expandPattern(pattern, cwd);
    if (matched.length === 0)
      problems.push({
        file: pattern,
        path: '',
        reason: 'no scenario files (.json, .yaml, .yml) match this path or pattern',
      });
    for (const file of matched) files.add(file);
  }
  const scenarios: LoadedScenario[] = [];
  const idFiles = new Map<string, string>();
  for (const absolutePath of [...files].sort()) {
    const rel = relative(cwd, absolutePath);
    const file = rel.startsWith('..') || isAbsolute(rel) ? absolutePath : rel.split(sep).join('/');
    if (!EXTENSIONS.some((ext) => absolutePath.endsWith(ext))) {
      problems.push({ file, path: '', reason: 'a scenario file ends in .json, .yaml or .yml' });
      continue;
    }
    const tooLarge = inputSizeProblem(absolutePath, 'scenario', file);
    if (tooLarge) {
      problems.push(tooLarge);
      continue;
    }
    let text: string;
    try {
      text = await readFile(absolutePath, 'utf8');
    } catch (error) {
      problems.push({ file, path: '', reason: `cannot read the file: ${(error as Error).message}` });
      continue;
    }
    const parsed = parseScenarioText(text, file);
    if (!parsed.ok) {
      problems.push(...parsed.problems);
      continue;
    }
    const found = validateScenario(parsed.value, file, parsed.locate);
    problems.push(...found);
    if (found.length > 0) continue;
    const scenario = parsed.value as Scenario;
    const first = idFiles.get(scenario.id);
    if (first !== undefined)
      problems.push({
        file,
        path: '/id',
        reason: `duplicate id "${scenario.id}" (already used by ${first})`,
      });
    else idFiles.set(scenario.id, file);
    scenarios.push({ file, absolutePath, scenario });
  }
  if (problems.length > 0) throw new InputError(problems);
  return { scenarios };
}

async function expandPattern(pattern: string, cwd: string): Promise<string[]> {
  const absolute = resolve(cwd, pattern);
  const info = await stat(absolute).catch(() => undefined);
  if (info?.isFile()) return [absolute]; // named explicitly: loaded whatever its folder (the extension is checked when parsing)
  const base = info?.isDirectory() ? absolute : cwd;
  const patterns = info?.isDirectory() ? ['**/*.{json,yaml,yml}'] : [pattern];
  const found = await glob(patterns, {
    cwd: base,
    absolute: true,
    expandDirectories: false,
    // A pattern or folder that names node_modules (the package's own scenarios,
    // `node_modules/harness-bench/scenarios/…`) looks there; any other never descends into it.
    ignore: pattern.split(/[\\/]/).includes('node_modules') ? [] : ['**/node_modules/**'],
  });
  return found
    .map((path) => resolve(path))
    .filter((path) => EXTENSIONS.some((ext) => path.endsWith(ext)))
    .filter((path) => !relative(base, path).split(sep).slice(0, -1).includes('schema'));
}
