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

/** A text part of a message `content` list. */
export interface TextPart {
  type: 'text';
  text: string;
}

/**
 * An image part of a message `content` list: a URL or a `data:` URL, with the detail level
 * (https://platform.openai.com/docs/guides/images-vision, "Specify image input detail level").
 */
export interface ImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}

/**
 * One part of a message `content` list: text, image, or any other part a provider accepts
 * (`input_audio`, `file`, …), kept as it is. Parts may carry extra keys (`cache_control`).
 */
export type ContentPart = TextPart | ImagePart | { type: string; [key: string]: unknown };

/**
 * A message `content`: a string, or a list of parts, which the chat-completions API accepts in
 * system, user, assistant and tool messages alike (API reference, "messages").
 */
export type MessageContent = string | ContentPart[];

/** A system message. */
export interface SystemMessage {
  role: 'system';
  content: MessageContent;
}

/** A user message. */
export interface UserMessage {
  role: 'user';
  content: MessageContent;
}

/**
 * The reasoning a provider returned with a turn, which some providers require back in later
 * requests (see `model/reasoning.ts` for which field goes back when):
 * - `reasoning_content`: DeepSeek, vLLM, SGLang, Moonshot;
 * - `reasoning`: OpenRouter, Groq, Ollama;
 * - `reasoning_details`: OpenRouter's structured blocks (Anthropic and Gemini signatures),
 *   sent back verbatim.
 */
export interface ReasoningFields {
  reasoning_content?: string;
  reasoning?: string;
  reasoning_details?: unknown[];
}

/** An assistant message as stored in history and sent back to the model. */
export interface AssistantMessage extends ReasoningFields {
  role: 'assistant';
  content: MessageContent | null;
  tool_calls?: WireToolCall[];
  /** The model's refusal message (OpenAI `message.refusal`), kept as the API returned it. */
  refusal?: string;
}

/** One tool result, keyed by the call id it answers. */
export interface ToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: MessageContent;
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
  /** An OpenAI custom tool call (`type: "custom"`): its name and free-form input. */
  custom?: { name?: unknown; input?: unknown };
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
  /** The text of the turn (the text parts of a content list, joined). */
  content: string | null;
  /**
   * The content as the list of parts the provider returned, when it held more than text
   * (Mistral's `thinking` parts beside the `text` part): kept on the assistant message and sent
   * back as it came, while {@link ModelResponse.content} is its text.
   */
  contentParts?: ContentPart[];
  /**
   * The model's refusal (OpenAI `message.refusal`, streamed as `delta.refusal`): the model
   * declined the request, usually with `content: null`. The run stops with `content_filter`
   * (`loop/stop-reasons.ts`, `contentFilterStop`); a refusal is never a final answer.
   */
  refusal?: string;
  toolCalls: RawToolCall[];
  finishReason: string | null;
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
  /** The reasoning text of the turn, whichever field carried it. */
  reasoningContent?: string;
  /** The field that carried {@link ModelResponse.reasoningContent}; it goes back under the same name. */
  reasoningField?: 'reasoning_content' | 'reasoning';
  /** OpenRouter's `reasoning_details` blocks (with their signatures), in order, as received. */
  reasoningDetails?: unknown[];
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
