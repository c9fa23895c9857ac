/**
 * Approvals: what the approver is shown and what a session grant covers. The approver sees the
 * fully resolved call — every simple command after unwrapping, every resolved absolute path,
 * control and invisible characters escaped, nothing truncated (a prompt that shows less
 * than what will run is no approval; invisible characters: "Trojan Source", CVE-2021-42574). A grant is scoped to the shape that was shown
 * (`npm test*`) and covers a later call only when every part that needs approval fits the shape;
 * it never covers a tool as a whole, and never an ask that requires a human (taint).
 */
import picomatch from 'picomatch';
import type { EffectClass } from '../tools/types.ts';
import { escapeInvisible } from './invisible.ts';
import { matchCommandPattern } from './pattern.ts';
import type { ApprovalRequest, DecisionPart, PolicyDecision } from './types.ts';

/** What the dispatcher knows about the call being approved. */
export interface ApprovalSubject {
  callId: string;
  tool: string;
  effect: EffectClass;
  args: Record<string, unknown>;
  paths: { absolute: string; access: 'read' | 'write' }[];
  command?: string;
  decision: PolicyDecision;
}

function escapePart(part: DecisionPart): DecisionPart {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(part))
    out[key] = typeof value === 'string' ? escapeInvisible(value) : value;
  return out as unknown as DecisionPart;
}

/** Builds the approval request: everything escaped, nothing cut. */
export function approvalRequest(subject: ApprovalSubject): ApprovalRequest {
  const shape = suggestShape(subject.decision);
  const commands = subject.decision.parts
    .filter((p) => p.kind === 'command' && p.rule.startsWith('bash:'))
    .map((p) => escapeInvisible(p.subject));
  return {
    callId: subject.callId,
    tool: subject.tool,
    effect: subject.effect,
    argumentsText: escapeInvisible(JSON.stringify(subject.args)),
    paths: subject.paths.map((p) => ({ path: escapeInvisible(p.absolute), access: p.access })),
    ...(subject.command !== undefined ? { command: escapeInvisible(subject.command), commands } : {}),
    ...(shape !== undefined ? { shape: escapeInvisible(shape) } : {}),
    decision: {
      action: subject.decision.action,
      rule: escapeInvisible(subject.decision.rule),
      reason: escapeInvisible(subject.decision.reason),
      ...(subject.decision.errorType ? { errorType: subject.decision.errorType } : {}),
      parts: subject.decision.parts.map(escapePart),
      ...(subject.decision.requiresHuman ? { requiresHuman: true } : {}),
    },
  };
}

/**
 * The shape to offer for a session grant: for commands, the program and its subcommand followed
 * by `*` (`npm test -- -u` → `npm test*`); for paths, the folder (`src/a.ts` → `src/**`) or the
 * file at the root. Undefined when the asking parts do not share one shape, or when one of them
 * can never be granted (an analysis finding, taint).
 */
export function suggestShape(decision: PolicyDecision): string | undefined {
  const asking = decision.parts.filter((p) => p.action === 'ask');
  if (asking.length === 0 || decision.requiresHuman) return undefined;
  const shapes = new Set<string>();
  for (const part of asking) {
    if (part.kind === 'command' && part.reason === undefined) {
      const [program, second] = part.subject.split(' ');
      shapes.add(
        second !== undefined && /^[a-z][\w.-]*$/i.test(second) ? `${program} ${second}*` : `${program}*`,
      );
    } else if (part.kind === 'path')
      shapes.add(
        part.subject.includes('/')
          ? `${part.subject.slice(0, part.subject.lastIndexOf('/'))}/**`
          : part.subject,
      );
    else return undefined;
  }
  if (shapes.size !== 1) return undefined;
  const [shape] = shapes;
  return shape !== undefined && grantCovers(`x:${shape}`, 'x', decision) ? shape : undefined;
}

/**
 * True when a shape may be granted for the session: it must say something beyond wildcards
 * (`*`, `**`, `?` alone would grant the tool as a whole).
 */
export function isScopedShape(shape: string): boolean {
  return /[^*?\s/]/.test(shape);
}

/** True when `shape` covers one part: a command part by the command pattern, a path part by a glob over its workspace-relative path. */
function coversPart(shape: string, part: DecisionPart): boolean {
  if (part.kind === 'command') return part.reason === undefined && matchCommandPattern(shape, part.subject);
  if (part.kind === 'path') return picomatch(shape, { dot: true })(part.subject);
  return false;
}

/**
 * True when the grant `tool:shape` covers the call: same tool, the decision is an `ask` that
 * does not require a human, and every part that asks fits the shape.
 */
export function grantCovers(grant: string, tool: string, decision: PolicyDecision): boolean {
  if (!grant.startsWith(`${tool}:`) || decision.action !== 'ask' || decision.requiresHuman) return false;
  const shape = grant.slice(tool.length + 1);
  const asking = decision.parts.filter((p) => p.action === 'ask');
  return asking.length > 0 && asking.every((p) => coversPart(shape, p));
}
