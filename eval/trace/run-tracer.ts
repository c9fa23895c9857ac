/**
 * One OpenTelemetry trace per harness run, built from the run's event stream only
 * (`harness/events.ts`) by a subscriber: hand {@link RunTracer.onEvent} to `deps.onEvent`, or
 * feed it a finished run's `events`. The loop holds no tracing code, and without a subscriber
 * tracing costs nothing.
 *
 * Spans, named and attributed after the GenAI semantic conventions (`semconv.ts`):
 * - `invoke_agent harness-bench` (INTERNAL): the run, root of the trace; a subagent is an
 *   `invoke_agent subagent` span under the `execute_tool task` call that started it;
 * - `chat {model}` (CLIENT): one model call (turn, wrap-up turn or compaction summary);
 * - `execute_tool {tool}` (INTERNAL): one tool call, from entering the pipeline to its result,
 *   with children `policy {tool}` (the permission decision: action, deciding rule, reason) and
 *   `approval {tool}` (an `ask` answered: by whom, approved or not);
 * - loop warnings, compactions and exhausted budgets are span events.
 * Span times are the events' `atMs` (the injected clock), shifted by `timeOffsetMs`, so traces of
 * scripted runs are deterministic.
 */
import {
  type Attributes,
  type Context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  context,
  trace,
} from '@opentelemetry/api';
import type { HarnessEvent } from '../../harness/events.ts';
import { ERROR_TYPE, GEN_AI, HB, OPERATION } from './semconv.ts';

/** Options of {@link RunTracer}. */
export interface RunTracerOptions {
  tracer: Tracer;
  /** The model requested (`gen_ai.request.model`, and the chat span's name). */
  model: string;
  /** `gen_ai.provider.name`: a well-known value (`openai`, `groq`, …) or ours (`harness_bench.scripted`). */
  provider: string;
  /** Extra attributes of the root span (case id, configuration, status). */
  attributes?: Attributes;
  /** Added to every event's `atMs` (rebases an injected clock onto wall time). @default 0 */
  timeOffsetMs?: number;
  /**
   * Record content (opt-in in the conventions): tool arguments and results, the policy's reason
   * and subjects (commands, resolved paths), subagent descriptions. @default false
   */
  captureContent?: boolean;
  /** The model runs in this process (scripted, replayed): chat spans are INTERNAL, else CLIENT. */
  inProcessModel?: boolean;
  /** Parent of the root span (e.g. a suite span); absent: the run starts a new trace. */
  parent?: Context;
}

/** The agent name of the root span. */
export const AGENT_NAME = 'harness-bench';

/** [seconds, nanoseconds]: a number below the process's time origin would be read as `performance.now()`. */
const hrTime = (ms: number): [number, number] => {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
};

/** Builds the spans of one run from its events. Not thread-safe; one instance per run. */
export class RunTracer {
  private readonly agents = new Map<string, Span>();
  private readonly chats = new Map<string, Span>();
  private readonly tools = new Map<string, { span: Span; tool: string; lastMs: number }>();
  private readonly offset: number;
  private ended = false;

  constructor(private readonly options: RunTracerOptions) {
    this.offset = options.timeOffsetMs ?? 0;
  }

  /** Receives one event (the `deps.onEvent` contract: never throws). */
  onEvent = (event: HarnessEvent): void => {
    try {
      this.handle(event);
    } catch {
      // A tracing problem must never break a run.
    }
  };

  /** True once the root span has ended (the run's `run_end`). */
  get done(): boolean {
    return this.ended;
  }

  private start(name: string, kind: SpanKind, atMs: number, attributes: Attributes, parent?: Span): Span {
    const ctx = parent ? trace.setSpan(context.active(), parent) : (this.options.parent ?? context.active());
    return this.options.tracer.startSpan(
      name,
      { kind, startTime: hrTime(atMs + this.offset), attributes, root: !parent && !this.options.parent },
      ctx,
    );
  }

  private end(span: Span, atMs: number): void {
    span.end(hrTime(atMs + this.offset));
  }

  private agent(scope: readonly string[], atMs: number): Span {
    const key = scope.join('/');
    let span = this.agents.get(key);
    if (!span) {
      const parentScope = scope.slice(0, -1);
      const parent =
        scope.length > 0
          ? this.tools.get(`${parentScope.join('/')}#${scope[scope.length - 1]}`)?.span
          : undefined;
      span =
        scope.length === 0
          ? this.start(`invoke_agent ${AGENT_NAME}`, SpanKind.INTERNAL, atMs, {
              [GEN_AI.operationName]: OPERATION.invokeAgent,
              [GEN_AI.providerName]: this.options.provider,
              [GEN_AI.agentName]: AGENT_NAME,
              [GEN_AI.requestModel]: this.options.model,
              ...this.options.attributes,
            })
          : this.start(
              'invoke_agent subagent',
              SpanKind.INTERNAL,
              atMs,
              this.subagentAttributes(),
              parent ?? this.agent(parentScope, atMs),
            );
      this.agents.set(key, span);
    }
    return span;
  }

