/**
 * The permission policy: a pure function from a call (tool, effect class, resolved paths, the
 * simple commands and findings of the shell analysis, taint) and the configuration to
 * `allow | ask | deny`, naming the part and the rule that decided. Ordered rules, last match
 * wins; the strictest part wins; a path outside the workspace is always denied and no approval
 * overrides it; sensitive paths ask at least; after untrusted content, irreversible and
 * network-reaching calls ask or are denied (`docs/architecture.md` §4–5; opencode
 * `permission/next.ts` uses the same findLast shape). The parts of walked trees and of
 * credentials sent to the network come from `tree-parts.ts`.
 */
import type { HarnessConfig } from '../config.ts';
import { showPath, type PathLabel } from '../path-display.ts';
import type { EffectClass } from '../tools/types.ts';
import { flagVariants } from './flag-variants.ts';
import { matchCommandPattern } from './pattern.ts';
import { HUMAN_ONLY_RULES } from './rules.ts';
import type { ResolvedPath } from './paths.ts';
import { globMatcher, sensitiveMatch } from './sensitive-paths.ts';
import { exfiltration, type PolicyTree, treeParts } from './tree-parts.ts';
import type { DecisionPart, FindingRuleId, PolicyAction, PolicyDecision, RuleId } from './types.ts';

export type { PolicyTree };

/** A path of a call, resolved, with its access and (for shell commands) the command that uses it. */
export type PolicyPath = ResolvedPath & { access: 'read' | 'write'; via?: string };

/** A finding of the shell analysis, decided already (see `shell-analysis.ts`). */
export interface PolicyFinding {
  subject: string;
  action: PolicyAction;
  rule: FindingRuleId;
  reason: string;
}

/** What the policy needs to know about one call. */
export interface PolicyInput {
  tool: string;
  effect: EffectClass;
  paths: PolicyPath[];
  /** Simple commands the call runs (one part each, normalised), for bash-like tools. */
  commands?: string[];
  /** Findings of the shell analysis (unparseable, dynamic program, exfiltration, …). */
  findings?: PolicyFinding[];
  /** The call reaches another host (a network command). */
  network?: boolean;
  /** Untrusted content entered the context before this call: the tools it came from. */
  taintedBy?: string[];
  /** The call changes only the harness's own state (todos, notes): decided like a read. */
  harnessState?: boolean;
  /** Folder trees the command walks recursively, with the files under them (`command-policy.ts`). */
  trees?: PolicyTree[];
  /**
   * Destructive equivalents among the commands (`git reset --hard`, `truncate`, `crontab -r`):
   * each is decided also as the `rm -rf …` it amounts to (`destructive.ts`), so a rule denying
   * `rm *` denies it, with the reason.
   */
  equivalents?: { command: string; as: string; reason: string }[];
  /** Why the call runs code the repository contains or configures (test runners, build tools, scripts). */
  repositoryCode?: string;
  /** Guards the harness runs programs of the call under, stated in the reason (`git`). */
  guards?: string[];
  /** Reasons show resolved paths under these folders by label (`$WS/…`); absent: absolute. */
  pathLabels?: readonly PathLabel[];
}

const STRICTNESS: Record<PolicyAction, number> = { allow: 0, ask: 1, deny: 2 };

/** The stricter of two actions. */
export function stricter(a: PolicyAction, b: PolicyAction): PolicyAction {
  return STRICTNESS[a] >= STRICTNESS[b] ? a : b;
}

const globMatch = (pattern: string, subject: string): boolean => globMatcher(pattern)(subject);

/** The action of the last bash rule matching `command`, or undefined when none matches. */
function lastMatch(
  rules: HarnessConfig['permissions']['bash'],
  command: string,
): { action: PolicyAction; pattern: string } | undefined {
  for (let i = rules.length - 1; i >= 0; i -= 1)
    if (matchCommandPattern(rules[i]!.pattern, command)) return rules[i]!;
  return undefined;
}

/**
 * Decides one simple command against the bash rules: last match wins, no match asks
 * (`bash:default`); a deny rule matching any other spelling of its flags denies (`flag-variants.ts`).
 * Verdicts are cached by command string per rule list.
 */
