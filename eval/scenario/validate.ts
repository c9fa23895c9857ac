/**
 * Every problem of one parsed scenario: the scenario schema (compiled once) with readable
 * errors (`schema-errors.ts`), and the semantic rules the schema cannot say (paths inside the
 * folder, content sizes, known tools, fake tool schemas that compile, script length, call ids
 * that exist).
 */
import { isAbsolute } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import type { InputProblem } from '../errors.ts';
import { expectationBlocks, expectationProblems, namedCallIds, withoutRemovals } from '../expect/validate.ts';
import { pointerChild } from './json-pointer.ts';
import type { Locator } from './parse.ts';
import { describeSchemaErrors } from './schema-errors.ts';
import { SCENARIO_SCHEMA } from './schema.ts';
import type { FileContent } from './types.ts';
import { contentLength } from './workspace.ts';

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
let validator: ValidateFunction | undefined;

/**
 * A validator compiled with the options of the scenario schema (every error, strict, unions of
 * types allowed), for the schema itself or a part of it (`expect` files, `--then` turns).
 */
export function compileScenarioSchema(schema: object): ValidateFunction {
  return new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true }).compile(
    schema,
  );
}

/** The compiled scenario validator (compiled once per process). */
export function scenarioValidator(): ValidateFunction {
  validator ??= compileScenarioSchema(SCENARIO_SCHEMA);
  return validator;
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
