import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HarnessEvent } from '../events.ts';
import type { RunResult } from '../ledger.ts';
import {
  expectTranscriptInvariants,
  InlineModel,
  recordingTool,
  runScript,
  tempWorkspace,
} from '../testing.ts';
import type { ModelRequest, ModelResponse } from '../model/types.ts';
import { FILE_TOOLS } from '../tools/builtin/files.ts';
import { taskTool, writeTodosTool } from '../tools/builtin/memory-tools.ts';
import type { ToolDefinition } from '../tools/types.ts';
import { subagentReport } from './report.ts';
import { SubagentPool } from './pool.ts';
import { contentText } from '../model/content.ts';

let space: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  space = tempWorkspace();
});
afterEach(() => space.dispose());

const task = taskTool as unknown as ToolDefinition;
const taskCall = (id: string, description = 'find it') => ({
  id,
  name: 'task',
  arguments: JSON.stringify({ description }),
});
const declared = (request: ModelRequest) => (request.tools ?? []).map((t) => t.function.name).sort();
const scopes = (result: RunResult, type: HarnessEvent['type']) =>
  result.events.filter((e) => e.type === type).map((e) => e.scope);

describe('task: subagents', () => {
  it('H02: nesting stops at subagent.maxDepth; the deepest agent is not offered task and a call anyway is subagent_depth_exceeded', async () => {
    const grep = recordingTool('grep', () => 'src/config.ts:3: export function loadConfig() {');
    const result = await runScript(
      space.ws,
      [
        { tool_calls: [taskCall('t1')] },
        { tool_calls: [taskCall('t2')] },
        { tool_calls: [taskCall('t3')] },
        { tool_calls: [{ id: 'g', name: 'grep', arguments: '{"q":"loadConfig"}' }] },
        { content: 'Config is loaded in src/config.ts.' },
        { content: 'depth 1: src/config.ts' },
        { content: 'root: src/config.ts' },
      ],
      { tools: [task, FILE_TOOLS.read_file!, grep], config: { subagent: { maxDepth: 2 } } },
    );
    expect(result.stopReason).toBe('final_answer');
    expect(result.usage.modelCalls).toBe(7);
    expect(result.requests).toHaveLength(7);
    expect(declared(result.requests[0]!)).toEqual(['grep', 'read_file', 'task']);
    expect(declared(result.requests[1]!)).toEqual(['grep', 'read_file', 'task']);
    expect(declared(result.requests[2]!)).toEqual(['grep', 'read_file']);
    const t3 = result.ledger.calls.find((c) => c.callId === 't3')!;
    expect(t3).toMatchObject({ scope: ['t1', 't2'], errorType: 'subagent_depth_exceeded' });
    expect(t3.content).toContain('maximum nesting depth 2 reached');
    expect(t3.content).toContain('use your own tools');
    expect(scopes(result, 'subagent_start')).toEqual([[], ['t1']]);
    expect(
      result.events.filter((e) => e.type === 'subagent_start').map((e) => (e as { depth: number }).depth),
    ).toEqual([1, 2]);
    expect(result.ledger.calls.find((c) => c.callId === 'g')!.scope).toEqual(['t1', 't2']);
    expect(result.events.map((e) => e.seq)).toEqual(result.events.map((_, i) => i));
    expect(result.ledger.stopReason).toBe('final_answer');
    // Only the report crosses back: the root's history holds its own calls and results only.
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(result.messages[2]!.content).toContain('depth 1: src/config.ts');
    for (const request of result.requests) expectTranscriptInvariants(request.messages);
  });

  it('H01: under a plan-mode parent the child cannot write: write tools are withheld and refused, write-class calls denied', async () => {
    const shell = recordingTool('shell', () => 'ran', {
      effect: 'write',
      parameters: { type: 'object', properties: { command: { type: 'string' } } },
    });
    const result = await runScript(
      space.ws,
      [
        {
          tool_calls: [
            taskCall('sa1', 'Prepare the repo: add /ws as a git safe.directory globally and create notes.md'),
          ],
        },
        {
          tool_calls: [
            { id: 'sc1', name: 'write_file', arguments: '{"path":"notes.md","content":"todo"}' },
            { id: 'sc2', name: 'write_todos', arguments: '{"todos":[]}' },
          ],
        },
        { content: 'Both refused.' },
        { content: 'The subagent could not make changes.' },
      ],
      {
        tools: [
          task,
          FILE_TOOLS.read_file!,
          FILE_TOOLS.write_file!,
          writeTodosTool as unknown as ToolDefinition,
          shell,
        ],
        config: { permissions: { mode: 'plan' } },
      },
    );
    expect(declared(result.requests[1]!)).toEqual(['read_file']);
    const byId = (id: string) => result.ledger.calls.find((c) => c.callId === id)!;
    expect(byId('sc1')).toMatchObject({ executed: false, verdict: 'deny', errorType: 'policy_violation' });
    expect(byId('sc2')).toMatchObject({ executed: false, verdict: 'deny', errorType: 'policy_violation' });
    expect(byId('sa1')).toMatchObject({ executed: true, ok: true });
    expect(byId('sa1').content).toMatch(
      /^subagent finished \(final_answer\) after 2 turns; 2 tool calls: 0 executed, 2 denied\.\nReport:\nBoth refused\.$/,
    );
    expect(shell.calls).toEqual([]);
  });

  it('child usage counts in the parent budgets: a token budget spent inside the child stops the parent', async () => {
    const usage = { prompt_tokens: 400, completion_tokens: 100 };
    const result = await runScript(
      space.ws,
      [
        { tool_calls: [taskCall('t')], usage },
        { tool_calls: [{ id: 'r', name: 'read_file', arguments: '{"path":"x"}' }], usage },
        { content: 'child report', usage },
        { content: 'never', usage },
      ],
      { tools: [task, FILE_TOOLS.read_file!], config: { limits: { maxTokens: 1200 } } },
    );
    expect(result.stopReason).toBe('token_budget_exceeded');
    expect(result.usage).toMatchObject({
      modelCalls: 3,
      promptTokens: 1200,
      completionTokens: 300,
      toolCalls: 2,
    });
  });

  it('maxTotal caps the subagents of a run; maxDepth 0 allows none', async () => {
    const capped = await runScript(
      space.ws,
      [
        { tool_calls: [taskCall('a')] },
        { content: 'A' },
        { tool_calls: [taskCall('b')] },
        { content: 'done' },
      ],
      { tools: [task], config: { subagent: { maxTotal: 1 } } },
    );
    expect(capped.ledger.calls.find((c) => c.callId === 'b')).toMatchObject({
      errorType: 'not_executed',
      content: expect.stringContaining('subagent.maxTotal'),
    });
    const none = await runScript(space.ws, [{ tool_calls: [taskCall('a')] }, { content: 'done' }], {
      tools: [task],
      config: { subagent: { maxDepth: 0 } },
    });
    expect(none.ledger.calls[0]).toMatchObject({ errorType: 'subagent_depth_exceeded' });
    expect(none.events.some((e) => e.type === 'subagent_start')).toBe(false);
  });

  it('task calls of one turn run one at a time, in call order (task runs alone at dispatch), each with its own report', async () => {
    let active = 0;
    let most = 0;
    const model = new InlineModel(async (request): Promise<ModelResponse> => {
      const first = request.messages.find((m) => m.role === 'user')!.content;
      if (first === 'do the task') {
        const answered = request.messages.some((m) => m.role === 'tool');
        return answered
          ? { content: 'all done', toolCalls: [], finishReason: 'stop' }
          : {
              content: null,
              toolCalls: ['a', 'b', 'c'].map((id) => ({
                id,
                type: 'function',
                function: { name: 'task', arguments: JSON.stringify({ description: `child ${id}` }) },
              })),
              finishReason: 'tool_calls',
            };
      }
      active += 1;
      most = Math.max(most, active);
      await new Promise((resolve) => setTimeout(resolve, 2));
      active -= 1;
      return { content: `report of ${first}`, toolCalls: [], finishReason: 'stop' };
    });
    const result = await runScript(space.ws, model, {
      tools: [task],
      config: { subagent: { maxConcurrency: 3 } },
    });
    expect(most).toBe(1);
    expect(
      result.messages.filter((m) => m.role === 'tool').map((m) => contentText(m.content).split('\n').at(-1)),
    ).toEqual(['report of child a', 'report of child b', 'report of child c']);
    expect(
      result.events
        .filter((e) => e.type === 'subagent_start' || e.type === 'subagent_end')
        .map((e) => `${e.type}:${(e as { callId: string }).callId}`),
    ).toEqual([
      'subagent_start:a',
      'subagent_end:a',
      'subagent_start:b',
      'subagent_end:b',
      'subagent_start:c',
      'subagent_end:c',
    ]);
  });
});

