/**
 * Permission decisions, verdicts and approvals (`docs/architecture.md` §4 step 5–6,
 * §5 "Verdicts"). The policy is a pure function of the call and the configuration; it never does
 * I/O beyond path resolution, and `ask` goes to the injected approver.
 */
import type { EffectClass } from '../tools/types.ts';
import type { RuleId } from './rules.ts';

export type { FindingRuleId, RuleId } from './rules.ts';

/** What the policy decides for one call. */
export type PolicyAction = 'allow' | 'ask' | 'deny';

/** The recorded permission outcome of one call. `none`: the call never reached policy. */
export type Verdict = 'allow' | 'ask:approved' | 'ask:denied' | 'deny' | 'none';

/**
 * One part of a decision: a simple command, a path, the call's effect class, or its taint, with
 * the rule that decided it. Findings of the shell analysis (`analysis:unparseable`,
 * `program:dynamic`, `exfil:secret-to-network`, …) are command parts with their own rule.
 */
export interface DecisionPart {
  /** The normalised command or the resolved path (relative to the workspace when inside). */
  subject: string;
  kind: 'command' | 'path' | 'effect' | 'taint';
  action: PolicyAction;
  /** The rule that matched, e.g. `bash:rm *` or `paths:write:src/**`, or the default that applied (`rules.ts`). */
  rule: RuleId;
  /** Why, when the rule name alone does not say it (analysis findings, taint). */
  reason?: string;
  /** Paths: the access, the path as requested and its resolved absolute location. */
  access?: 'read' | 'write';
  requested?: string;
  resolved?: string;
  /** Paths: the simple command or statement that reads or writes it (bash redirections and file arguments). */
  via?: string;
  /** Commands: the other spelling that matched a deny rule (`rm -rf dist` for `rm -fr dist`). */
  spelledAs?: string;
}

/**
 * The policy's answer. `errorType` says which error a `deny` becomes
 * (`policy_violation` or `path_outside_workspace`).
 */
export interface PolicyDecision {
  action: PolicyAction;
  /** The decisive part's rule (`rules.ts`). */
  rule: RuleId;
  reason: string;
  errorType?: 'policy_violation' | 'path_outside_workspace';
  parts: DecisionPart[];
  /**
   * Set on an `ask` that only a human may answer: `auto` mode does not approve it and session
   * grants do not cover it (an irreversible or network call after untrusted content, a command
   * bash reads differently from the checker, run-time re-evaluation: `rules.ts` HUMAN_ONLY_RULES).
   */
  requiresHuman?: boolean;
}

/**
 * What the approver sees: the fully resolved call. Paths are absolute and resolved, commands are
 * listed part by part, control and invisible characters are escaped, nothing is truncated.
 */
export interface ApprovalRequest {
  callId: string;
  tool: string;
  effect: EffectClass;
  /** The validated arguments, as JSON text with control characters escaped. */
  argumentsText: string;
  /** Resolved absolute paths the call touches. */
  paths: { path: string; access: 'read' | 'write' }[];
  /** The command the call runs, for bash-like tools (control and invisible characters escaped). */
  command?: string;
  /** Every simple command the command runs, after unwrapping and normalisation, escaped likewise. */
  commands?: string[];
  /**
   * The shape a session grant would cover (`npm test*`, `src/**`), when every part that asks fits
   * one; answer `{ approveShape }` with it (or a narrower one) to stop being asked for it.
   */
  shape?: string;
  /** The decision, escaped for display (rule ids become display text). */
  decision: ShownDecision;
}

/** A decision as the approver is shown it: every string escaped, rule ids as display text. */
export type ShownDecision = Omit<PolicyDecision, 'rule' | 'parts'> & {
  rule: string;
  parts: (Omit<DecisionPart, 'rule'> & { rule: string })[];
};

/** An approver's answer. `approve_shape` approves and grants the same shape for the session. */
export type ApprovalAnswer = 'approve' | 'deny' | { approveShape: string };
