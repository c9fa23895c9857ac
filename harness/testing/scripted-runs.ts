/**
 * Run fixtures for vitest suites (part of the public `harness-bench/harness-testing` entry,
 * `harness/testing.ts`): a temp workspace with an "outside" folder next to it, a one-call runner
 * over a scripted or inline model, a recording test tool, and the transcript invariants
 * TI-1..TI-4 (`docs/conventions.md`) and run consistency as vitest assertions. Only tests import
 * it; nothing in the harness does.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { DEFAULT_CONFIG, mergeConfig, type HarnessConfig, type PartialConfig } from '../config.ts';
import { deterministicDeps, type HarnessDeps } from '../deps.ts';
import type { RunResult } from '../ledger.ts';
import type { ChatMessage, Model, ModelRequest, ModelResponse, RawToolCall } from '../model/types.ts';
import { ScriptedModel, type ScriptedTurn } from '../model/scripted-model.ts';
import { LocalSandbox } from '../sandbox/local.ts';
import { FILE_TOOLS } from '../tools/builtin/files.ts';
import { decodeToolResult, type ToolDefinition } from '../tools/types.ts';
import { runHarness } from '../loop/run.ts';
import type { RunOptions } from '../run-types.ts';
import { STOP_REASONS } from '../loop/stop-reasons.ts';
import { contentText } from '../model/content.ts';

/** A real temp workspace (`ws`) and a sibling `outside` folder; `dispose()` removes both. */
export function tempWorkspace(): { root: string; ws: string; outside: string; dispose: () => void } {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-run-')));
  const ws = path.join(root, 'ws');
  const outside = path.join(root, 'outside');
  mkdirSync(ws);
  mkdirSync(outside);
  return { root, ws, outside, dispose: () => rmSync(root, { recursive: true, force: true }) };
}

/** The default configuration with a partial override; the system prompt is dropped to keep requests small. */
export function testConfig(partial: PartialConfig = {}): HarnessConfig {
  return mergeConfig(mergeConfig(DEFAULT_CONFIG, { systemPrompt: '' }), partial);
}

/** A model that answers with whatever `respond` returns (raw tool-call shapes allowed). */
export class InlineModel implements Model {
  readonly name = 'inline';
  readonly requests: ModelRequest[] = [];
  constructor(
    private readonly respond: (
      request: ModelRequest,
      index: number,
      signal?: AbortSignal,
    ) => ModelResponse | Promise<ModelResponse>,
  ) {}
  async generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    this.requests.push(request);
    return this.respond(request, this.requests.length - 1, signal);
  }
}

/** A raw tool call as it could come off the wire. */
export function rawCall(id: unknown, name: unknown, args: unknown): RawToolCall {
  return { ...(id !== undefined ? { id } : {}), type: 'function', function: { name, arguments: args } };
}

/** Options of {@link runScript}: any run option, with a partial configuration merged over the test default. */
export interface RunScriptOptions extends Partial<Omit<RunOptions, 'config' | 'model'>> {
  config?: PartialConfig;
  deps?: HarnessDeps;
}

/** Runs the harness over a script (or any model) on workspace `ws` with the file tools. */
export async function runScript(
  ws: string,
  script: readonly ScriptedTurn[] | Model,
  options: RunScriptOptions = {},
): Promise<RunResult & { model: Model }> {
  const model = Array.isArray(script) ? new ScriptedModel(script as ScriptedTurn[]) : (script as Model);
  const { config, ...rest } = options;
  const result = await runHarness({
    task: 'do the task',
    tools: Object.values(FILE_TOOLS),
    sandbox: new LocalSandbox({ allowExec: false }),
    workspace: ws,
    deps: deterministicDeps(),
    ...rest,
    config: testConfig(config),
    model,
  });
  return { ...result, model };
}

/** The tool message answering `callId`, parsed when it is an error envelope. */
export function toolResult(
  result: RunResult,
  callId: string,
): { content: string; error?: { type: string; retryable: boolean; message: string } } {
  const message = result.messages.find(
    (m): m is Extract<ChatMessage, { role: 'tool' }> => m.role === 'tool' && m.tool_call_id === callId,
  );
  if (!message) throw new Error(`no tool message for ${callId}`);
  const content = contentText(message.content);
  const decoded = decodeToolResult(content, '');
  if (decoded.ok) return { content };
  const error = { type: decoded.error_type, retryable: decoded.retryable, message: decoded.message };
  return { content, error };
}

