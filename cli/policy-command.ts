import { InputError } from '../eval/errors.ts';
import { decideCall, prepareCall } from '../harness/policy/command-policy.ts';
import type { CliIo } from './io.ts';
import { policyBatchCommand } from './policy-batch.ts';
import {
  checkedConfig,
  checkedTool,
  checkedWorkspace,
  partJson,
  type PolicyCheckOptions,
} from './policy-inputs.ts';

/**
 * Runs `policy check`; resolves with 0 whatever the verdict.
 * @throws InputError (exit 2) for a bad configuration, workspace, tool or an empty command.
 */
export async function policyCheckCommand(
  words: readonly string[],
  options: PolicyCheckOptions,
  io: CliIo,
): Promise<number> {
  if (options.batch !== undefined) return policyBatchCommand(options.batch, options, io);
  const operand = words.join(' ');
  if (operand.trim() === '')
    throw new InputError([
      {
        file: '(arguments)',
        path: '',
        reason: 'give the command to check after --, e.g. policy check -- "git push"',
      },
    ]);
  const { config, name: configName } = checkedConfig(io.cwd, options.config);
  const workspace = checkedWorkspace(io.cwd, options.workspace);
  const toolName = options.tool ?? 'bash';
  const { tool, args } = checkedTool(toolName, operand, '--tool');
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
