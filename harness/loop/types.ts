/**
 * The types at the edge of a run: what goes in (`RunOptions`), what comes out (`RunResult`), and
 * how a run sits in a tree of agents (`SubagentLink`). They live apart from `run.ts`, so the
 * context stage (`context/run-context.ts`) and the subagent engine (`subagent/spawn.ts`) can name
 * them without importing the loop (the module graph stays acyclic).
 */
import type { HarnessConfig } from '../config.ts';
import type { HarnessDeps } from '../deps.ts';
import type { HarnessEvent } from '../events.ts';
import type { Ledger } from '../ledger.ts';
import type { SkillCatalog } from '../memory/skills.ts';
import type { TodoStore } from '../memory/todos.ts';
import type { ChatMessage, Model, ModelRequest, ToolSchema } from '../model/types.ts';
import type { PolicyScope } from '../policy/child-policy.ts';
import type { MessageOrigin, TaintState } from '../policy/taint.ts';
import type { Sandbox } from '../sandbox/types.ts';
import type { SubagentPool } from '../subagent/pool.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { ToolDefinition } from '../tools/types.ts';
import type { StopReason } from './stop-reasons.ts';

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
  pool: SubagentPool;
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
}

/** Usage totals of one run. Tokens in tokens, cost in USD, time in ms (injected clock). */
export interface RunUsage {
  /** Model turns, wrap-up included. */
  modelCalls: number;
  turns: number;
  toolCalls: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** The largest prompt of a single request, in tokens. */
  maxPromptTokens: number;
  costUsd: number;
  wallMs: number;
}

/** What a run returns: exactly one stop reason, the transcript, every request sent and the ledger. */
export interface RunResult {
  runId: string;
  stopReason: StopReason;
  stopDetail?: string;
  finalAnswer: string | null;
  /** The conversation as stored (system, task, assistant turns, tool results, harness notes). */
  messages: ChatMessage[];
  /** The origin of each message of `messages`, index for index (system, user, harness note, model, tool; tools marked untrusted). */
  provenance?: MessageOrigin[];
  /** Untrusted tools whose content entered the context during the run (empty: the run stayed clean). */
  taintedBy?: string[];
  /** Every request sent to the model, in order, exactly as sent. */
  requests: ModelRequest[];
  events: HarnessEvent[];
  ledger: Ledger;
  usage: RunUsage;
}
