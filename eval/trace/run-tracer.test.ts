/**
 * Traces built from the event stream: span names, the parent/child tree, attributes after the
 * GenAI semantic conventions and ours under `harness_bench.`, times from the injected clock, and
 * the same trace whether the tracer listens live or reads a finished run's events.
 */
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import * as incubating from '@opentelemetry/semantic-conventions/incubating';
import { describe, expect, it } from 'vitest';
import type { HarnessEvent } from '../../harness/events.ts';
import { RunTracer } from './run-tracer.ts';
import { ERROR_TYPE, GEN_AI, HB, OPERATION } from './semconv.ts';
import { conventionProblems, counterIds, parentOf, runTraced } from './trace-fixture.test-helpers.ts';
import { openTracing } from './tracing.ts';

/** A tracer writing to its own in-memory exporter, with counter ids. */
function memoryTracer(captureContent = false) {
  const exporter = new InMemorySpanExporter();
  const tracing = openTracing({ exporter, idGenerator: counterIds(), version: '0.0.0-test' });
  const tracer = new RunTracer({
    tracer: tracing.tracer,
    model: 'gpt-4o-mini',
    provider: 'harness_bench.scripted',
    inProcessModel: true,
    captureContent,
    attributes: { [HB.caseId]: 'trace/every-span' },
  });
  const finish = async () => {
    expect(tracer.done).toBe(true);
    const spans = exporter.getFinishedSpans(); // before shutdown, which empties the in-memory exporter
    await tracing.shutdown();
    return spans;
  };
  return { tracer, finish };
}

/** Runs the fixture with a tracer subscribed to its events; resolves with the spans. */
async function traced(captureContent = false): Promise<{ spans: ReadableSpan[]; events: HarnessEvent[] }> {
  const live = memoryTracer(captureContent);
  const events = await runTraced(live.tracer.onEvent);
  return { spans: await live.finish(), events };
}

