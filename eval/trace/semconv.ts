/**
 * The OpenTelemetry GenAI semantic conventions the traces follow, copied here as the
 * `@opentelemetry/semantic-conventions` README asks of instrumentations for attributes that are
 * still in development ("copy relevant definitions into their own code base" rather than import
 * the `incubating` entry point, which may break in a minor release). Source: open-telemetry/
 * semantic-conventions, `docs/gen-ai/gen-ai-spans.md` (inference span, execute tool span) and
 * `docs/gen-ai/gen-ai-agent-spans.md` (invoke agent internal span), v1.41 — the last release
 * before the GenAI conventions moved to open-telemetry/semantic-conventions-genai; the values equal
 * those of `@opentelemetry/semantic-conventions/incubating` 1.45 (a test checks). Our own
 * attributes carry the `harness_bench.` prefix ({@link HB}).
 */

/** `gen_ai.*` attribute keys (all "Development" stability). */
export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  agentName: 'gen_ai.agent.name',
  agentDescription: 'gen_ai.agent.description',
  conversationId: 'gen_ai.conversation.id',
} as const;

/** Well-known values of `gen_ai.operation.name` used here. */
export const OPERATION = {
  chat: 'chat',
  executeTool: 'execute_tool',
  invokeAgent: 'invoke_agent',
} as const;

/** `error.type` (stable): the class of error an operation ended with. */
export const ERROR_TYPE = 'error.type';

/** Our own attributes and span events, under the `harness_bench.` prefix. */
export const HB = {
  runId: 'harness_bench.run.id',
  tools: 'harness_bench.tools',
  stopReason: 'harness_bench.stop_reason',
  stopDetail: 'harness_bench.stop_detail',
  turns: 'harness_bench.turns',
  toolCalls: 'harness_bench.tool_calls',
  costUsd: 'harness_bench.cost_usd',
  sessionResumed: 'harness_bench.session.resumed',
  turn: 'harness_bench.turn',
  wrapUp: 'harness_bench.wrap_up',
  compaction: 'harness_bench.compaction',
  requestTokens: 'harness_bench.request_tokens',
  usageSource: 'harness_bench.usage.source',
  textToolCall: 'harness_bench.text_tool_call',
  sent: 'harness_bench.sent',
  unfinished: 'harness_bench.unfinished',
  originalCallId: 'harness_bench.original_call_id',
  normalisations: 'harness_bench.normalisations',
  verdict: 'harness_bench.verdict',
  executed: 'harness_bench.executed',
  ok: 'harness_bench.ok',
  errorType: 'harness_bench.error_type',
  retryable: 'harness_bench.retryable',
  policyAction: 'harness_bench.policy.action',
  policyRule: 'harness_bench.policy.rule',
  policyReason: 'harness_bench.policy.reason',
  policyRules: 'harness_bench.policy.rules',
  policySubjects: 'harness_bench.policy.subjects',
  policyErrorType: 'harness_bench.policy.error_type',
  policyRequiresHuman: 'harness_bench.policy.requires_human',
  approvalApproved: 'harness_bench.approval.approved',
  approvalBy: 'harness_bench.approval.by',
  approvalGrant: 'harness_bench.approval.grant',
  subagentDepth: 'harness_bench.subagent.depth',
  caseId: 'harness_bench.case.id',
  caseKind: 'harness_bench.case.kind',
  caseStatus: 'harness_bench.case.status',
  caseFile: 'harness_bench.case.file',
  config: 'harness_bench.config',
  /** Span events. */
  loopWarningEvent: 'harness_bench.loop_warning',
  compactionEvent: 'harness_bench.compaction',
  budgetEvent: 'harness_bench.budget_exhausted',
} as const;
