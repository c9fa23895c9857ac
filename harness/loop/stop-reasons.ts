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
] as const;

/** One of {@link STOP_REASONS}. */
export type StopReason = (typeof STOP_REASONS)[number];
