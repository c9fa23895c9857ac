/**
 * Loads scenario files (JSON or YAML) from globs, validates each against the scenario schema and
 * the semantic rules below, and either returns every scenario or throws one `InputError` that
 * lists every problem of every file (nothing is half-loaded).
 */
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { glob } from 'tinyglobby';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { knownKeysAt, unknownKeyReason } from '../did-you-mean.ts';
import { InputError, jsonSyntaxProblem, type InputProblem } from '../errors.ts';
import { expectationBlocks, expectationProblems, namedCallIds, withoutRemovals } from '../expect/validate.ts';
import { foldTypedAnyOf } from './any-of-errors.ts';
import { inputSizeProblem } from '../input-limits.ts';
import { REQUIREMENT_NAMES } from '../requirements.ts';
import { SCENARIO_SCHEMA } from './schema.ts';
import { contentLength } from './workspace.ts';
import type { FileContent, LoadedScenario, Scenario } from './types.ts';

/** Built-in tool names of the architecture (§5 "Built-in tools"); `tools` entries must be one of these or a fake tool. */
export const BUILTIN_TOOL_NAMES: readonly string[] = [
  'read_file',
  'list_dir',
  'search_code',
  'read_skill',
  'search_notes',
  'write_file',
  'str_replace',
  'write_todos',
  'save_note',
  'bash',
  'task',
];

/** Largest generated or literal file content, in characters (64 Mi). */
export const MAX_CONTENT_CHARS = 64 * 1024 * 1024;

const EXTENSIONS = ['.json', '.yaml', '.yml'];
let validator: ValidateFunction | undefined;

/** The compiled scenario validator (compiled once per process). */
export function scenarioValidator(): ValidateFunction {
  validator ??= new Ajv({
    allErrors: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
  }).compile(SCENARIO_SCHEMA);
  return validator;
}

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
    ignore: ['**/node_modules/**'],
  });
  return found
    .map((path) => resolve(path))
    .filter((path) => EXTENSIONS.some((ext) => path.endsWith(ext)))
    .filter((path) => !relative(base, path).split(sep).slice(0, -1).includes('schema'));
}

/** Maps a JSON pointer to `line N, column M` in the source, when known. */
export type Locator = (pointer: string) => string | undefined;

/** The result of parsing one file's text. */
export type ParseResult =
  | { ok: true; value: unknown; locate: Locator }
  | { ok: false; problems: InputProblem[] };

/**
 * Parses JSON (a name ending in `.json`) or YAML (anything else). Parse errors carry line and
 * column. Duplicate keys are an error in YAML; in JSON the last one wins, as `JSON.parse` does.
 */
export function parseScenarioText(text: string, file: string): ParseResult {
  const source = text.replace(/^\uFEFF/, '');
  if (file.endsWith('.json')) {
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch {
      return { ok: false, problems: [jsonSyntaxProblem(source, file)] };
    }
    // Locations are only needed to report a problem: parse the text as YAML then, not for every
    // file (a YAML document per file was most of the memory of loading a 10,000-case suite).
    let located: Locator | undefined;
    const locate: Locator = (pointer) => {
      if (!located) {
        const { doc, counter } = yamlDocument(source);
        located = doc.errors.length === 0 ? locator(doc, counter) : () => undefined;
      }
      return located(pointer);
    };
    return { ok: true, value, locate };
  }
  const { doc, counter } = yamlDocument(source);
  if (doc.errors.length > 0) {
    return {
      ok: false,
      problems: doc.errors.map((error) => {
        const at = error.linePos?.[0];
        const firstLine = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
        return {
          file,
          path: '',
          reason: `YAML syntax error${at ? ` at line ${at.line}, column ${at.col}` : ''}: ${firstLine}`,
        };
      }),
    };
  }
  return { ok: true, value: doc.toJS({ maxAliasCount: 1000 }) as unknown, locate: locator(doc, counter) };
}

function yamlDocument(source: string): { doc: Document; counter: LineCounter } {
  const counter = new LineCounter();
  const doc = parseDocument(source, { lineCounter: counter, prettyErrors: true, uniqueKeys: true });
  return { doc, counter };
}

function locator(doc: Document, counter: LineCounter): Locator {
  return (pointer) => {
    const segments = pointerSegments(pointer).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
    const node = doc.getIn(segments, true) as { range?: [number, number, number] } | undefined;
    const offset = node?.range?.[0];
    if (offset === undefined) return undefined;
    const pos = counter.linePos(offset);
    return `line ${pos.line}, column ${pos.col}`;
  };
}