/** Ids of the calls the ledger says were executed, in order. */
export const executedIds = (result: RunResult) =>
  result.ledger.calls.filter((c) => c.executed).map((c) => c.callId);

/**
 * The transcript invariants, on the stored messages and on every request sent:
 * TI-1 ids unique across the conversation; TI-2 each call has exactly one tool message, in the
 * run of tool messages right after its assistant message, in call order; TI-3 no tool message
 * without a call in the preceding assistant message; TI-4 every replayed arguments string holds
 * a JSON object.
 */
export function expectTranscriptInvariants(messages: readonly ChatMessage[]): void {
  const ids = new Set<string>();
  for (let i = 0; i < messages.length; i += 1) {
    const message = messages[i]!;
    if (message.role === 'tool') {
      const previous = messages
        .slice(0, i)
        .reverse()
        .find((m) => m.role !== 'tool');
      expect(previous?.role, `tool message ${message.tool_call_id} follows no assistant message`).toBe(
        'assistant',
      );
      continue;
    }
    if (message.role !== 'assistant' || !message.tool_calls) continue;
    const callIds = message.tool_calls.map((c) => c.id);
    for (const call of message.tool_calls) {
      expect(ids.has(call.id), `duplicate call id ${call.id}`).toBe(false);
      ids.add(call.id);
      expect(typeof call.function.arguments).toBe('string');
      const args: unknown = JSON.parse(call.function.arguments);
      expect(
        typeof args === 'object' && args !== null && !Array.isArray(args),
        `arguments of ${call.id} are not a JSON object`,
      ).toBe(true);
    }
    const following: string[] = [];
    for (let j = i + 1; j < messages.length && messages[j]!.role === 'tool'; j += 1)
      following.push((messages[j] as { tool_call_id: string }).tool_call_id);
    expect(following, 'tool messages after an assistant message').toEqual(callIds);
  }
}

/** Exactly one run_end, seq 0..n-1 in order, a stop reason from the fixed list, and a ledger that matches the run. */
export function expectRunConsistent(result: RunResult): void {
  expect(STOP_REASONS).toContain(result.stopReason);
  expect(result.events.map((e) => e.seq)).toEqual(result.events.map((_, i) => i));
  for (let i = 1; i < result.events.length; i += 1)
    expect(result.events[i]!.atMs).toBeGreaterThanOrEqual(result.events[i - 1]!.atMs);
  const ends = result.events.filter((e) => e.type === 'run_end');
  expect(ends).toHaveLength(1);
  expect(result.events.at(-1)!.type).toBe('run_end');
  expect(result.events[0]!.type).toBe('run_start');
  expect(ends[0]).toMatchObject({
    stopReason: result.stopReason,
    turns: result.usage.turns,
    toolCalls: result.usage.toolCalls,
    finalAnswer: result.finalAnswer,
  });
  expect(result.ledger.stopReason).toBe(result.stopReason);
  expect(result.ledger.turns).toHaveLength(result.usage.modelCalls);
  expect(result.requests).toHaveLength(result.usage.modelCalls);
  const toolMessages = result.messages.filter(
    (m): m is Extract<ChatMessage, { role: 'tool' }> => m.role === 'tool',
  );
  expect(result.ledger.calls.map((c) => [c.callId, c.content])).toEqual(
    toolMessages.map((m) => [m.tool_call_id, m.content]),
  );
  const wire = result.messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []));
  expect(result.ledger.calls.map((c) => c.arguments)).toEqual(wire.map((c) => c.function.arguments));
  expectTranscriptInvariants(result.messages);
  for (const request of result.requests) expectTranscriptInvariants(request.messages);
}

/** A read-effect tool without paths that records its calls and answers with `answer(args)`. */
export function recordingTool(
  name: string,
  answer: (args: Record<string, unknown>, n: number) => string = () => 'ok',
  extra: Partial<ToolDefinition> = {},
): ToolDefinition & { calls: Record<string, unknown>[] } {
  const calls: Record<string, unknown>[] = [];
  return {
    name,
    description: `${name} (test tool)`,
    parameters: { type: 'object', properties: { q: { type: 'string' } } },
    effect: 'read',
    async execute(args) {
      calls.push(args);
      return { ok: true, content: answer(args, calls.length) };
    },
    ...extra,
    calls,
  };
}