  private subagentAttributes(): Attributes {
    return {
      [GEN_AI.operationName]: OPERATION.invokeAgent,
      [GEN_AI.providerName]: this.options.provider,
      [GEN_AI.agentName]: 'subagent',
      [GEN_AI.requestModel]: this.options.model,
    };
  }

  private handle(event: HarnessEvent): void {
    const scope = event.scope.join('/');
    switch (event.type) {
      case 'run_start': {
        const span = this.agent(event.scope, event.atMs);
        span.setAttributes({ [HB.runId]: event.runId, [HB.tools]: event.tools });
        if (event.session)
          span.setAttributes({
            [GEN_AI.conversationId]: event.session.id,
            [HB.sessionResumed]: event.session.resumed,
          });
        break;
      }
      case 'turn_start': {
        const parent = this.agent(event.scope, event.atMs);
        const span = this.start(
          `${OPERATION.chat} ${this.options.model}`,
          this.options.inProcessModel ? SpanKind.INTERNAL : SpanKind.CLIENT,
          event.atMs,
          {
            [GEN_AI.operationName]: OPERATION.chat,
            [GEN_AI.providerName]: this.options.provider,
            [GEN_AI.requestModel]: this.options.model,
            [HB.turn]: event.turn,
            [HB.wrapUp]: event.wrapUp,
            [HB.requestTokens]: event.requestTokens,
            ...(event.compaction ? { [HB.compaction]: true } : {}),
          },
          parent,
        );
        const stale = this.chats.get(`${scope}#${event.turn}`);
        if (stale) this.end(stale, event.atMs);
        this.chats.set(`${scope}#${event.turn}`, span);
        break;
      }
      case 'model_call_end': {
        const key = `${scope}#${event.turn}`;
        const span = this.chats.get(key);
        if (!span) break;
        this.chats.delete(key);
        span.setAttributes({
          ...(event.finishReason !== null ? { [GEN_AI.responseFinishReasons]: [event.finishReason] } : {}),
          [GEN_AI.usageInputTokens]: event.usage.promptTokens,
          [GEN_AI.usageOutputTokens]: event.usage.completionTokens,
          [HB.usageSource]: event.usage.source,
          [HB.costUsd]: event.costUsd,
          [HB.toolCalls]: event.toolCalls,
          ...(event.textToolCall ? { [HB.textToolCall]: event.textToolCall } : {}),
        });
        if (!event.ok && event.error) {
          span.setAttribute(ERROR_TYPE, event.error.code);
          span.setStatus({ code: SpanStatusCode.ERROR, message: event.error.message });
        }
        this.end(span, event.atMs);
        break;
      }
      case 'tool_call_start': {
        const span = this.start(
          `${OPERATION.executeTool} ${event.tool}`,
          SpanKind.INTERNAL,
          event.atMs,
          {
            [GEN_AI.operationName]: OPERATION.executeTool,
            [GEN_AI.toolName]: event.tool,
            [GEN_AI.toolCallId]: event.callId,
            [GEN_AI.toolType]: 'function',
            [HB.turn]: event.turn,
            ...(event.originalId ? { [HB.originalCallId]: event.originalId } : {}),
            ...(event.normalisations.length > 0 ? { [HB.normalisations]: event.normalisations } : {}),
            ...(this.options.captureContent ? { [GEN_AI.toolCallArguments]: event.arguments } : {}),
          },
          this.agent(event.scope, event.atMs),
        );
        this.tools.set(`${scope}#${event.callId}`, { span, tool: event.tool, lastMs: event.atMs });
        break;
      }
      case 'policy_decision': {
        const call = this.tools.get(`${scope}#${event.callId}`);
        if (!call) break;
        const d = event.decision;
        const span = this.start(
          `policy ${event.tool}`,
          SpanKind.INTERNAL,
          call.lastMs,
          {
            [GEN_AI.toolName]: event.tool,
            [GEN_AI.toolCallId]: event.callId,
            [HB.policyAction]: event.action,
            [HB.policyRule]: d.rule,
            [HB.policyRules]: d.parts.map((p) => p.rule),
            ...(d.errorType ? { [HB.policyErrorType]: d.errorType } : {}),
            ...(d.requiresHuman ? { [HB.policyRequiresHuman]: true } : {}),
            ...(this.options.captureContent
              ? { [HB.policyReason]: d.reason, [HB.policySubjects]: d.parts.map((p) => p.subject) }
              : {}),
          },
          call.span,
        );
        this.end(span, event.atMs);
        call.lastMs = event.atMs;
        break;
      }
      case 'approval_decision': {
        const call = this.tools.get(`${scope}#${event.callId}`);
        if (!call) break;
        const span = this.start(
          `approval ${call.tool}`,
          SpanKind.INTERNAL,
          call.lastMs,
          {
            [GEN_AI.toolName]: call.tool,
            [GEN_AI.toolCallId]: event.callId,
            [HB.approvalApproved]: event.approved,
            [HB.approvalBy]: event.by,
            ...(event.grant ? { [HB.approvalGrant]: event.grant } : {}),
          },
          call.span,
        );
        this.end(span, event.atMs);
        call.lastMs = event.atMs;
        break;
      }
      case 'loop_warning':
        this.tools
          .get(`${scope}#${event.callId}`)
          ?.span.addEvent(
            HB.loopWarningEvent,
            { [GEN_AI.toolName]: event.tool, count: event.count, stop: event.stop },
            hrTime(event.atMs + this.offset),
          );
        break;
      case 'tool_call_end': {
        const key = `${scope}#${event.callId}`;
        const call = this.tools.get(key);
        if (!call) break;
        this.tools.delete(key);
        call.span.setAttributes({
          [HB.verdict]: event.verdict,
          [HB.executed]: event.executed,
          [HB.ok]: event.ok,
          ...(event.errorType ? { [HB.errorType]: event.errorType, [ERROR_TYPE]: event.errorType } : {}),
          ...(event.retryable !== undefined ? { [HB.retryable]: event.retryable } : {}),
          ...(this.options.captureContent ? { [GEN_AI.toolCallResult]: event.content } : {}),
        });
        if (!event.ok)
          call.span.setStatus({ code: SpanStatusCode.ERROR, message: event.errorType ?? 'tool error' });
        this.end(call.span, event.atMs);
        break;
      }
      case 'compaction':
        this.agent(event.scope, event.atMs).addEvent(
          HB.compactionEvent,
          {
            layer: event.layer,
            before_tokens: event.beforeTokens,
            after_tokens: event.afterTokens,
            ...(event.trigger ? { trigger: event.trigger } : {}),
            ...(event.callId ? { [GEN_AI.toolCallId]: event.callId } : {}),
            ...(event.artifact ? { artifact: event.artifact } : {}),
          },
          hrTime(event.atMs + this.offset),
        );
        break;
      case 'budget_exhausted':
        this.agent(event.scope, event.atMs).addEvent(
          HB.budgetEvent,
          { budget: event.budget, used: event.used, limit: event.limit },
          hrTime(event.atMs + this.offset),
        );
        break;
      case 'subagent_start': {
        const span = this.agent([...event.scope, event.callId], event.atMs);
        span.setAttributes({
          [HB.subagentDepth]: event.depth,
          ...(this.options.captureContent ? { [GEN_AI.agentDescription]: event.description } : {}),
        });
        break;
      }
      case 'subagent_end': {
        const key = [...event.scope, event.callId].join('/');
        const span = this.agents.get(key);
        if (!span) break;
        this.closeScope(key, event.atMs);
        span.setAttribute(HB.stopReason, event.stopReason);
        if (event.stopReason === 'model_error')
          span.setStatus({ code: SpanStatusCode.ERROR, message: 'model_error' });
        this.agents.delete(key);
        this.end(span, event.atMs);
        break;
      }
      case 'run_end': {
        const span = this.agent(event.scope, event.atMs);
        span.setAttributes({
          [HB.stopReason]: event.stopReason,
          ...(event.detail !== undefined ? { [HB.stopDetail]: event.detail } : {}),
          [HB.turns]: event.turns,
          [HB.toolCalls]: event.toolCalls,
          [GEN_AI.usageInputTokens]: event.promptTokens,
          [GEN_AI.usageOutputTokens]: event.completionTokens,
          [HB.costUsd]: event.costUsd,
        });
        if (event.stopReason === 'model_error') {
          span.setAttribute(ERROR_TYPE, 'model_error');
          span.setStatus({ code: SpanStatusCode.ERROR, ...(event.detail ? { message: event.detail } : {}) });
        }
        if (event.scope.length > 0) break; // a subagent's span ends at its subagent_end
        this.closeScope(null, event.atMs);
        this.end(span, event.atMs);
        this.agents.clear();
        this.ended = true;
        break;
      }
    }
  }

  /** Ends the open chat and tool spans of a scope and its children (`null`: every scope), marked unfinished. */
  private closeScope(prefix: string | null, atMs: number): void {
    const inside = (key: string) => prefix === null || key === prefix || key.startsWith(`${prefix}/`);
    for (const [key, span] of this.chats)
      if (inside(key.slice(0, key.lastIndexOf('#')))) {
        span.setAttributes({ [HB.sent]: false, [HB.unfinished]: true });
        this.end(span, atMs);
        this.chats.delete(key);
      }
    for (const [key, call] of this.tools)
      if (inside(key.slice(0, key.lastIndexOf('#')))) {
        call.span.setAttribute(HB.unfinished, true);
        this.end(call.span, atMs);
        this.tools.delete(key);
      }
    for (const [key, span] of this.agents)
      if (key !== '' && key !== prefix && inside(key)) {
        span.setAttribute(HB.unfinished, true);
        this.end(span, atMs);
        this.agents.delete(key);
      }
  }
}