export function decideSimpleCommand(
  command: string,
  rules: HarnessConfig['permissions']['bash'],
): DecisionPart {
  let verdicts = verdictCache.get(rules);
  if (!verdicts) {
    verdicts = new Map();
    verdictCache.set(rules, verdicts);
  }
  const hit = verdicts.get(command);
  if (hit) return { ...hit };
  const part = decideUncached(command, rules);
  if (verdicts.size >= VERDICT_CACHE_SIZE) verdicts.delete(verdicts.keys().next().value!);
  verdicts.set(command, part);
  return { ...part };
}

/** Verdicts kept per rule list (a rule list is one configuration's `permissions.bash`). */
export const VERDICT_CACHE_SIZE = 10_000;
const verdictCache = new WeakMap<HarnessConfig['permissions']['bash'], Map<string, DecisionPart>>();

function decideUncached(command: string, rules: HarnessConfig['permissions']['bash']): DecisionPart {
  const match = lastMatch(rules, command);
  const part: DecisionPart = match
    ? { subject: command, kind: 'command', action: match.action, rule: `bash:${match.pattern}` }
    : { subject: command, kind: 'command', action: 'ask', rule: 'bash:default' };
  if (part.action === 'deny' || !rules.some((r) => r.action === 'deny')) return part;
  for (const variant of flagVariants(command)) {
    const other = lastMatch(rules, variant);
    if (other?.action === 'deny')
      return {
        subject: command,
        kind: 'command',
        action: 'deny',
        rule: `bash:${other.pattern}`,
        spelledAs: variant,
      };
  }
  return part;
}

function pathPart(p: PolicyPath, config: HarnessConfig): DecisionPart {
  if (p.error !== undefined)
    return partOf(
      p,
      p.absolute,
      'deny',
      'path:unresolvable',
      `the path could not be resolved (${p.error}), so where it leads cannot be checked`,
    );
  if (!p.inside) return partOf(p, p.absolute, 'deny', 'workspace:outside');
  if (p.links !== undefined && p.links > 1)
    return partOf(
      p,
      p.relative,
      p.access === 'write' ? 'deny' : 'ask',
      'path:hard-link',
      `${JSON.stringify(p.relative)} has ${p.links} hard links: a write changes every name, and another name may be outside the workspace${p.access === 'read' ? ' (a read of it may show an outside file)' : ''}`,
    );
  // The last matching rule wins.
  let matched: HarnessConfig['permissions']['paths'][number] | undefined;
  for (const rule of config.permissions.paths)
    if (rule.access === p.access && globMatch(rule.pattern, p.relative)) matched = rule;
  const action = matched ? matched.action : config.permissions.effects[p.access];
  if (action !== 'deny') {
    const sensitive = sensitiveMatch(p.relative, p.access, config.permissions.sensitivePaths);
    if (sensitive)
      return partOf(
        p,
        p.relative,
        'ask',
        `sensitive:${sensitive.pattern}`,
        `${JSON.stringify(p.relative)} is a sensitive path (git hooks, CI files, package-manager configuration and credentials need approval even inside the workspace)`,
      );
  }
  return partOf(
    p,
    p.relative,
    action,
    matched ? `paths:${matched.access}:${matched.pattern}` : EFFECT_RULE[p.access],
  );
}

/** The default rule of a path access, one string each (a decision of every call keeps its rule). */
const EFFECT_RULE = { read: 'effects:read', write: 'effects:write' } as const;

/** Reasons remembered at most; the table is emptied when full (the text is the same either way). */
const REASONS_KEPT = 4096;
const reasons = new Map<string, string>();

/**
 * One string per distinct reason text: a run that makes the same decision call after call (a
 * read loop) keeps one flat copy instead of a tree of concatenated pieces per decision, which
 * every event keeps for the rest of the run. Same text, so nothing downstream can tell.
 */
function internReason(text: string): string {
  const known = reasons.get(text);
  if (known !== undefined) return known;
  if (reasons.size >= REASONS_KEPT) reasons.clear();
  reasons.set(text, text);
  return text;
}

/**
 * A path's decision part, built once with its keys in one order (kind, access, requested,
 * resolved, via when set, subject, action, rule, reason when given): the decision's JSON.
 */
