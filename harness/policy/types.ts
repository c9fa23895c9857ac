/**
 * Permission decisions, verdicts and approvals (`../shared/design/architecture.md` §4 step 5–6,
 * §5 "Verdicts"). The policy is a pure function of the call and the configuration; it never does
 * I/O beyond path resolution, and `ask` goes to the injected approver.
 */
import type { EffectClass } from '../tools/types.ts';

/** What the policy decides for one call. */
export type PolicyAction = 'allow' | 'ask' | 'deny';

/** The recorded permission outcome of one call. `none`: the call never reached policy. */
export type Verdict = 'allow' | 'ask:approved' | 'ask:denied' | 'deny' | 'none';

/** One part of a decision: a simple command or a path, with the rule that decided it. */
export interface DecisionPart {
  /** The normalised command or the resolved path (relative to the workspace when inside). */
  subject: string;
  kind: 'command' | 'path' | 'effect';
  action: PolicyAction;
  /** The rule that matched, e.g. `bash:rm *` or `paths:write:src/**`, or the default that applied. */
  rule: string;
}

/**
 * The policy's answer. `errorType` says which error a `deny` becomes
 * (`policy_violation` or `path_outside_workspace`).
 */
export interface PolicyDecision {
  action: PolicyAction;
  rule: string;
  reason: string;
  errorType?: 'policy_violation' | 'path_outside_workspace';
  parts: DecisionPart[];
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
  /** The command the call runs, for bash-like tools. */
  command?: string;
  decision: PolicyDecision;
}

/** An approver's answer. `approve_shape` approves and grants the same shape for the session. */
export type ApprovalAnswer = 'approve' | 'deny' | { approveShape: string };
