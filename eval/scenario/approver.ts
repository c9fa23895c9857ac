/**
 * The scenario's scripted human: answers `ask` verdicts from the `approver` block
 * (`{ default, rules: [{ tool, match, answer, shape }] }`). The last matching rule wins (as
 * permission rules do); no match → `default`; an absent block denies everything. An answer is
 * `approve`, `deny`, or `approve-shape`: approve and grant a shape for the session (the rule's
 * `shape`, else the one the harness offered), as a person choosing "always allow this" does.
 */
import { isAbsolute, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import { matchCommandPattern } from '../../harness/policy/pattern.ts';
import type { ApprovalAnswer, ApprovalRequest } from '../../harness/policy/types.ts';
import type { ApproverRule, ApproverSpec } from './types.ts';

/**
 * The subject a file rule's glob sees: the resolved path relative to `workspace` with `/`
 * separators, or the absolute path when it lies outside the workspace.
 */
export function pathSubject(path: string, workspace: string): string {
  const rel = relative(workspace, path);
  if (rel === '') return '.';
  if (rel.startsWith('..') || isAbsolute(rel)) return path.split(sep).join('/');
  return rel.split(sep).join('/');
}

/**
 * True when `rule` applies to `request`:
 * - the tool name equals `rule.tool` (or the rule's tool is `*`);
 * - no `match`: every call of that tool;
 * - a command (bash-like tools): every simple command the policy listed (decision parts of
 *   kind `command`) matches the command pattern — so `mkdir *` never approves
 *   `mkdir x && rm -rf y`; without listed parts, the whole command must match;
 * - paths (file tools): every resolved path matches the glob (picomatch, `dot: true`, see
 *   {@link pathSubject});
 * - otherwise the arguments JSON text is matched with the command pattern.
 */
export function ruleMatches(rule: ApproverRule, request: ApprovalRequest, workspace: string): boolean {
  if (rule.tool !== '*' && rule.tool !== request.tool) return false;
  if (rule.match === undefined) return true;
  const pattern = rule.match;
  if (request.command !== undefined) {
    const parts = request.decision.parts
      .filter((part) => part.kind === 'command')
      .map((part) => part.subject);
    if (parts.length === 0) return matchCommandPattern(pattern, request.command);
    return parts.every((part) => matchCommandPattern(pattern, part));
  }
  if (request.paths.length > 0) {
    const isMatch = picomatch(pattern, { dot: true });
    return request.paths.every((p) => isMatch(pathSubject(p.path, workspace)));
  }
  return matchCommandPattern(pattern, request.argumentsText);
}

/**
 * The approver for one run. `workspace` is the real path of the workspace root (as
 * `buildWorkspace` returns it), so resolved paths compare correctly.
 * Contract: always resolves, with `approve`, `deny` or `{ approveShape }`.
 */
export function scriptedApprover(
  spec: ApproverSpec | undefined,
  workspace: string,
): (request: ApprovalRequest) => Promise<ApprovalAnswer> {
  const rules = spec?.rules ?? [];
  const fallback: Pick<ApproverRule, 'answer' | 'shape'> = { answer: spec?.default ?? 'deny' };
  return async (request) => {
    let chosen = fallback;
    for (const rule of rules) if (ruleMatches(rule, request, workspace)) chosen = rule;
    return answerOf(chosen, request);
  };
}

/**
 * The harness's answer for a chosen rule: `approve-shape` approves and grants the rule's `shape`,
 * or the shape the harness offered (`request.shape`); with neither, it is a plain approval (the
 * harness offers no shape when the asking parts share none, or one can never be granted).
 */
export function answerOf(
  rule: Pick<ApproverRule, 'answer' | 'shape'>,
  request: ApprovalRequest,
): ApprovalAnswer {
  if (rule.answer !== 'approve-shape') return rule.answer;
  const shape = rule.shape ?? request.shape;
  return shape === undefined ? 'approve' : { approveShape: shape };
}
