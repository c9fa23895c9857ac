/** The fixed stop reasons (`docs/architecture.md` §5): exactly one per run. */
export const STOP_REASONS = [
  'final_answer',
  'max_turns',
  'tool_budget_exceeded',
  'token_budget_exceeded',
  'cost_budget_exceeded',
  'time_budget_exceeded',
  'repeated_tool_call',
  'policy_violation',
  'human_cancelled',
  'model_error',
  'context_overflow',
  'output_truncated',
  'content_filter',
] as const;

/** One of {@link STOP_REASONS}. */
export type StopReason = (typeof STOP_REASONS)[number];

/**
 * The stop for a turn the provider's content filter ended (`finish_reason: "content_filter"`,
 * with or without text, with or without partial tool calls, or Azure's filtered prompt, which
 * `model/provider-errors.ts` turns into such a turn): `content_filter`, never a final answer, and
 * its tool calls are not run. OpenAI: "content_filter if content was omitted due to a flag from
 * our content filters" (https://platform.openai.com/docs/api-reference/chat/object); Azure
 * (https://learn.microsoft.com/azure/ai-services/openai/concepts/content-filter). `undefined`
 * for any other turn.
 */
export function contentFilterStop(turn: {
  finishReason: string | null;
  content: string | null;
  toolCalls: readonly unknown[];
}): { reason: 'content_filter'; detail: string } | undefined {
  if (turn.finishReason !== 'content_filter') return undefined;
  const kept = turn.content ? `; ${turn.content.length} characters of text kept in the transcript` : '';
  const calls =
    turn.toolCalls.length > 0
      ? `; ${turn.toolCalls.length} tool call${turn.toolCalls.length === 1 ? '' : 's'} not run`
      : '';
  return {
    reason: 'content_filter',
    detail: `the provider's content filter stopped the turn (finish_reason content_filter)${kept}${calls}`,
  };
}
