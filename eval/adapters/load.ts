/**
 * Adapter files (`docs/adapters.md`): how the bench starts a foreign harness against its model
 * endpoint. A file is JSON or YAML, validated against `adapters/adapter.schema.json` with ajv;
 * every problem is an {@link InputError} line `file: /path: reason` (exit 2, nothing run).
 *
 * `--harness` takes `ours` (the default: our harness in-process), a file path, or a NAME that
 * stands for `adapters/NAME.json` (or `.yaml`) shipped in the package.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../package-root.ts';
import { Ajv } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { didYouMean } from '../did-you-mean.ts';
import { InputError, parseJsonInput, problemsFromAjv, type InputProblem } from '../errors.ts';
import type { ToolMap } from '../serve/tool-map.ts';

/** The folder of the shipped adapter files (`adapters/` at the package root). */
export const ADAPTERS_DIR = `${path.join(PACKAGE_ROOT, 'adapters')}${path.sep}`;

/** The adapter file's JSON Schema, as shipped. */
export const ADAPTER_SCHEMA: Record<string, unknown> = JSON.parse(
  readFileSync(path.join(ADAPTERS_DIR, 'adapter.schema.json'), 'utf8'),
);

/** Per-case time limit when the file sets none, in ms. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Model calls per case when the file sets none. */
export const DEFAULT_MAX_TURNS = 20;
/** The model name harnesses are told to send when the file sets none. */
export const DEFAULT_MODEL = 'scripted';

/** What every adapter has, resolved (defaults applied, paths absolute). */
interface AdapterBase {
  name: string;
  /** Absolute path of the adapter file. */
  file: string;
  timeoutMs: number;
  maxTurns: number;
  model: string;
  requires: string[];
  install?: string;
  /**
   * `'mcp'`: the harness takes the case's tools from the bench's MCP server
   * (`eval/mcp/case-tools.ts`); a {@link ToolMap}: it keeps its own tools, our names mapped to its own.
   */
  tools?: ToolMap | 'mcp';
  /** True when the harness confines its own tools; escape and sandbox cases run only then. */
  sandboxed: boolean;
  /** The limits the harness enforces when told them (`honours`; default `["maxTurns"]`). */
  honours: readonly HonouredLimit[];
  /** True when the harness asks a human and takes the case's scripted answers. */
  approvals: boolean;
  /** Our tool names the harness implements itself; absent: whatever the case offers. */
  toolset?: readonly string[];
  /** Cases a foreign harness is not scored on unless it opts in (`scores`). */
  scores: readonly ('internals' | 'conventions')[];
}

/**
 * A limit a case may set (`config.limits.*`, `config.loop.*` as `loop`) that an adapter may
 * declare it honours (`docs/adapters.md`, "Limits").
 */
export type HonouredLimit =
  | 'maxTurns'
  | 'maxToolCalls'
  | 'maxTokens'
  | 'maxCostUsd'
  | 'maxWallMs'
  | 'maxConsecutiveTruncations'
  | 'wrapUpTurn'
  | 'loop';

/** What an adapter that declares nothing honours: the turn limit every harness has been told since the first contract. */
export const DEFAULT_HONOURS: readonly HonouredLimit[] = ['maxTurns'];

/** A `module` adapter: `module` is the absolute path of the module exporting `run(input)`. */
export interface ModuleAdapter extends AdapterBase {
  kind: 'module';
  module: string;
}

/** A `command` adapter: `argv` with paths next to the adapter file made absolute. */
export interface CommandAdapter extends AdapterBase {
  kind: 'command';
  argv: string[];
  task: 'stdin' | 'arg';
  env: Record<string, string>;
}

/** A loaded adapter file. */
export type Adapter = ModuleAdapter | CommandAdapter;

/** What `--harness` chose: our own harness in-process, or an adapter. */
export type HarnessChoice = { kind: 'ours'; name: 'ours' } | Adapter;

let validator: ReturnType<Ajv['compile']> | undefined;

function parseText(text: string, file: string): unknown {
  if (/\.ya?ml$/i.test(file))
    try {
      return parseYaml(text);
    } catch (error) {
      throw new InputError([{ file, path: '', reason: `YAML syntax error: ${(error as Error).message}` }]);
    }
  return parseJsonInput(text, file);
}

/**
 * Reads and validates one adapter file.
 *
 * @param file the path as the user gave it (shown in errors); resolved against `cwd`
 * @throws InputError for a missing or unreadable file, bad JSON/YAML, a schema violation, a
 *   `module` that does not exist, or a key that belongs to the other kind
 */
