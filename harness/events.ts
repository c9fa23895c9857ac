/**
 * The one event union the harness emits for every decision (`docs/architecture.md`
 * §5 "Events"). The decision ledger, reports, replays and recordings are built from these events
 * only. Every event carries `seq` (0-based order in the run) and `atMs` (injected clock, ms).
 */
import type { StopReason } from './loop/stop-reasons.ts';
import type { ErrorType } from './tools/types.ts';
import type { PolicyAction, PolicyDecision, Verdict } from './policy/types.ts';
import type { Usage } from './model/types.ts';

interface EventBase {
  seq: number;
  atMs: number;
  /**
   * Nesting path for subagents: `[]` for the top-level run (the one frozen {@link TOP_SCOPE}, so
   * an event costs no array of its own), `[callId]` for a child. Never mutated.
   */
  scope: readonly string[];
}

/** The `scope` of every top-level event: one frozen empty list shared by all of them. */
export const TOP_SCOPE: readonly string[] = Object.freeze([]);

/** The run begins. */
export interface RunStartEvent extends EventBase {
  type: 'run_start';
  runId: string;
  task: string;
  tools: string[];
  /**
   * The session the run records to, when sessions are on: `resumed` with how many messages were
   * restored, and the 1-based numbers of damaged lines skipped on load (copied to `quarantineFile`).
   */
  session?: {
    id: string;
    resumed: boolean;
    restoredMessages: number;
    skippedLines: number[];
    quarantineFile?: string;
  };
}

/** A model call is about to be made. `turn` is 1-based; `wrapUp` marks the reserved tool-less turn. */
export interface TurnStartEvent extends EventBase {
  type: 'turn_start';
  turn: number;
  wrapUp: boolean;
  /** Tokens of the request as the tokenizer counts it. */
  requestTokens: number;
  /** Set on a compaction's summarisation call (not a turn of the conversation). */
  compaction?: boolean;
}

/** A model call ended, with or without a turn. */
export interface ModelCallEndEvent extends EventBase {
  type: 'model_call_end';
  turn: number;
  ok: boolean;
  finishReason: string | null;
  toolCalls: number;
  usage: Usage;
  costUsd: number;
  /** Set when the assistant text looks like a tool call written as text (never executed). */
  textToolCall?: string;
  error?: { code: string; message: string };
  content: string | null;
}

/** A tool call enters the pipeline. `arguments` is what will be replayed to the model. */
export interface ToolCallStartEvent extends EventBase {
  type: 'tool_call_start';
  turn: number;
  callId: string;
  /** The id the model sent, when the harness replaced it (missing or repeated). */
  originalId?: string | null;
  tool: string;
  arguments: string;
  /** The raw arguments exactly as received, when they differ from `arguments`. */
  rawArguments?: unknown;
  /** What the assembly stage normalised, e.g. `object_to_string`, `empty_string_to_object`, `id_assigned`. */
  normalisations: string[];
}

/** The policy decided. */
export interface PolicyDecisionEvent extends EventBase {
  type: 'policy_decision';
  callId: string;
  tool: string;
  action: PolicyAction;
  decision: PolicyDecision;
}

/** An `ask` was answered. `by` names who answered. */
export interface ApprovalDecisionEvent extends EventBase {
  type: 'approval_decision';
  callId: string;
  approved: boolean;
  by: 'approver' | 'headless' | 'auto' | 'grant' | 'none';
  grant?: string;
}

/** A tool call has its result. `executed`: it passed policy and approval and was handed to the tool. */
export interface ToolCallEndEvent extends EventBase {
  type: 'tool_call_end';
  callId: string;
  tool: string;
  ok: boolean;
  errorType?: ErrorType;
  retryable?: boolean;
  executed: boolean;
  verdict: Verdict;
  /** The text the model sees. */
  content: string;
  durationMs: number;
}

/** The loop detector answered a call with `repeated_call` instead of running it. */
export interface LoopWarningEvent extends EventBase {
  type: 'loop_warning';
  callId: string;
  tool: string;
  count: number;
  stop: boolean;
}

/** Context was compacted or trimmed. Sizes in tokens. */
export interface CompactionEvent extends EventBase {
  type: 'compaction';
  /** `cap`, `spill` (one tool output), `stub`, `drop`, `summary` (history), `repair` (transcript). */
  layer: string;
  beforeTokens: number;
  afterTokens: number;
  detail: string;
  /** `auto`: a threshold was crossed; `overflow`: the request would not fit the window otherwise. */
  trigger?: 'auto' | 'overflow';
  /** The tool call whose output was cut (cap, spill). */
  callId?: string;
  /** The spill file, relative to the workspace. */
  artifact?: string;
  /** Facts the harness kept unconditionally (summary, drop): task, todos, files, decisions, open threads. */
  pinned?: string[];
}

/** A subagent starts (its events carry `scope` ending with `callId`). */
export interface SubagentStartEvent extends EventBase {
  type: 'subagent_start';
  callId: string;
  depth: number;
  description: string;
}

/** A subagent ended. */
export interface SubagentEndEvent extends EventBase {
  type: 'subagent_end';
  callId: string;
  stopReason: StopReason;
}

/** A budget ran out. `used` and `limit` are in the budget's unit (turns, calls, tokens, USD, ms). */
export interface BudgetExhaustedEvent extends EventBase {
  type: 'budget_exhausted';
  budget: 'turns' | 'toolCalls' | 'tokens' | 'costUsd' | 'wallMs' | 'truncations';
  used: number;
  limit: number;
}

/** The run ended with exactly one stop reason. */
export interface RunEndEvent extends EventBase {
  type: 'run_end';
  stopReason: StopReason;
  detail?: string;
  turns: number;
  toolCalls: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  finalAnswer: string | null;
}

/** The union of every harness event. */
export type HarnessEvent =
  | RunStartEvent
  | TurnStartEvent
  | ModelCallEndEvent
  | ToolCallStartEvent
  | PolicyDecisionEvent
  | ApprovalDecisionEvent
  | ToolCallEndEvent
  | LoopWarningEvent
  | CompactionEvent
  | SubagentStartEvent
  | SubagentEndEvent
  | BudgetExhaustedEvent
  | RunEndEvent;

/** The `type` of any event. */
export type HarnessEventType = HarnessEvent['type'];

/** Every event type, in the documented order. */
export const EVENT_TYPES: readonly HarnessEventType[] = [
  'run_start',
  'turn_start',
  'model_call_end',
  'tool_call_start',
  'policy_decision',
  'approval_decision',
  'tool_call_end',
  'loop_warning',
  'compaction',
  'subagent_start',
  'subagent_end',
  'budget_exhausted',
  'run_end',
];

/**
 * An event before `seq`, `atMs` and `scope` are stamped on it (by the run's `emit`, which adds
 * them after the event's own keys).
 */
export type UnstampedEvent = HarnessEvent extends infer E
  ? E extends HarnessEvent
    ? Omit<E, 'seq' | 'atMs' | 'scope'>
    : never
  : never;