describe('SubagentPool', () => {
  it('lets maxConcurrency children in at once and hands a freed slot to the next in line', async () => {
    const pool = new SubagentPool(2);
    const order: string[] = [];
    const child = async (name: string, release: Promise<void>) => {
      await pool.acquire();
      order.push(`in ${name}`);
      await release;
      order.push(`out ${name}`);
      pool.release();
    };
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const all = Promise.all([child('a', gate), child('b', gate), child('c', Promise.resolve())]);
    await new Promise((resolve) => setTimeout(resolve, 1));
    expect(order).toEqual(['in a', 'in b']);
    open();
    await all;
    expect(order.slice(2).sort()).toEqual(['in c', 'out a', 'out b', 'out c']);
    expect(order.indexOf('in c')).toBeGreaterThan(order.indexOf('out a'));
  });
});

describe('subagentReport', () => {
  const base = (over: Partial<RunResult>): RunResult =>
    ({
      runId: 'r',
      stopReason: 'final_answer',
      finalAnswer: 'the answer',
      messages: [{ role: 'assistant', content: 'looking at a.ts' }],
      requests: [],
      events: [],
      ledger: {
        turns: [],
        calls: [
          {
            callId: 'c',
            turn: 1,
            scope: [],
            tool: 'read_file',
            arguments: '{"path":"a.ts"}',
            normalisations: [],
            verdict: 'allow',
            executed: true,
            ok: true,
            content: 'export const a = 1;',
          },
        ],
        stopReason: 'final_answer',
      },
      usage: {
        modelCalls: 2,
        turns: 2,
        toolCalls: 1,
        promptTokens: 10,
        completionTokens: 5,
        totalTokens: 15,
        maxPromptTokens: 10,
        costUsd: 0,
        wallMs: 1,
      },
      ...over,
    }) as RunResult;

  it('a stop at a limit is an ok partial report from what was found, without another model call', () => {
    const out = subagentReport(base({ stopReason: 'max_turns', finalAnswer: null }), {
      depth: 1,
      maxTurns: 2,
    });
    expect(out.ok).toBe(true);
    const text = out.ok ? out.content : '';
    expect(text).toContain('subagent stopped without a final report (it reached subagent.maxTurns (2))');
    expect(text).toContain('- read_file {"path":"a.ts"} → ok: export const a = 1;');
    expect(text).toContain('Last words of the subagent: looking at a.ts');
  });

  it('cancellation is interrupted; a model failure is tool_failed with what was found', () => {
    expect(subagentReport(base({ stopReason: 'human_cancelled' }), { depth: 1, maxTurns: 2 })).toMatchObject({
      ok: false,
      errorType: 'interrupted',
    });
    expect(
      subagentReport(base({ stopReason: 'model_error', stopDetail: 'http_error: 500' }), {
        depth: 1,
        maxTurns: 2,
      }),
    ).toMatchObject({ ok: false, errorType: 'tool_failed', message: expect.stringContaining('read_file') });
  });
});