export function loadAdapterFile(file: string, cwd = process.cwd()): Adapter {
  const absolute = path.resolve(cwd, file);
  if (!/\.(json|ya?ml)$/i.test(file))
    throw new InputError([{ file, path: '', reason: 'an adapter file ends in .json, .yaml or .yml' }]);
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError([
      { file, path: '', reason: code === 'ENOENT' ? 'no such adapter file' : `cannot read: ${code}` },
    ]);
  }
  const value = parseText(text, file);
  validator ??= new Ajv({ allErrors: true, strict: false }).compile(ADAPTER_SCHEMA);
  if (!validator(value)) throw new InputError(problemsFromAjv(file, validator.errors, ADAPTER_SCHEMA));
  const raw = value as Record<string, unknown> & { name: string; kind: 'module' | 'command' };
  const dir = path.dirname(absolute);
  const problems: InputProblem[] = [];
  const other = raw.kind === 'module' ? ['command', 'task', 'env'] : ['module'];
  for (const key of other)
    if (key in raw)
      problems.push({
        file,
        path: `/${key}`,
        reason: `only for kind "${raw.kind === 'module' ? 'command' : 'module'}"`,
      });
  const base: AdapterBase = {
    name: raw.name,
    file: absolute,
    timeoutMs: (raw.timeoutMs as number | undefined) ?? DEFAULT_TIMEOUT_MS,
    maxTurns: (raw.maxTurns as number | undefined) ?? DEFAULT_MAX_TURNS,
    model: (raw.model as string | undefined) ?? DEFAULT_MODEL,
    requires: (raw.requires as string[] | undefined) ?? [],
    sandboxed: raw.sandboxed === true,
    honours: (raw.honours as HonouredLimit[] | undefined) ?? DEFAULT_HONOURS,
    approvals: raw.approvals === true,
    scores: (raw.scores as ('internals' | 'conventions')[] | undefined) ?? [],
    ...(Array.isArray(raw.toolset) ? { toolset: raw.toolset as string[] } : {}),
    ...(typeof raw.install === 'string' ? { install: raw.install } : {}),
    ...(raw.tools ? { tools: raw.tools as ToolMap | 'mcp' } : {}),
  };
  if (raw.kind === 'module') {
    const module = path.resolve(dir, raw.module as string);
    if (!existsSync(module)) problems.push({ file, path: '/module', reason: `no such file: ${module}` });
    if (problems.length > 0) throw new InputError(problems);
    return { ...base, kind: 'module', module };
  }
  if (problems.length > 0) throw new InputError(problems);
  const [program, ...args] = raw.command as string[];
  return {
    ...base,
    kind: 'command',
    argv: [program!, ...args.map((arg) => resolveNextTo(dir, arg))],
    task: (raw.task as 'stdin' | 'arg' | undefined) ?? 'stdin',
    env: (raw.env as Record<string, string> | undefined) ?? {},
  };
}

/** `arg` made absolute when it names an existing file next to the adapter file; otherwise as given. */
function resolveNextTo(dir: string, arg: string): string {
  if (arg.startsWith('-') || path.isAbsolute(arg)) return arg;
  const candidate = path.resolve(dir, arg);
  try {
    return statSync(candidate).isFile() ? candidate : arg;
  } catch {
    return arg;
  }
}

/** The names `--harness NAME` accepts: `ours` and the shipped adapter files. */
export function shippedAdapterNames(dir = ADAPTERS_DIR): string[] {
  let entries: string[] = [];
  try {
    entries = readdirSync(dir);
  } catch {
    /* no adapters shipped */
  }
  const names = entries
    .filter((entry) => /\.(json|ya?ml)$/i.test(entry) && !entry.includes('.schema.'))
    .map((entry) => entry.replace(/\.(json|ya?ml)$/i, ''));
  return ['ours', ...new Set(names)].sort();
}

/**
 * Resolves `--harness`: `ours`, a path to an adapter file (anything with a `/` or a file
 * extension), or a shipped NAME.
 *
 * @throws InputError `--harness: no harness "x" (known: ours, …)` for an unknown name, or any
 *   problem of the adapter file
 */
export function resolveHarness(
  spec: string | undefined,
  cwd = process.cwd(),
  dir = ADAPTERS_DIR,
): HarnessChoice {
  if (spec === undefined || spec === 'ours') return { kind: 'ours', name: 'ours' };
  if (spec.includes('/') || spec.includes(path.sep) || /\.(json|ya?ml)$/i.test(spec))
    return loadAdapterFile(spec, cwd);
  for (const ext of ['.json', '.yaml', '.yml']) {
    const candidate = path.join(dir, `${spec}${ext}`);
    if (existsSync(candidate)) return loadAdapterFile(candidate, cwd);
  }
  const known = shippedAdapterNames(dir);
  throw new InputError([
    {
      file: '--harness',
      path: '',
      reason: `no harness "${spec}"${didYouMean(spec, known)}; known: ${known.join(', ')}, or a path to an adapter file`,
    },
  ]);
}

/** The adapter's name mapping, or `undefined` when it has none or takes the served tools (`"mcp"`). Pure. */
export function toolMapOf(adapter: Pick<Adapter, 'tools'>): ToolMap | undefined {
  return typeof adapter.tools === 'object' ? adapter.tools : undefined;
}
