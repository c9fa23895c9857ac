/**
 * Subagents never exceed their parent: a child's configuration is the parent's intersected with
 * the child's restrictions, and its decisions are taken under the whole chain (the child's
 * configuration and every ancestor's), the strictest winning, at dispatch — so a rule the child's
 * own list misses is still enforced by the parent's (`docs/architecture.md` §8).
 */
import {
  mergeConfig,
  type BashRule,
  type HarnessConfig,
  type PathRule,
  type PermissionMode,
} from '../config.ts';
import type { EffectClass } from '../tools/types.ts';
import type { PolicyAction } from './types.ts';

/** What a parent may narrow for a child. Everything is optional; nothing here can widen. */
export interface ChildRestrictions {
  /** Tools the child may use (intersected with the parent's). @default no writes, no `task`, no `write_todos` */
  tools?: string[];
  mode?: PermissionMode;
  /** Extra bash rules for the child (evaluated in the child's configuration; the parent's still apply). */
  bash?: BashRule[];
  /** Extra path rules for the child. */
  paths?: PathRule[];
  effects?: Partial<Record<EffectClass, PolicyAction>>;
  maxTurns?: number;
  maxToolCalls?: number;
}

/** A policy scope: the configuration in force and the ancestors' configurations that still bind. */
export interface PolicyScope {
  config: HarnessConfig;
  /** Ancestors, nearest last; empty for the top-level run. */
  ancestors: HarnessConfig[];
  /** Tools the scope may use. */
  tools: string[];
}

const MODE_RANK: Record<PermissionMode, number> = { auto: 0, interactive: 1, headless: 2, plan: 3 };
const ACTION_RANK: Record<PolicyAction, number> = { allow: 0, ask: 1, deny: 2 };

/** Tools a child does not get unless the restrictions name them (architecture §8). */
export const CHILD_EXCLUDED_TOOLS: readonly string[] = [
  'write_file',
  'str_replace',
  'write_todos',
  'task',
  'save_note',
];

/** The stricter of two modes: `plan` > `headless` > `interactive` > `auto`. */
export function stricterMode(a: PermissionMode, b: PermissionMode): PermissionMode {
  return MODE_RANK[a] >= MODE_RANK[b] ? a : b;
}

/** The top-level scope of a run. */
export function rootScope(config: HarnessConfig, tools: readonly string[]): PolicyScope {
  return { config, ancestors: [], tools: [...tools] };
}

/**
 * The child's scope: tools are the intersection; mode, effects and `onDeny` the stricter of
 * parent and child; budgets the smaller; the child's extra rules are appended to the parent's
 * lists (last match wins inside the child's configuration), and the parent's configuration stays
 * in the chain, so the combined decision is never looser than the parent's.
 */
export function childScope(parent: PolicyScope, restrictions: ChildRestrictions = {}): PolicyScope {
  const p = parent.config;
  const wanted = restrictions.tools ?? parent.tools.filter((t) => !CHILD_EXCLUDED_TOOLS.includes(t));
  const tools = wanted.filter((t) => parent.tools.includes(t));
  const effects = { ...p.permissions.effects };
  for (const [effect, action] of Object.entries(restrictions.effects ?? {}) as [EffectClass, PolicyAction][])
    if (ACTION_RANK[action] > ACTION_RANK[effects[effect]]) effects[effect] = action;
  const config = mergeConfig(p, {
    tools,
    limits: {
      maxTurns: Math.min(
        p.limits.maxTurns,
        p.subagent.maxTurns,
        restrictions.maxTurns ?? Number.POSITIVE_INFINITY,
      ),
      maxToolCalls: Math.min(p.limits.maxToolCalls, restrictions.maxToolCalls ?? p.limits.maxToolCalls),
    },
    permissions: {
      mode: stricterMode(p.permissions.mode, restrictions.mode ?? p.permissions.mode),
      bash: [...p.permissions.bash, ...(restrictions.bash ?? [])],
      paths: [...p.permissions.paths, ...(restrictions.paths ?? [])],
      effects,
    },
  });
  return { config, ancestors: [...parent.ancestors, p], tools };
}

/** Every configuration that binds a scope: its own, then its ancestors'. */
export function policyChain(scope: PolicyScope): HarnessConfig[] {
  return [scope.config, ...scope.ancestors];
}
