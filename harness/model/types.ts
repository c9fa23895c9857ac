/**
 * Chat-completions shapes and the one `Model` interface every source of model turns implements
 * (live OpenAI-compatible client, scripted model, replay model).
 *
 * The shapes are plain and serialisable so requests can be recorded, diffed and replayed.
 * They follow the OpenAI chat-completions wire format
 * (https://platform.openai.com/docs/api-reference/chat/create).
 */
import { HarnessBenchError, type Fault } from '../errors.ts';

/** A tool call as it goes back to the model: `arguments` is always a string holding a JSON object (TI-4). */
export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A system message. */
export interface SystemMessage {
  role: 'system';
  content: string;
}

/** A user message. */
export interface UserMessage {
  role: 'user';
  content: string;
}

/** An assistant message as stored in history and sent back to the model. */
export interface AssistantMessage {
  role: 'assistant';
  content: string | null;
  tool_calls?: WireToolCall[];
}

/** One tool result, keyed by the call id it answers. */
export interface ToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** Any message of the conversation. */
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** A tool schema as declared to the model. `parameters` is a JSON Schema object. */
export interface ToolSchema {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown>; strict?: boolean };
}

/**
 * One chat-completions request. `settings` holds every other body field (temperature,
 * tool_choice, max_tokens, stream_options, …) and is spread into the wire body as it is.
 */
export interface ModelRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ToolSchema[];
  tool_choice?: unknown;
  stream?: boolean;
  settings?: Record<string, unknown>;
}

/**
 * A tool call as the model produced it, before the harness normalises it. Every field may be
 * missing or of the wrong type: model mistakes are data, so nothing here is trusted.
 */
export interface RawToolCall {
  id?: unknown;
  type?: unknown;
  function?: { name?: unknown; arguments?: unknown };
  /** Position in a streamed response (assembly key), when the call came from deltas. */
  index?: number;
}

/** Token usage of one model call, in tokens. `source` says whether the provider reported it. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  source: 'reported' | 'estimated';
}

/**
 * One model turn. `finishReason` keeps the provider's raw value (`stop`, `tool_calls`,
 * `length`, `content_filter`, or anything a compatible server sends); `null` when absent.
 */
export interface ModelResponse {
  content: string | null;
  toolCalls: RawToolCall[];
  finishReason: string | null;
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
  reasoningContent?: string;
  /** The model that served the turn, when the response names it. */
  modelServed?: string;
}

/**
 * The one interface every model implements.
 *
 * Contract: resolves with one whole turn (streams are assembled by index before returning);
 * rejects with a {@link ModelError} when no turn can be produced; honours `signal` by
 * rejecting with a `ModelError` of code `aborted`.
 */
export interface Model {
  /** A short name for reports (`scripted`, `replay`, `openai:gpt-4o-mini`). */
  readonly name: string;
  generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse>;
}

/** Why a model call failed. */
export type ModelErrorCode =
  | 'http_error'
  | 'network_error'
  | 'script_exhausted'
  | 'recording_exhausted'
  | 'recording_mismatch'
  | 'invalid_response'
  | 'aborted';

/**
 * Whose fault a failed model call is: the network, a rate limit, a 5xx or a cancel come from the
 * `environment`; a rejected key, model or URL (401, 403, 404) is the `user_input`; any other
 * status (400 `tool_use_failed`, 422) and an unusable, exhausted or unmatched response are the
 * `model`'s behaviour (a script or a cassette has no answer for this request).
 */
export function modelErrorFault(code: ModelErrorCode, status?: number): Fault {
  if (code === 'network_error' || code === 'aborted') return 'environment';
  if (code !== 'http_error' || status === undefined) return 'model';
  if (status === 401 || status === 403 || status === 404) return 'user_input';
  return status === 408 || status === 429 || status >= 500 ? 'environment' : 'model';
}

/**
 * A model call that produced no turn. `retryable` is true for transient provider failures
 * (429, 5xx, connection resets); the loop ends the run with `model_error` when it is thrown.
 * `fault` follows {@link modelErrorFault}; `toJSON()` gives `{code, fault, message, data}`.
 */
export class ModelError extends HarnessBenchError {
  override readonly name = 'ModelError';
  constructor(
    override readonly code: ModelErrorCode,
    message: string,
    override readonly data: { status?: number; body?: unknown; retryAfterMs?: number } = {},
    readonly retryable = false,
  ) {
    super(code, modelErrorFault(code, data.status), message, data);
  }
}
