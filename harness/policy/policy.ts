/**
 * The permission policy: a pure function from a call (tool, effect class, resolved paths,
 * command) and the configuration to `allow | ask | deny`, naming the part and the rule that
 * decided. Ordered rules, last match wins; the strictest part wins; a path outside the
 * workspace is always denied and no approval overrides it (`../shared/design/architecture.md`
 * §5 "Default permissions"; opencode `permission/next.ts` uses the same findLast shape).
 */
import picomatch from 'picomatch';
import type { HarnessConfig } from '../config.ts';
import type { EffectClass } from '../tools/types.ts';
import { matchCommandPattern } from './pattern.ts';
import type { ResolvedPath } from './paths.ts';
import type { DecisionPart, PolicyAction, PolicyDecision } from './types.ts';

/** What the policy needs to know about one call. */
export interface PolicyInput {
  tool: string;
  effect: EffectClass;
  paths: (ResolvedPath & { access: 'read' | 'write' })[];
  /** Simple commands the call runs (one part each), for bash-like tools. */
  commands?: string[];
}

const STRICTNESS: Record<PolicyAction, number> = { allow: 0, ask: 1, deny: 2 };

/** The stricter of two actions. */
export function stricter(a: PolicyAction, b: PolicyAction): PolicyAction {
  return STRICTNESS[a] >= STRICTNESS[b] ? a : b;
}

const matcherCache = new Map<string, (path: string) => boolean>();
function globMatch(pattern: string, subject: string): boolean {
  let matcher = matcherCache.get(pattern);
  if (!matcher) {
    matcher = picomatch(pattern, { dot: true });
    matcherCache.set(pattern, matcher);
  }
  return matcher(subject);
}

/** Decides one call. Pure: the same input and configuration always give the same decision. */
export function decide(input: PolicyInput, config: HarnessConfig): PolicyDecision {
  const { permissions } = config;
  const parts: DecisionPart[] = [];

  for (const p of input.paths) {
    if (!p.inside) {
      parts.push({ subject: p.absolute, kind: 'path', action: 'deny', rule: 'workspace:outside' });
      continue;
    }
    let part: DecisionPart | undefined;
    for (const rule of permissions.paths) {
      if (rule.access === p.access && globMatch(rule.pattern, p.relative))
        part = { subject: p.relative, kind: 'path', action: rule.action, rule: `paths:${rule.access}:${rule.pattern}` };
    }
    part ??= { subject: p.relative, kind: 'path', action: permissions.effects[p.access], rule: `effects:${p.access}` };
    parts.push(part);
  }

  for (const command of input.commands ?? []) {
    let part: DecisionPart = { subject: command, kind: 'command', action: 'ask', rule: 'bash:default' };
    for (const rule of permissions.bash) {
      if (matchCommandPattern(rule.pattern, command)) part = { subject: command, kind: 'command', action: rule.action, rule: `bash:${rule.pattern}` };
    }
    parts.push(part);
  }

  if (input.paths.length === 0 && (input.commands ?? []).length === 0)
    parts.push({ subject: input.tool, kind: 'effect', action: permissions.effects[input.effect], rule: `effects:${input.effect}` });
  else if (input.effect === 'irreversible')
    parts.push({ subject: input.tool, kind: 'effect', action: permissions.effects.irreversible, rule: 'effects:irreversible' });

  if (permissions.mode === 'plan' && input.effect !== 'read')
    parts.push({ subject: input.tool, kind: 'effect', action: 'deny', rule: 'mode:plan' });

  let decisive = parts[0]!;
  for (const part of parts) if (STRICTNESS[part.action] > STRICTNESS[decisive.action]) decisive = part;
  const outside = parts.find((part) => part.rule === 'workspace:outside');
  if (outside) decisive = outside;
  const requested = input.paths.find((p) => !p.inside)?.requested;

  const reason =
    decisive.rule === 'workspace:outside'
      ? `${JSON.stringify(requested)} resolves outside the workspace; only paths inside it can be used`
      : decisive.rule === 'mode:plan'
        ? `plan mode is read-only: ${input.tool} (${input.effect}) is not allowed`
        : `${decisive.kind} ${JSON.stringify(decisive.subject)} is ${decisive.action === 'allow' ? 'allowed' : decisive.action === 'ask' ? 'subject to approval' : 'denied'} by rule ${decisive.rule}`;
  return {
    action: decisive.action,
    rule: decisive.rule,
    reason,
    ...(decisive.action === 'deny' ? { errorType: decisive.rule === 'workspace:outside' ? 'path_outside_workspace' : 'policy_violation' } : {}),
    parts,
  } as PolicyDecision;
}
