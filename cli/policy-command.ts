/**
 * `harness-bench policy check [--config FILE] [--tool bash] [--workspace DIR] -- "COMMAND"`:
 * answers why a command (or, with a file tool, a path) is decided as it is. Prints only JSON on
 * stdout — `{ verdict, rule, reason, parts: [ { command, verdict, rule } | { path, access, … } ] }`
 * — and exits 0 whatever the verdict, 2 on bad input (unreadable configuration, missing
 * workspace, unknown tool, empty command).
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_CONFIG_FILE, loadConfig } from '../eval/config-load.ts';
import { InputError } from '../eval/errors.ts';
import { decideCall, prepareCall } from '../harness/policy/command-policy.ts';
import type { DecisionPart } from '../harness/policy/types.ts';
import { BUILTIN_TOOLS } from '../harness/tools/builtin/index.ts';
import type { ToolDefinition } from '../harness/tools/types.ts';
import type { CliIo } from './io.ts';

/** Options of `policy check`. */
export interface PolicyCheckOptions {
  config?: string;
  /** `bash` (default) or a built-in tool with paths, whose operand is then a path. */
  tool?: string;
  workspace?: string;
  /** Decide as if content of this untrusted tool had entered the context. */
  taintedBy?: string;
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

function partJson(part: DecisionPart): Record<string, unknown> {
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
 * Runs `policy check`; resolves with 0 whatever the verdict.
 * @throws InputError (exit 2) for a bad configuration, workspace, tool or an empty command.
 */
export async function policyCheckCommand(
  words: readonly string[],
  options: PolicyCheckOptions,
  io: CliIo,
): Promise<number> {
  const operand = words.join(' ');
  if (operand.trim() === '')
    throw new InputError([
      {
        file: '(arguments)',
        path: '',
        reason: 'give the command to check after --, e.g. policy check -- "git push"',
      },
    ]);
  const configFile = path.resolve(io.cwd, options.config ?? DEFAULT_CONFIG_FILE);
  const { config, name: configName } = loadConfig(configFile);
  const requested = path.resolve(io.cwd, options.workspace ?? '.');
  let workspace: string;
  try {
    if (!statSync(requested).isDirectory()) throw new Error('not a directory');
    workspace = realpathSync(requested);
  } catch (error) {
    throw new InputError([
      {
        file: requested,
        path: '',
        reason: `--workspace must be an existing folder (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      },
    ]);
  }
  const toolName = options.tool ?? 'bash';
  let tool: ToolDefinition;
  let args: Record<string, unknown>;
  const builtin = BUILTIN_TOOLS[toolName];
  if (builtin?.command || (!builtin && toolName === 'bash')) {
    tool = builtin ?? bashTool(toolName);
    args = { command: operand };
  } else if (builtin?.paths) {
    tool = builtin;
    args = { path: operand, content: '', old_str: '', new_str: '' };
  } else {
    const usable = [
      'bash',
      ...Object.values(BUILTIN_TOOLS)
        .filter((t) => t.paths || t.command)
        .map((t) => t.name),
    ];
    throw new InputError([
      {
        file: '(arguments)',
        path: '--tool',
        reason: `cannot check tool "${toolName}": use one of ${[...new Set(usable)].join(', ')}`,
      },
    ]);
  }
  const prepared = await prepareCall(tool, args, {
    workspace,
    ...(options.taintedBy ? { taintedBy: [options.taintedBy] } : {}),
  });
  const decision = decideCall(prepared, [config]);
  const out = {
    tool: toolName,
    config: configName,
    workspace,
    mode: config.permissions.mode,
    effect: prepared.input.effect,
    verdict: decision.action,
    rule: decision.rule,
    reason: decision.reason,
    ...(decision.errorType ? { errorType: decision.errorType } : {}),
    ...(decision.requiresHuman ? { requiresHuman: true } : {}),
    parts: decision.parts.map(partJson),
  };
  io.stdout(`${JSON.stringify(out, null, 2)}\n`);
  return 0;
}