/** The span tree as indented names, children in start order. */
function tree(spans: readonly ReadableSpan[]): string[] {
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    for (const span of spans
      .filter((s) => parentOf(s) === parent)
      .sort(
        (a, b) =>
          a.startTime[0] - b.startTime[0] ||
          a.startTime[1] - b.startTime[1] ||
          a.spanContext().spanId.localeCompare(b.spanContext().spanId),
      )) {
      lines.push(`${'  '.repeat(depth)}${span.name}`);
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}

const ms = (t: [number, number]) => t[0] * 1000 + t[1] / 1e6;

describe('RunTracer', () => {
  it('one trace per run: the agent span at the root, model calls, tool calls with their policy and approval, the subagent under its task call', async () => {
    const { spans } = await traced();
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    expect(tree(spans)).toEqual([
      'invoke_agent harness-bench',
      '  chat gpt-4o-mini',
      '  execute_tool read_file',
      '  execute_tool read_file',
      '    policy read_file',
      '  chat gpt-4o-mini',
      '  execute_tool task',
      '    policy task',
      '    invoke_agent subagent',
      '      chat gpt-4o-mini',
      '      execute_tool read_file',
      '        policy read_file',
      '      chat gpt-4o-mini',
      '  chat gpt-4o-mini',
      '  execute_tool write_file',
      '    policy write_file',
      '    approval write_file',
      '  execute_tool bash',
      '    policy bash',
      '  chat gpt-4o-mini',
    ]);
  });

  it('every span follows the GenAI conventions (names, kinds, required attributes and their types)', async () => {
    const { spans } = await traced();
    expect(spans.flatMap(conventionProblems)).toEqual([]);
    const ops = spans.map((s) => s.attributes[GEN_AI.operationName]);
    expect(ops.filter((o) => o === OPERATION.chat)).toHaveLength(6);
    expect(ops.filter((o) => o === OPERATION.executeTool)).toHaveLength(6);
    expect(ops.filter((o) => o === OPERATION.invokeAgent)).toHaveLength(2);
  });

  it('carries model usage, tool call ids, verdicts, the deciding rule and the stop reason', async () => {
    const { spans } = await traced();
    const byCall = (id: string) =>
      spans.find((s) => s.attributes[GEN_AI.toolCallId] === id && s.name.startsWith('execute_tool'))!;
    const root = spans.find((s) => !parentOf(s))!;
    expect(root.attributes).toMatchObject({
      [GEN_AI.agentName]: 'harness-bench',
      [GEN_AI.requestModel]: 'gpt-4o-mini',
      [HB.stopReason]: 'final_answer',
      [HB.caseId]: 'trace/every-span',
      [HB.turns]: 4,
    });
    const firstChat = spans.find((s) => s.name.startsWith('chat') && s.attributes[HB.turn] === 1)!;
    expect(firstChat.attributes[GEN_AI.responseFinishReasons]).toEqual(['tool_calls']);
    expect(firstChat.attributes[GEN_AI.usageInputTokens]).toBeGreaterThan(0);
    expect(byCall('call_bad').attributes).toMatchObject({
      [HB.verdict]: 'none',
      [HB.executed]: false,
      [ERROR_TYPE]: 'invalid_json',
      [HB.retryable]: true,
    });
    expect(byCall('call_bad').status.code).toBe(2);
    expect(byCall('call_read').attributes).toMatchObject({
      [HB.verdict]: 'allow',
      [HB.executed]: true,
      [HB.ok]: true,
    });
    expect(byCall('call_read').status.code).toBe(0);
    const policyOf = (id: string) =>
      spans.find((s) => s.name.startsWith('policy') && s.attributes[GEN_AI.toolCallId] === id)!;
    expect(policyOf('call_write').attributes).toMatchObject({ [HB.policyAction]: 'ask' });
    expect(policyOf('call_rm').attributes).toMatchObject({
      [HB.policyAction]: 'deny',
      [HB.policyRule]: 'bash:rm *',
    });
    expect(byCall('call_rm').attributes).toMatchObject({
      [HB.verdict]: 'deny',
      [ERROR_TYPE]: 'policy_violation',
    });
    const approval = spans.find((s) => s.name === 'approval write_file')!;
    expect(approval.attributes).toMatchObject({ [HB.approvalApproved]: true, [HB.approvalBy]: 'approver' });
    expect(byCall('call_write').attributes[HB.verdict]).toBe('ask:approved');
    // Content is opt-in: no arguments, results, commands or paths unless asked.
    const content: string[] = [
      GEN_AI.toolCallArguments,
      GEN_AI.toolCallResult,
      HB.policyReason,
      HB.policySubjects,
      GEN_AI.agentDescription,
    ];
    expect(spans.flatMap((s) => content.filter((k) => k in s.attributes))).toEqual([]);
  });

  it('times spans with the events` injected clock, children inside their parents', async () => {
    const { spans, events } = await traced();
    const root = spans.find((s) => !parentOf(s))!;
    expect(ms(root.startTime)).toBe(events.find((e) => e.type === 'run_start')!.atMs);
    expect(ms(root.endTime)).toBe(events[events.length - 1]!.atMs);
    const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
    for (const span of spans) {
      const parent = byId.get(parentOf(span) ?? '');
      if (!parent) continue;
      expect(ms(span.startTime), span.name).toBeGreaterThanOrEqual(ms(parent.startTime));
      expect(ms(span.endTime), span.name).toBeLessThanOrEqual(ms(parent.endTime));
    }
  });

  it('is deterministic: the same trace live and from the finished run`s events, every time', async () => {
    const shape = (spans: ReadableSpan[]) =>
      spans.map((s) => ({
        name: s.name,
        kind: s.kind,
        id: s.spanContext().spanId,
        parent: parentOf(s),
        start: s.startTime,
        end: s.endTime,
        attributes: s.attributes,
        events: s.events,
        status: s.status,
      }));
    const { spans, events } = await traced();
    for (let i = 0; i < 2; i += 1) {
      const after = memoryTracer();
      for (const event of events) after.tracer.onEvent(event);
      expect(shape(await after.finish())).toEqual(shape(spans));
    }
  });

  it('records content when asked: arguments, results, the policy reason and subjects, the subagent task', async () => {
    const { spans } = await traced(true);
    const find = (name: string, id: string) =>
      spans.find((s) => s.name === name && s.attributes[GEN_AI.toolCallId] === id)!;
    expect(find('execute_tool read_file', 'call_read').attributes).toMatchObject({
      [GEN_AI.toolCallArguments]: '{"path":"package.json"}',
      [GEN_AI.toolCallResult]: expect.stringContaining('1.4.2'),
    });
    expect(find('policy bash', 'call_rm').attributes).toMatchObject({
      [HB.policyReason]: expect.stringContaining('is denied by rule bash:rm *'),
      [HB.policySubjects]: expect.arrayContaining(['rm -rf src']),
    });
    expect(spans.find((s) => s.name === 'invoke_agent subagent')!.attributes[GEN_AI.agentDescription]).toBe(
      'Read README.md and report its title.',
    );
  });

  it('uses the conventions` names and values (as @opentelemetry/semantic-conventions/incubating spells them)', () => {
    expect(GEN_AI).toMatchObject({
      operationName: incubating.ATTR_GEN_AI_OPERATION_NAME,
      providerName: incubating.ATTR_GEN_AI_PROVIDER_NAME,
      requestModel: incubating.ATTR_GEN_AI_REQUEST_MODEL,
      responseFinishReasons: incubating.ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
      usageInputTokens: incubating.ATTR_GEN_AI_USAGE_INPUT_TOKENS,
      usageOutputTokens: incubating.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
      toolName: incubating.ATTR_GEN_AI_TOOL_NAME,
      toolCallId: incubating.ATTR_GEN_AI_TOOL_CALL_ID,
      toolType: incubating.ATTR_GEN_AI_TOOL_TYPE,
      toolCallArguments: incubating.ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
      toolCallResult: incubating.ATTR_GEN_AI_TOOL_CALL_RESULT,
      agentName: incubating.ATTR_GEN_AI_AGENT_NAME,
      agentDescription: incubating.ATTR_GEN_AI_AGENT_DESCRIPTION,
      conversationId: incubating.ATTR_GEN_AI_CONVERSATION_ID,
    });
    expect(OPERATION).toEqual({
      chat: incubating.GEN_AI_OPERATION_NAME_VALUE_CHAT,
      executeTool: incubating.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
      invokeAgent: incubating.GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
    });
    expect(ERROR_TYPE).toBe(incubating.ATTR_ERROR_TYPE);
  });

  it('never throws into the run, even on events it cannot place', () => {
    const exporter = new InMemorySpanExporter();
    const tracing = openTracing({ exporter, version: '0' });
    const tracer = new RunTracer({ tracer: tracing.tracer, model: 'm', provider: 'p' });
    expect(() =>
      tracer.onEvent({
        type: 'tool_call_end',
        seq: 0,
        atMs: 1,
        scope: ['x'],
        callId: 'nope',
      } as unknown as HarnessEvent),
    ).not.toThrow();
    expect(() => tracer.onEvent(null as unknown as HarnessEvent)).not.toThrow();
  });
});
