/**
 * The types of a run the layers below the loop name: what goes in (`RunOptions`), the run as a
 * value (`RunState`, written by `loop/run.ts` and `loop/step.ts`), and how a run sits in a tree
 * of agents (`SubagentLink`). What comes out (`RunResult`) is in `ledger.ts`. They live in the
 * state layer, apart from the loop, so the context stage (`context/context-stage.ts`, opened by `context/run-context.ts`) and the
 * subagent engine (`subagent/spawn.ts`) name them without importing the loop (the module graph
 * stays acyclic; `docs/architecture.md` §2).
 */
import type { HarnessConfig } from './config.ts';
import type { HarnessDeps } from './deps.ts';
import type { HarnessEvent } from './events.ts';
import type { SkillCatalog } from './memory/skills.ts';
import type { TodoStore } from './memory/todos.ts';
import type { ChatMessage, Model, ModelRequest, ToolSchema } from './model/types.ts';
import type { PolicyScope } from './policy/child-policy.ts';
import type { TaintState } from './policy/taint.ts';
import type { Sandbox } from './sandbox/types.ts';
import type { ToolRegistry } from './tools/registry.ts';
import type { ToolDefinition } from './tools/types.ts';
import type { StopReason } from './loop/stop-reasons.ts';

/** The concurrency gate of a run's children (`subagent/pool.ts`'s `SubagentPool`). */
export interface SubagentGate {
  /** Waits for a free slot. */
  acquire(): Promise<void>;
  /** Frees a slot. */
  release(): void;
}

/** Subagents started under one top-level run, against `subagent.maxTotal`; shared by the whole tree. */
export interface SpawnCount {
  spawned: number;
  maxTotal: number;
}

/**
 * How a run sits in the tree of agents: its depth (0 for the top level), the gate of its own
 * children, the tree's spawn count and its policy scope.
 */
export interface SubagentLink {
  depth: number;
  pool: SubagentGate;
  count: SpawnCount;
  policy: PolicyScope;
}

/** Memory options of a run (`RunOptions.memory`). */
export interface RunMemoryOptions {
  /** Home folder whose `.agents/skills/` holds the user's skills. Absent: project skills only (tests stay independent of the machine). */
  userHome?: string;
  /** A todo list shared by the runs of one conversation (a chat). Default: fresh, or the resumed session's. */
  todos?: TodoStore;
  /** A skill catalog to use instead of discovering one (subagents share their parent's). */
  skills?: SkillCatalog;
  /** Set by the `task` tool for a subagent's run: its depth, the shared pool and its policy scope. */
  subagent?: SubagentLink;
}

/** Inputs of one run. */
export interface RunOptions {
  /** The user's task; ignored when `initialMessages` is given. */
  task: string;
  config: HarnessConfig;
  model: Model;
  /** The enabled tools (built-ins already chosen, plus scenario or recorded tools). */
  tools: readonly ToolDefinition[] | ToolRegistry;
  sandbox: Sandbox;
  /** Absolute real path of the workspace root. */
  workspace: string;
  deps: HarnessDeps;
  /** The first messages as they are (replay of a foreign recording); default: system prompt + task. */
  initialMessages?: ChatMessage[];
  /**
   * The tool schemas declared to the model, when they must differ from the registry's (a replay
   * sends the recorded schemas exactly as recorded). Validation still uses the registry.
   */
  toolSchemas?: ToolSchema[];
  /** Extra request body fields, merged over `config.model.settings`. */
  settings?: Record<string, unknown>;
  signal?: AbortSignal;
  /**
   * Shapes approved for the session (`approve this shape` answers), shared across runs that
   * continue one conversation (a chat: one run per user line). Mutated: new grants are added.
   * @default a fresh list per run
   */
  grants?: string[];
  /**
   * The taint of the conversation (untrusted tools whose content entered it), shared like
   * `grants`; a subagent starts with its parent's. Mutated. @default a fresh, clean state
   */
  taint?: TaintState;
  /** Configurations of the ancestors that still bind (a subagent's run): decisions take the strictest. */
  ancestors?: HarnessConfig[];
  /** SQLite file of the notes (`save_note`, `search_notes`); absent: those tools answer that notes are unavailable. */
  notesPath?: string;
  /** Tools this run may call (a subagent's scope); calls to others are denied at dispatch. @default every registered tool */
  allowedTools?: readonly string[];
  /** Skills home, a shared todo list, and (set by `task`) a subagent's link to its parent; see `context/run-context.ts`. */
  memory?: RunMemoryOptions;
  /**
   * Messages the driver adds to the conversation before the next model turn, given the history
   * so far (a person typing while the harness works; a replay giving the harness the user
   * messages its recorded client sent between turns). Called before every turn; `[]` adds none.
   */
  interject?: (messages: readonly ChatMessage[]) => ChatMessage[];
}

/** Running totals of a run (subagents' usage added when they end). Tokens, USD. */
export interface RunTotals {
  /** Turns of the conversation (wrap-up and compaction summaries excluded). */
  turns: number;
  /** Every model call: turns, the wrap-up turn and compaction summaries. */
  modelCalls: number;
  /** Tool calls requested, across every scope sharing the budget (the dispatcher counts them). */
  toolCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** The largest prompt of a single request. */
  maxPromptTokens: number;
  costUsd: number;
}

/** Why the run ends; exactly one per run. */
export interface RunStop {
  reason: StopReason;
  detail?: string;
}

/** The state of one run (one scope: a subagent has its own). */
export interface RunState {
  readonly runId: string;
  readonly config: HarnessConfig;
  /** Injected clock at the start, ms since the epoch. */
  readonly startedMs: number;
  /** The working history (the conversation as stored); appended to, rewritten only by the context stage. */
  readonly messages: ChatMessage[];
  /** Every request sent, in order, exactly as sent. */
  readonly requests: ModelRequest[];
  /** Every event of the run and its subagents, in order (`seq`). Appended to, never copied. */
  readonly events: HarnessEvent[];
  readonly totals: RunTotals;
  /** Untrusted tools whose content entered the context (shared with subagents and a chat's runs). */
  readonly taint: TaintState;
  /** Shapes approved for the session. */
  readonly grants: string[];
  /** Call ids used in the conversation (a repeated id gets a fresh one). */
  readonly usedIds: Set<string>;
  /** Replies in a row cut off by the output token limit. */
  truncatedInRow: number;
  /** Replies in a row that wrote a tool call as text (corrected once). */
  textCallsInRow: number;
  finalAnswer: string | null;
  /** Set once, by `applyStep`; the loop ends when it is set. */
  stop: RunStop | undefined;
}
