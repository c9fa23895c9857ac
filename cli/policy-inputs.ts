/**
 * What `policy check` and `policy check --batch` share: their options, the checked workspace and
 * tool, and one decision part as JSON (`policy-command.ts`, `policy-batch.ts`).
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_CONFIG_FILE, loadConfig, type NamedConfig } from '../eval/config-load.ts';
import { InputError } from '../eval/errors.ts';
import { discoverProjectConfig } from '../eval/project-config.ts';
import type { DecisionPart } from '../harness/policy/types.ts';
import { BUILTIN_TOOLS } from '../harness/tools/builtin/index.ts';
import type { ToolDefinition } from '../harness/tools/types.ts';
import { loadConfigs } from './config-specs.ts';

/** Options of `policy check`. */
export interface PolicyCheckOptions {
  config?: string;
  /** A JSON-lines file of checks (`-` for stdin): one verdict per line out (`policy-batch.ts`). */
  batch?: string;
  /** `bash` (default) or a built-in tool with paths, whose operand is then a path. */
  tool?: string;
  workspace?: string;
  /** Decide as if content of this untrusted tool had entered the context. */
  taintedBy?: string;
}

/**
 * The configuration `-c` names, read as `run -c` reads it: a file, a name of the project
 * configuration (`harness-bench.config.yaml`) or one the package ships (`strict`, …); without
 * `-c`, the package's `configs/default.json`.
 * @throws InputError naming the known names when it is none of them, or the file's problems
 */
export function checkedConfig(cwd: string, spec: string | undefined): NamedConfig {
  if (spec === undefined) return loadConfig(DEFAULT_CONFIG_FILE);
  return loadConfigs([spec], cwd, discoverProjectConfig(cwd))[0]!;
}

/**
 * The real path of the workspace a check resolves paths in.
 * @throws InputError when it is no existing folder.
 */
export function checkedWorkspace(cwd: string, given: string | undefined): string {
  const requested = path.resolve(cwd, given ?? '.');
  try {
    if (!statSync(requested).isDirectory()) throw new Error('not a directory');
    return realpathSync(requested);
  } catch (error) {
    throw new InputError([
      {
        file: requested,
        path: '',
        reason: `--workspace must be an existing folder (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      },
    ]);
  }
}

/** A bash-like tool for checks: its command is the operand. */
function bashTool(name: string): ToolDefinition {
  return {
    name,
    description: 'a shell command',
    parameters: { type: 'object' },
    effect: 'write',
    command: (args) => String(args.command ?? ''),
    execute: async () => ({ ok: true, content: '' }),
  };
}

/** One decision part as JSON (`command`/`path`/…, verdict, rule, reason). */
export function partJson(part: DecisionPart): Record<string, unknown> {
  const common = {
    verdict: part.action,
    rule: part.rule,
    ...(part.reason !== undefined ? { reason: part.reason } : {}),
  };
  if (part.kind === 'path')
    return {
      path: part.requested ?? part.subject,
      access: part.access,
      resolved: part.resolved ?? part.subject,
      ...common,
      ...(part.via !== undefined ? { via: part.via } : {}),
    };
  if (part.kind === 'command')
    return {
      command: part.subject,
      ...common,
      ...(part.spelledAs !== undefined ? { spelledAs: part.spelledAs } : {}),
    };
  return { [part.kind]: part.subject, ...common };
}

/**
 * The tool a check runs under and its arguments: bash (or a built-in with a command) takes the
 * operand as its command, a built-in file tool as its path.
 * @throws InputError for a tool that cannot be checked (`where` names the flag or line).
 */
export function checkedTool(
  toolName: string,
  operand: string,
  where: string,
  file = '(arguments)',
): { tool: ToolDefinition; args: Record<string, unknown> } {
  const builtin = BUILTIN_TOOLS[toolName];
  if (builtin?.command || (!builtin && toolName === 'bash'))
    return { tool: builtin ?? bashTool(toolName), args: { command: operand } };
  if (builtin?.paths)
    return { tool: builtin, args: { path: operand, content: '', old_str: '', new_str: '' } };
  const usable = [
    'bash',
    ...Object.values(BUILTIN_TOOLS)
      .filter((t) => t.paths || t.command)
      .map((t) => t.name),
  ];
  throw new InputError([
    {
      file,
      path: where,
      reason: `cannot check tool "${toolName}": use one of ${[...new Set(usable)].join(', ')}`,
    },
  ]);
}
