/**
 * `harness-bench policy check --batch FILE`: a whole corpus of checks in one process. FILE (or
 * `-` for stdin) holds JSON lines `{ "tool"?: "bash", "command"?: "…", "path"?: "…",
 * "mode"?: "interactive"|"headless"|"plan"|"auto", "taintedBy"?: "tool", "id"?: any }` (blank
 * lines and lines starting with `#` are skipped); stdout gets one JSON line per check, in order:
 * `{ line, id?, tool, verdict, rule, rules, reason, effect, requiresHuman?, errorType? }`, where
 * `rules` lists the rule of every part (`harness/policy/rules.ts`). Every line is validated
 * before any is decided: a bad line is exit 2 with file, line and reason, and nothing on stdout.
 * The parser, the configuration and the analysis cache are shared by all lines.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { InputError, type InputProblem } from '../eval/errors.ts';
import { mergeConfig, type HarnessConfig, type PermissionMode } from '../harness/config.ts';
import { decideCall, prepareCall } from '../harness/policy/command-policy.ts';
import type { CliIo } from './io.ts';
import { checkedConfig, checkedTool, checkedWorkspace, type PolicyCheckOptions } from './policy-inputs.ts';

const MODES = new Set<PermissionMode>(['interactive', 'headless', 'plan', 'auto']);
const KEYS = new Set(['tool', 'command', 'path', 'mode', 'taintedBy', 'id']);

/** One parsed check. */
interface Check {
  line: number;
  id?: unknown;
  tool: string;
  operand: string;
  mode?: PermissionMode;
  taintedBy?: string;
}

/** Parses and validates every line. @throws InputError listing every bad line. */
export function parseBatch(text: string, file: string): Check[] {
  const checks: Check[] = [];
  const problems: InputProblem[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    const where = `line ${line}`;
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      problems.push({ file, path: where, reason: `not JSON: ${(error as Error).message}` });
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      problems.push({ file, path: where, reason: 'each line must be a JSON object' });
      return;
    }
    const o = value as Record<string, unknown>;
    const unknown = Object.keys(o).filter((k) => !KEYS.has(k));
    if (unknown.length > 0)
      problems.push({
        file,
        path: where,
        reason: `unknown key ${unknown.map((k) => JSON.stringify(k)).join(', ')} (keys: ${[...KEYS].join(', ')})`,
      });
    const tool = o.tool ?? 'bash';
    const operand = o.command ?? o.path;
    if (typeof tool !== 'string') problems.push({ file, path: `${where}: tool`, reason: 'must be a string' });
    if (
      typeof operand !== 'string' ||
      operand.trim() === '' ||
      (o.command !== undefined && o.path !== undefined)
    )
      problems.push({
        file,
        path: where,
        reason: 'give exactly one of "command" (bash) or "path" (a file tool), a non-empty string',
      });
    if (o.mode !== undefined && !MODES.has(o.mode as PermissionMode))
      problems.push({ file, path: `${where}: mode`, reason: `must be one of ${[...MODES].join(', ')}` });
    if (o.taintedBy !== undefined && typeof o.taintedBy !== 'string')
      problems.push({ file, path: `${where}: taintedBy`, reason: 'must be a tool name' });
    if (typeof tool === 'string' && typeof operand === 'string') {
      try {
        checkedTool(tool, operand, `${where}: tool`, file);
      } catch (error) {
        problems.push(...(error as InputError).problems);
        return;
      }
      checks.push({
        line,
        ...(o.id !== undefined ? { id: o.id } : {}),
        tool,
        operand,
        ...(o.mode !== undefined ? { mode: o.mode as PermissionMode } : {}),
        ...(typeof o.taintedBy === 'string' ? { taintedBy: o.taintedBy } : {}),
      });
    }
  });
  if (problems.length > 0) throw new InputError(problems);
  return checks;
}

/**
 * Runs `policy check --batch`; resolves with 0 whatever the verdicts.
 * @throws InputError (exit 2) for an unreadable file, a bad line, configuration or workspace.
 */
export async function policyBatchCommand(
  batch: string,
  options: PolicyCheckOptions,
  io: CliIo,
): Promise<number> {
  const file = batch === '-' ? '/dev/stdin' : path.resolve(io.cwd, batch);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError([
      {
        file,
        path: '',
        reason: `cannot read the batch file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      },
    ]);
  }
  const checks = parseBatch(text, batch === '-' ? '(stdin)' : file);
  const { config } = checkedConfig(io.cwd, options.config);
  const workspace = checkedWorkspace(io.cwd, options.workspace);
  const byMode = new Map<string, HarnessConfig>();
  const configFor = (mode?: PermissionMode) => {
    if (!mode) return config;
    let found = byMode.get(mode);
    if (!found) {
      found = mergeConfig(config, { permissions: { mode } });
      byMode.set(mode, found);
    }
    return found;
  };
  const lines: string[] = [];
  for (const check of checks) {
    const { tool, args } = checkedTool(check.tool, check.operand, 'tool');
    const taintedBy = check.taintedBy ?? options.taintedBy;
    const prepared = await prepareCall(tool, args, {
      workspace,
      ...(taintedBy ? { taintedBy: [taintedBy] } : {}),
    });
    const decision = decideCall(prepared, [configFor(check.mode)]);
    lines.push(
      JSON.stringify({
        line: check.line,
        ...(check.id !== undefined ? { id: check.id } : {}),
        tool: check.tool,
        verdict: decision.action,
        rule: decision.rule,
        rules: [...new Set(decision.parts.map((p) => p.rule))],
        reason: decision.reason,
        effect: prepared.input.effect,
        ...(decision.requiresHuman ? { requiresHuman: true } : {}),
        ...(decision.errorType ? { errorType: decision.errorType } : {}),
      }),
    );
    if (lines.length >= 256) {
      io.stdout(`${lines.join('\n')}\n`);
      lines.length = 0;
    }
  }
  if (lines.length > 0) io.stdout(`${lines.join('\n')}\n`);
  return 0;
}