function partOf(
  p: PolicyPath,
  subject: string,
  action: PolicyAction,
  rule: RuleId,
  reason?: string,
): DecisionPart {
  const part: DecisionPart =
    p.via !== undefined
      ? {
          kind: 'path',
          access: p.access,
          requested: p.requested,
          resolved: p.absolute,
          via: p.via,
          subject,
          action,
          rule,
        }
      : {
          kind: 'path',
          access: p.access,
          requested: p.requested,
          resolved: p.absolute,
          subject,
          action,
          rule,
        };
  if (reason !== undefined) part.reason = reason;
  return part;
}

const verb = (action: PolicyAction) =>
  action === 'allow' ? 'allowed' : action === 'ask' ? 'subject to approval' : 'denied';

/** One sentence about a part, for reasons shown to the model and the approver. */
export function describePart(
  part: DecisionPart,
  input: Pick<PolicyInput, 'tool' | 'effect' | 'pathLabels'>,
): string {
  const resolved = showPath(part.resolved ?? part.subject, input.pathLabels ?? []);
  if (part.rule === 'workspace:outside')
    return `${JSON.stringify(part.requested ?? part.subject)} resolves outside the workspace (to ${resolved}); only paths inside it can be used`;
  if (part.rule === 'mode:plan')
    return `plan mode is read-only: ${input.tool} (${input.effect}) is not allowed`;
  if (part.kind === 'path') {
    const via = part.via !== undefined ? ` by ${JSON.stringify(part.via)}` : '';
    const what = `${part.access === 'read' ? 'read of' : 'write to'} ${JSON.stringify(part.requested ?? part.subject)}${via} (resolves to ${resolved})`;
    return part.reason
      ? `${what}: ${part.reason} (rule ${part.rule})`
      : `${what} is ${verb(part.action)} by rule ${part.rule}`;
  }
  if (part.kind === 'command') {
    if (part.reason) return `command ${JSON.stringify(part.subject)}: ${part.reason} (rule ${part.rule})`;
    const spelled = part.spelledAs !== undefined ? ` (spelled ${JSON.stringify(part.spelledAs)})` : '';
    return `command ${JSON.stringify(part.subject)}${spelled} is ${verb(part.action)} by rule ${part.rule}`;
  }
  if (part.kind === 'taint')
    return `${part.reason ?? 'untrusted content entered the context'} (rule ${part.rule})`;
  return `${part.kind} ${JSON.stringify(part.subject)} is ${verb(part.action)} by rule ${part.rule}`;
}

