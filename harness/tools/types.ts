/**
 * Tool definitions, the tool-result envelope and the fixed error vocabulary
 * (`docs/architecture.md` §4 and §5).
 */
import type { SkillReader, TodoList } from '../memory/types.ts';
import type { Sandbox } from '../sandbox/types.ts';
import type { Determinism } from '../types.ts';

/** What a tool can do to the world; approval follows the class, not the tool's name. */
export type EffectClass = 'read' | 'write' | 'irreversible';

/** The fixed error types of tool results. */
export const ERROR_TYPES = [
  'invalid_json',
  'invalid_arguments',
  'unknown_tool',
  'truncated_call',
  'policy_violation',
  'path_outside_workspace',
  'approval_denied',
  'sandbox_unavailable',
  'timeout',
  'tool_failed',
  'write_conflict',
  'repeated_call',
  'subagent_depth_exceeded',
  'interrupted',
  'not_executed',
] as const;

/** One of {@link ERROR_TYPES}. */
export type ErrorType = (typeof ERROR_TYPES)[number];

/** Error types the model can fix by changing its call; the others are not worth retrying as they are. */
export const RETRYABLE_ERROR_TYPES: ReadonlySet<ErrorType> = new Set<ErrorType>([
  'invalid_json',
  'invalid_arguments',
  'unknown_tool',
  'truncated_call',
  'timeout',
]);

/**
 * The one envelope of every tool result:
 * `{ ok: true, tool, data } | { ok: false, tool, error_type, retryable, message }`.
 */
export type ToolResult =
  | { ok: true; tool: string; data: string }
  | { ok: false; tool: string; error_type: ErrorType; retryable: boolean; message: string };

/** A file the call will touch, for the path policy. `path` is as the model wrote it. */
export interface PathAccess {
  path: string;
  access: 'read' | 'write';
}

/** What a tool's `execute` returns: text for the model, optional details for reports. */
export type ToolOutput =
  | {
      ok: true;
      content: string;
      details?: Record<string, unknown>;
      /**
       * The whole output when `content` is a shaped excerpt of it (a command's head and tail): the
       * harness keeps it in a spill file the model can page through with `read_file`.
       */
      fullText?: string;
      /**
       * The content came from files this run did not write (`read_file:README.md`, `bash`): the
       * harness counts it as untrusted when `taint.untrustedFiles` is on (`policy/taint.ts`).
       */
      untrusted?: string;
    }
  | { ok: false; errorType: ErrorType; message: string; details?: Record<string, unknown> };

/** What `execute` receives beside its validated arguments. */
export interface ToolContext {
  /** The call id (after the harness made it unique). */
  callId: string;
  sandbox: Sandbox;
  /** The run's clock and ids (a tool never sees the hooks). */
  deps: Determinism;
  signal: AbortSignal;
  /** Absolute real path of the workspace root. */
  workspace: string;
  /** Resolved absolute paths of {@link ToolDefinition.paths}, in the same order. */
  resolvedPaths: string[];
  /** SQLite file of the notes (`save_note`, `search_notes`), from the run; absent: notes are unavailable. */
  notesPath?: string;
  /**
   * The run's todo list, skills and subagent spawner (`read_skill`, `write_todos`, `task`); absent outside a
   * harness run.
   */
  services?: RunServices;
}

/**
 * What the run offers the memory tools (`read_skill`, `write_todos`, `task`) through
 * {@link ToolContext.services}: the run's todo list, its skill catalog and the subagent spawner
 * (one set per scope: a subagent has its own). A tool used outside a harness run gets no
 * services and answers with a `tool_failed` result.
 */
export interface RunServices {
  todos: TodoList;
  skills: SkillReader;
  /**
   * Runs a subagent for a `task` call and resolves with the tool output (the report, or a
   * structured error such as `subagent_depth_exceeded`). Never rejects.
   */
  spawnSubagent(description: string, call: { callId: string; signal: AbortSignal }): Promise<ToolOutput>;
}

