/**
 * Test fixtures of the tracing tests: a scenario that makes every kind of span (model calls, a
 * bad-JSON call, an approved write, a denied command, a subagent with its own calls), a counter
 * id generator for deterministic traces, and a checker of spans against the GenAI conventions.
 */
import { SpanKind } from '@opentelemetry/api';
import type { IdGenerator, ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { deterministicDeps } from '../../harness/deps.ts';
import type { HarnessEvent } from '../../harness/events.ts';
import { loadConfig } from '../config-load.ts';
import { runScenario } from '../run-scenario.ts';
import type { Scenario } from '../scenario/types.ts';
import { GEN_AI, OPERATION } from './semconv.ts';

/** Every span kind in one run: chat turns, tools, policy, approval, a subagent. */
export const TRACED_SCENARIO: Scenario = {
  id: 'trace/every-span',
  task: 'Read the version, let a helper check the readme, record the version.',
  tools: ['task', 'read_file', 'write_file', 'bash'],
  workspace: { files: { 'package.json': '{ "version": "1.4.2" }', 'README.md': '# demo\n' } },
  approver: { default: 'approve' },
  model: [
    {
      tool_calls: [
        { id: 'call_bad', name: 'read_file', arguments: '{"path" "package.json"}' },
        { id: 'call_read', name: 'read_file', arguments: '{"path":"package.json"}' },
      ],
    },
    {
      tool_calls: [
        {
          id: 'call_task',
          name: 'task',
          arguments: '{"description":"Read README.md and report its title."}',
        },
      ],
    },
    { tool_calls: [{ id: 'call_child', name: 'read_file', arguments: '{"path":"README.md"}' }] },
    { content: 'The title is demo.' },
    {
      tool_calls: [
        { id: 'call_write', name: 'write_file', arguments: '{"path":"VERSION","content":"1.4.2\\n"}' },
        { id: 'call_rm', name: 'bash', arguments: '{"command":"rm -rf src"}' },
      ],
    },
    { content: 'VERSION says 1.4.2.' },
  ],
  expect: {
    stopReason: 'final_answer',
    executed: ['call_read', 'call_task', 'call_child', 'call_write'],
    notExecuted: ['call_bad', 'call_rm'],
  },
};

/** Runs {@link TRACED_SCENARIO} with `onEvent` subscribed; resolves with the run's events. */
export async function runTraced(onEvent?: (event: HarnessEvent) => void): Promise<HarnessEvent[]> {
  const deps = deterministicDeps();
  if (onEvent) deps.onEvent = onEvent;
  const { result, run } = await runScenario(
    { file: 'trace.json', absolutePath: '', scenario: TRACED_SCENARIO },
    loadConfig(),
    { deps },
  );
  if (result.status !== 'pass') throw new Error(`fixture scenario did not pass: ${result.firstFailure}`);
  return run!.events;
}

/** Trace ids `…0001`, span ids `…0001`, counting up: the same run gives the same trace. */
export function counterIds(): IdGenerator {
  let trace = 0;
  let span = 0;
  return {
    generateTraceId: () => (trace += 1).toString(16).padStart(32, '0'),
    generateSpanId: () => (span += 1).toString(16).padStart(16, '0'),
  };
}

/** The span's parent span id, or undefined for a root. */
export const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

/**
 * Problems of one span against the GenAI span conventions (`docs/gen-ai/gen-ai-spans.md`,
 * `gen-ai-agent-spans.md`): name `{operation} {model|tool|agent}`, the kind, and the attributes
 * the conventions require, with their types.
 */
export function conventionProblems(span: ReadableSpan): string[] {
  const a = span.attributes;
  const op = a[GEN_AI.operationName];
  const problems: string[] = [];
  const want = (ok: boolean, what: string) => {
    if (!ok) problems.push(`${span.name}: ${what}`);
  };
  const isInt = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;
  if (op === OPERATION.chat) {
    want(span.name === `chat ${a[GEN_AI.requestModel]}`, 'name is `chat {gen_ai.request.model}`');
    want(
      span.kind === SpanKind.CLIENT || span.kind === SpanKind.INTERNAL,
      'kind CLIENT (or INTERNAL in process)',
    );
    want(typeof a[GEN_AI.providerName] === 'string', 'gen_ai.provider.name (required) is a string');
    const reasons = a[GEN_AI.responseFinishReasons];
    want(
      reasons === undefined || (Array.isArray(reasons) && reasons.every((r) => typeof r === 'string')),
      'finish_reasons is string[]',
    );
    want(isInt(a[GEN_AI.usageInputTokens]) && isInt(a[GEN_AI.usageOutputTokens]), 'usage tokens are ints');
  } else if (op === OPERATION.executeTool) {
    want(span.name === `execute_tool ${a[GEN_AI.toolName]}`, 'name is `execute_tool {gen_ai.tool.name}`');
    want(span.kind === SpanKind.INTERNAL, 'kind INTERNAL');
    want(typeof a[GEN_AI.toolName] === 'string', 'gen_ai.tool.name (required)');
    want(typeof a[GEN_AI.toolCallId] === 'string', 'gen_ai.tool.call.id');
  } else if (op === OPERATION.invokeAgent) {
    want(span.name === `invoke_agent ${a[GEN_AI.agentName]}`, 'name is `invoke_agent {gen_ai.agent.name}`');
    want(span.kind === SpanKind.INTERNAL, 'kind INTERNAL (agent in process)');
    want(typeof a[GEN_AI.providerName] === 'string', 'gen_ai.provider.name (required)');
  } else {
    want(
      /^(policy|approval) /.test(span.name),
      'a span without gen_ai.operation.name is ours (policy, approval)',
    );
    want(
      Object.keys(a).every((k) => k.startsWith('harness_bench.') || k.startsWith('gen_ai.tool.')),
      'our spans carry harness_bench.* (and the gen_ai.tool.* of their call) only',
    );
  }
  if ('error.type' in a) want(span.status.code === 2, 'error.type goes with status ERROR');
  return problems;
}