/** Decides one call. Pure: the same input and configuration always give the same decision. */
export function decide(input: PolicyInput, config: HarnessConfig): PolicyDecision {
  const { permissions } = config;
  const parts: DecisionPart[] = [];
  const commands = input.commands ?? [];
  const findings = input.findings ?? [];

  for (const f of findings)
    parts.push({ subject: f.subject, kind: 'command', action: f.action, rule: f.rule, reason: f.reason });
  for (const command of commands) parts.push(decideSimpleCommand(command, permissions.bash));
  for (const e of input.equivalents ?? []) {
    const as = decideSimpleCommand(e.as, permissions.bash);
    if (as.action !== 'allow')
      parts.push({
        subject: e.command,
        kind: 'command',
        action: as.action,
        rule: as.rule,
        reason: `${e.reason}, as ${JSON.stringify(e.as)} would: decided as that command`,
        spelledAs: e.as,
      });
  }
  for (const p of input.paths) parts.push(pathPart(p, config));
  for (const tree of input.trees ?? []) parts.push(...treeParts(tree, config.permissions.sensitivePaths));
  const secret = exfiltration(input, config.permissions.sensitivePaths);
  // First, so the reason names it (a hard deny like the analysis's own exfiltration finding).
  if (secret) parts.unshift(secret);

  // A write to a sensitive path plants code that runs later (a git hook, a CI workflow, a
  // package-manager configuration): after untrusted content it needs a human like a call that runs
  // repository code, so auto mode cannot approve an injected hook (AgentDojo-style suite, I3).
  let planted: DecisionPart | undefined;
  for (const p of parts)
    if (p.kind === 'path' && p.access === 'write' && p.rule.startsWith('sensitive:')) {
      planted = p;
      break;
    }
  const tainted =
    (input.taintedBy ?? []).length > 0 &&
    config.taint.enabled &&
    (input.effect === 'irreversible' ||
      input.network === true ||
      input.repositoryCode !== undefined ||
      planted !== undefined);
  if (tainted) {
    const sources = [...new Set(input.taintedBy)].join(', ');
    const kind = input.network
      ? 'network-reaching'
      : input.effect === 'irreversible'
        ? 'irreversible'
        : input.repositoryCode !== undefined
          ? `repository-code-running (${input.repositoryCode})`
          : `code-planting (a write to the sensitive path ${JSON.stringify(planted?.subject)})`;
    parts.push({
      subject: input.tool,
      kind: 'taint',
      action: config.taint.onTainted,
      rule: 'taint:untrusted-content',
      reason: `untrusted content (from ${sources}) entered the context, so ${kind} calls ${config.taint.onTainted === 'deny' ? 'are denied' : 'need a human approval'}`,
    });
  }

  const stateOnly = input.harnessState === true && input.effect === 'write';
  if (input.paths.length === 0 && commands.length === 0 && findings.length === 0)
    parts.push(
      stateOnly
        ? {
            subject: input.tool,
            kind: 'effect',
            action: permissions.effects.read,
            rule: 'effects:harness-state',
          }
        : {
            subject: input.tool,
            kind: 'effect',
            action: permissions.effects[input.effect],
            rule: `effects:${input.effect}`,
          },
    );
  else if (input.effect === 'irreversible')
    parts.push({
      subject: input.tool,
      kind: 'effect',
      action: permissions.effects.irreversible,
      rule: 'effects:irreversible',
    });

  if (permissions.mode === 'plan' && input.effect !== 'read' && !stateOnly)
    parts.push({ subject: input.tool, kind: 'effect', action: 'deny', rule: 'mode:plan' });

  let decisive = parts[0]!;
  let outside: DecisionPart | undefined;
  for (const part of parts) {
    if (STRICTNESS[part.action] > STRICTNESS[decisive.action]) decisive = part;
    if (outside === undefined && part.rule === 'workspace:outside') outside = part;
  }
  if (outside) decisive = outside;

  // Loops, not filter/map/some closures: this runs once per call.
  let others = '';
  for (const p of parts)
    if (p !== decisive && p.action !== 'allow')
      others += `${others === '' ? '; also: ' : '; '}${describePart(p, input)}`;
  const guards = (input.guards ?? []).length > 0 ? `; note: ${input.guards!.join('; ')}` : '';
  const reason = internReason(`${describePart(decisive, input)}${others}${guards}`);
  // The decision is kept for the run (its event): the parts at their length, not in the
  // 17-slot store the first push gave them (112 bytes less per decision of one part).
  const kept = parts.length === 1 ? [decisive] : parts.slice();
  // Keys in the order of the decision's JSON: action, rule, reason, errorType, parts, requiresHuman.
  const decision: PolicyDecision =
    decisive.action === 'deny'
      ? {
          action: decisive.action,
          rule: decisive.rule,
          reason,
          errorType: decisive.rule === 'workspace:outside' ? 'path_outside_workspace' : 'policy_violation',
          parts: kept,
        }
      : { action: decisive.action, rule: decisive.rule, reason, parts: kept };
  if (decisive.action === 'ask')
    for (const p of kept)
      if (p.action === 'ask' && (p.kind === 'taint' || HUMAN_ONLY_RULES.has(p.rule))) {
        decision.requiresHuman = true;
        break;
      }
  return decision;
}

/**
 * Combines the decisions of a policy chain (a subagent's own configuration and every
 * ancestor's): the strictest decision wins (a path outside the workspace first), and its parts
 * are joined with the other decisions' non-allowed parts, so a child never exceeds its parent.
 */
export function combineDecisions(decisions: readonly PolicyDecision[]): PolicyDecision {
  if (decisions.length === 1) return decisions[0]!;
  let winner = decisions[0]!;
  for (const d of decisions) {
    const outside = d.errorType === 'path_outside_workspace' && winner.errorType !== 'path_outside_workspace';
    if (outside || STRICTNESS[d.action] > STRICTNESS[winner.action]) winner = d;
  }
  const parts = [...winner.parts];
  for (const d of decisions)
    if (d !== winner)
      for (const p of d.parts)
        if (p.action !== 'allow' && !parts.some((q) => q.rule === p.rule && q.subject === p.subject))
          parts.push(p);
  const requiresHuman = winner.action === 'ask' && decisions.some((d) => d.requiresHuman);
  return { ...winner, parts, ...(requiresHuman ? { requiresHuman: true } : {}) };
}