/**
 * A tool: a definition plus `execute`. The registry validates arguments with the compiled
 * schema before `execute` runs, so `execute` may trust `args` to match `parameters`.
 *
 * Contract: `execute` never throws for expected failures; it returns `{ ok: false }`. A throw is
 * caught by the dispatcher and becomes `tool_failed`.
 */
export interface ToolDefinition<Args = Record<string, unknown>> {
  name: string;
  description: string;
  /** JSON Schema (draft-07 subset that ajv compiles) of the arguments object. */
  parameters: Record<string, unknown>;
  effect: EffectClass;
  /** Files this call touches, for the path policy; absent for tools without paths. */
  paths?: (args: Args) => PathAccess[];
  /** A bash-style command the call runs, for command rules; absent for other tools. */
  command?: (args: Args) => string;
  /**
   * Content from this tool is untrusted (a web page, an issue text, an e-mail): taint
   * tracking reacts to it.
   */
  untrusted?: boolean;
  /**
   * Runs alone even when its class is `read`: the dispatcher never overlaps it with other calls
   * (a subagent, whose model calls must keep the order of a scripted or recorded model).
   */
  runsAlone?: boolean;
  /**
   * A `write` that changes only the harness's own state (the todo list, notes), never the
   * workspace or the world: the policy treats it like a read, and plan mode allows it.
   */
  harnessState?: boolean;
  execute(args: Args, context: ToolContext): Promise<ToolOutput>;
}

/** Builds the envelope for a failure. `retryable` is derived from the error type. */
export function failure(tool: string, errorType: ErrorType, message: string): ToolResult {
  return { ok: false, tool, error_type: errorType, retryable: RETRYABLE_ERROR_TYPES.has(errorType), message };
}

/**
 * The text the model sees for a result: the data itself on success, and
 * `{"error":{"type","retryable","message"}}` on failure.
 */
export function resultToModelText(result: ToolResult): string {
  if (result.ok) return result.data;
  return JSON.stringify({
    error: { type: result.error_type, retryable: result.retryable, message: result.message },
  });
}

const ERROR_TYPE_SET: ReadonlySet<string> = new Set(ERROR_TYPES);

/**
 * The inverse of {@link resultToModelText}: the result a model-visible text encodes. A text is a
 * failure only when it is exactly what `resultToModelText` writes for one (the three keys in that
 * order, a known error type, no extra spaces); any other text, JSON or not, is the data of a
 * success. So `resultToModelText(decodeToolResult(text, tool)) === text` for every text, and
 * `decodeToolResult(resultToModelText(r), r.tool)` equals `r` for every failure and every success
 * whose data is not itself an encoded failure (such data reads as a failure to the model too).
 * `tool` is not in the text and is passed through. Never throws.
 */
export function decodeToolResult(text: string, tool: string): ToolResult {
  const data: ToolResult = { ok: true, tool, data: text };
  if (!text.startsWith('{"error":{')) return data;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return data;
  }
  const error = (parsed as { error?: Record<string, unknown> }).error;
  if (
    typeof error !== 'object' ||
    error === null ||
    typeof error.type !== 'string' ||
    !ERROR_TYPE_SET.has(error.type) ||
    typeof error.retryable !== 'boolean' ||
    typeof error.message !== 'string'
  )
    return data;
  const decoded: ToolResult = {
    ok: false,
    tool,
    error_type: error.type as ErrorType,
    retryable: error.retryable,
    message: error.message,
  };
  return resultToModelText(decoded) === text ? decoded : data;
}

/**
 * The message of an encoded failure, or the text itself for a success: what a report or a pin
 * quotes of a tool result. Uses {@link decodeToolResult}.
 */
export function resultMessage(text: string): string {
  const decoded = decodeToolResult(text, '');
  return decoded.ok ? decoded.data : decoded.message;
}