function pointerSegments(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function pointerChild(pointer: string, key: string): string {
  return `${pointer === '/' ? '' : pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const segment of pointerSegments(pointer)) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/**
 * Every problem of one parsed scenario: schema errors (rewritten to be readable, pointing at
 * the offending key) and the semantic rules (checked on whatever has the right shape, even when
 * the schema fails): workspace paths relative and
 * inside, generated content at most {@link MAX_CONTENT_CHARS}, `tools` names known (a fake tool
 * may stand in for a built-in of the same name), fake tool parameter schemas that compile.
 */
export function validateScenario(
  value: unknown,
  file: string,
  locate: Locator = () => undefined,
): InputProblem[] {
  const validate = scenarioValidator();
  const problems: InputProblem[] = [];
  const add = (path: string, reason: string) => {
    const where = locate(path);
    problems.push({ file, path: path || '/', reason: where ? `${reason} (${where})` : reason });
  };
  const checked = withoutRemovals(value, add);
  if (!validate(checked))
    for (const { path, reason } of describeSchemaErrors(validate.errors ?? [], checked)) add(path, reason);
  // Semantic rules run even when the schema failed (on whatever has the right shape), so one
  // pass reports everything.
  const root = asRecord(value);
  const checkPath = (path: string, at: string) => {
    if (path === '' || isAbsolute(path) || path.split(/[\\/]/).includes('..') || /^[A-Za-z]:/.test(path))
      add(at, `"${path}" must be a relative path inside the folder (no leading /, no ..)`);
  };
  const ws = asRecord(root.workspace);
  for (const group of ['files', 'outside'] as const) {
    for (const [path, content] of Object.entries(asRecord(ws[group]))) {
      const at = pointerChild(`/workspace/${group}`, path);
      checkPath(path, at);
      const length = isContent(content) ? contentLength(content) : 0;
      if (length > MAX_CONTENT_CHARS)
        add(at, `content would be ${length} characters; the limit is ${MAX_CONTENT_CHARS}`);
    }
  }
  if (Array.isArray(ws.dirs))
    for (const [i, path] of ws.dirs.entries())
      if (typeof path === 'string') checkPath(path, `/workspace/dirs/${i}`);
  for (const path of Object.keys(asRecord(ws.symlinks)))
    checkPath(path, pointerChild('/workspace/symlinks', path));
  const fakes = asRecord(root.fakeTools);
  const tools = Array.isArray(root.tools) ? root.tools : [];
  tools.forEach((name, i) => {
    if (typeof name === 'string' && !BUILTIN_TOOL_NAMES.includes(name) && !Object.hasOwn(fakes, name))
      add(
        `/tools/${i}`,
        `unknown tool "${name}"; built-in tools: ${BUILTIN_TOOL_NAMES.join(', ')}; or declare it under fakeTools`,
      );
  });
  // An Ajv instance only when there is a schema to check: one per file was most of the time and
  // memory of loading a large suite.
  let parameterChecker: Ajv | undefined;
  for (const [name, spec] of Object.entries(fakes)) {
    const at = pointerChild('/fakeTools', name);
    const parameters = asRecord(spec).parameters;
    if (typeof parameters === 'object' && parameters !== null && !Array.isArray(parameters)) {
      try {
        (parameterChecker ??= new Ajv({ strict: false })).compile(parameters);
        if ((parameters as { type?: unknown }).type !== 'object')
          add(`${at}/parameters`, 'tool parameters must be a JSON Schema with "type": "object"');
      } catch (error) {
        add(`${at}/parameters`, `not a valid JSON Schema: ${(error as Error).message}`);
      }
    }
  }
  checkScript(root, add);
  for (const [block, at] of expectationBlocks(root)) expectationProblems(block, at, add);
  return dedupe(problems);
}

/** Model turns after `repeat` at the most: a script longer than this is a mistake, not a test. */
export const MAX_SCRIPT_TURNS = 100_000;

/** Ids the harness assigns itself: from the id generator (`call_0001`) or a rewritten duplicate (`x~2`). */
export const ASSIGNED_ID = /^call_\d{4,}$|~\d+$/;

/**
 * The script stays within {@link MAX_SCRIPT_TURNS} turns after `repeat`, and every call id an
 * expectation names is one the script sends (with `repeat`'s `<id>_k` copies) or one the harness
 * assigns, so a typo cannot make a check vacuous.
 */
function checkScript(root: Record<string, unknown>, add: (path: string, reason: string) => void): void {
  if (!Array.isArray(root.model)) return;
  let turns = 0;
  const ids = new Set<string>();
  root.model.forEach((entry) => {
    const turn = asRecord(entry);
    const times = typeof turn.repeat === 'number' && turn.repeat >= 1 ? turn.repeat : 1;
    turns += times;
    const calls = Array.isArray(turn.tool_calls) ? turn.tool_calls : [];
    for (const call of calls) {
      const id = asRecord(call).id;
      if (typeof id !== 'string') continue;
      ids.add(id);
      for (let k = 2; k <= Math.min(times, 10_000); k += 1) ids.add(`${id}_${k}`);
    }
  });
  if (turns > MAX_SCRIPT_TURNS)
    add(
      '/model',
      `the script expands to ${turns} model turns (after repeat); the limit is ${MAX_SCRIPT_TURNS}`,
    );
  const named = expectationBlocks(root).flatMap(([block, at]) => namedCallIds(block, at));
  for (const [id, at] of named)
    if (!ids.has(id) && !ASSIGNED_ID.test(id))
      add(
        at,
        `no call with id "${id}" in the model script (nor one the harness assigns: call_0001…, <id>~2); is it a typo?`,
      );
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function isContent(value: unknown): value is FileContent {
  if (typeof value === 'string') return true;
  const record = asRecord(value);
  if (record.$gen === 'repeat') return typeof record.text === 'string' && typeof record.count === 'number';
  return record.$gen === 'lines' && typeof record.pattern === 'string' && typeof record.count === 'number';
}

function dedupe(problems: InputProblem[]): InputProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\u0000${p.reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const CONTENT_FORMS =
  'a string, {"$gen": "repeat", "text", "count"} or {"$gen": "lines", "count", "pattern"}';

/**
 * Turns ajv errors into `{path, reason}` written for a person: unknown keys point at the key,
 * enums list their values, `if`/`anyOf`/`oneOf` noise is folded into one sentence.
 */
export function describeSchemaErrors(
  errors: readonly ErrorObject[],
  data: unknown,
): { path: string; reason: string }[] {
  const out: { path: string; reason: string }[] = [];
  for (const error of foldTypedAnyOf(errors, data, (at) => at.startsWith('#/definitions/content'))) {
    const path = error.instancePath || '/';
    const params = error.params as Record<string, unknown>;
    const schemaPath = error.schemaPath;
    const content = /^#\/definitions\/content\/anyOf(?:\/(\d+))?/.exec(schemaPath);
    if (content) {
      const chosen = contentBranch(
        valueAt(data, error.keyword === 'anyOf' ? path : contentRoot(path, errors)),
      );
      if (error.keyword === 'anyOf') {
        if (chosen === undefined) out.push({ path, reason: `must be ${CONTENT_FORMS}` });
      } else if (chosen !== undefined && content[1] === String(chosen))
        out.push(basic(error, path, params, data));
      continue;
    }
    if (error.keyword === 'if') continue;
    if (schemaPath.startsWith('#/definitions/fakeTool/properties/results/items/oneOf')) {
      if (error.keyword !== 'oneOf') continue;
      const both = Array.isArray(params.passingSchemas);
      out.push({
        path,
        reason: both
          ? 'give either "output" or "error", not both'
          : 'needs "output" (the tool succeeds) or "error" (it fails)',
      });
      continue;
    }
    if (schemaPath.startsWith('#/definitions/evidence/')) {
      if (schemaPath.includes('/else/anyOf/')) continue;
      if (schemaPath.endsWith('/else/anyOf')) {
        out.push({ path, reason: 'a file check needs "exists", "contains" or "equals"' });
        continue;
      }
      if (schemaPath.includes('/then/not')) {
        out.push({ path, reason: 'a command check takes only "command" and "exitCode"' });
        continue;
      }
      if (schemaPath.includes('/else/not')) {
        out.push({ path, reason: '"exitCode" needs a "command"' });
        continue;
      }
      if (schemaPath.includes('/else/required')) {
        out.push({
          path,
          reason: 'needs "file" (with exists, contains or equals) or "command" (with exitCode)',
        });
        continue;
      }
    }
    if (schemaPath === '#/properties/requires/items/pattern') {
      out.push({
        path,
        reason: `unknown prerequisite ${JSON.stringify(valueAt(data, path))}; known: ${REQUIREMENT_NAMES.join(', ')}, or command:NAME`,
      });
      continue;
    }
    out.push(basic(error, path, params, data));
  }
  return out;
}

function contentRoot(path: string, errors: readonly ErrorObject[]): string {
  const root = errors.find(
    (e) =>
      e.keyword === 'anyOf' &&
      e.schemaPath.startsWith('#/definitions/content') &&
      (path === e.instancePath || path.startsWith(`${e.instancePath}/`)),
  );
  return root?.instancePath ?? path;
}

function contentBranch(value: unknown): number | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const gen = (value as { $gen?: unknown }).$gen;
  return gen === 'repeat' ? 1 : gen === 'lines' ? 2 : undefined;
}

function basic(
  error: ErrorObject,
  path: string,
  params: Record<string, unknown>,
  data: unknown,
): { path: string; reason: string } {
  switch (error.keyword) {
    case 'type': {
      const value = valueAt(data, path);
      const got = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
      return { path, reason: `must be ${String(params.type).split(',').join(' or ')}, got ${got}` };
    }
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      return {
        path: pointerChild(path, key),
        reason: unknownKeyReason(key, knownKeysAt(SCENARIO_SCHEMA, error.instancePath)),
      };
    }
    case 'enum':
      return {
        path,
        reason: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    case 'const':
      return { path, reason: `must be ${JSON.stringify(params.allowedValue)}` };
    case 'required':
      return { path, reason: `missing required key "${String(params.missingProperty)}"` };
    default:
      return { path, reason: error.message ?? error.keyword };
  }
}
