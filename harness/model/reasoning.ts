/**
 * Reasoning a provider requires back. Some providers return the model's reasoning beside the
 * answer and need it in later requests, each in its own field; the harness keeps it on the
 * assistant message under the field the provider used and sends it back as that provider
 * expects:
 * - `reasoning_content` (DeepSeek; also vLLM, SGLang, Moonshot): "for turns that do perform tool
 *   calls, the reasoning_content must be fully passed back to the API in all subsequent
 *   requests" (400 otherwise); for turns without tool calls it "is ignored" and the legacy
 *   `deepseek-reasoner` answered 400 to it (https://api-docs.deepseek.com/guides/thinking_mode,
 *   https://api-docs.deepseek.com/guides/reasoning_model). Sent back on tool-call turns only.
 * - `reasoning` (OpenRouter, Groq, Ollama): sent back as it came; gpt-oss models "forget why the
 *   tools were called" without it (openai/codex, chat-completions reasoning for gpt-oss). Groq
 *   rejects a `reasoning_content` field it did not send ("property 'reasoning_content' is
 *   unsupported", agentjido/req_llm#772), which is why the field name is never changed.
 * - `reasoning_details` (OpenRouter): the structured blocks with their `signature`s, sent back
 *   verbatim and in order so Anthropic and Gemini models can continue a tool-calling turn
 *   (https://openrouter.ai/docs/use-cases/reasoning-tokens, "Preserving reasoning blocks"). The
 *   plain `reasoning` text OpenRouter returns beside them is the same reasoning without the
 *   signatures and is not sent back with them (as pydantic-ai and RubyLLM do).
 */
import type { ChatMessage, ContentPart, ModelResponse, ReasoningFields } from './types.ts';

/**
 * The provider fields to store on the assistant message of `response`, beside its text: the
 * reasoning text under the field that carried it (`reasoning_content` when the response did not
 * say), `reasoning_details` as received, the content as the list of parts the provider sent
 * when it held more than text (`content`: Mistral returns its reasoning as `thinking` parts
 * there, so it goes back where it came; the caller spreads this after its own `content`), and a
 * refusal (`refusal`). `{}` when the turn had none of them.
 */
export function reasoningFields(
  response: ModelResponse,
): ReasoningFields & { content?: ContentPart[]; refusal?: string } {
  const out: ReasoningFields & { content?: ContentPart[]; refusal?: string } = {};
  if (response.contentParts && response.contentParts.length > 0)
    out.content = structuredClone(response.contentParts);
  if (response.refusal) out.refusal = response.refusal;
  if (response.reasoningContent)
    out[response.reasoningField ?? 'reasoning_content'] = response.reasoningContent;
  if (response.reasoningDetails && response.reasoningDetails.length > 0)
    out.reasoning_details = response.reasoningDetails.map((d) =>
      typeof d === 'object' && d !== null ? { ...d } : d,
    );
  return out;
}

/**
 * The messages as they go on the wire: an assistant message without tool calls loses its
 * `reasoning_content`, and one with `reasoning_details` loses the plain `reasoning` text the
 * blocks already hold (see the module comment); everything else is sent as it is. The input is
 * not mutated; messages that need no change are passed through unchanged.
 */
export function wireMessages(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.map((message) => {
    if (message.role !== 'assistant') return message;
    const dropContent = message.reasoning_content !== undefined && (message.tool_calls ?? []).length === 0;
    const dropText = message.reasoning !== undefined && (message.reasoning_details ?? []).length > 0;
    if (!dropContent && !dropText) return message;
    const { reasoning_content, reasoning, ...rest } = message;
    return {
      ...rest,
      ...(reasoning_content !== undefined && !dropContent ? { reasoning_content } : {}),
      ...(reasoning !== undefined && !dropText ? { reasoning } : {}),
    };
  });
}
