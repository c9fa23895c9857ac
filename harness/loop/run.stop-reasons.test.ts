import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deterministicDeps } from '../deps.ts';
import { ModelError } from '../model/types.ts';
import {
  executedIds,
  expectRunConsistent,
  InlineModel,
  recordingTool,
  runScript as runFixture,
  tempWorkspace,
  toolResult,
} from '../testing.ts';
import { STOP_REASONS } from './stop-reasons.ts';
import { contentText } from '../model/content.ts';

let space: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  space = tempWorkspace();
  writeFileSync(path.join(space.ws, 'notes.txt'), 'hello\n');
});
afterEach(() => space.dispose());

const read = (id: string, file = 'notes.txt') => ({
  id,
  name: 'read_file',
  arguments: JSON.stringify({ path: file }),
});
const budgetEvents = (result: { events: { type: string }[] }) =>
  result.events.filter((e) => e.type === 'budget_exhausted');
const reached = new Set<string>();
/** Runs the fixture and remembers the stop reason, so the last test can check every reason was reached. */
const runScript: typeof runFixture = async (...args) => {
  const result = await runFixture(...args);
  reached.add(result.stopReason);
  return result;
};

describe('runHarness: stopReason', () => {
  it('final_answer: a reply without tool calls ends the run with its text', async () => {
    const result = await runScript(space.ws, [
      { tool_calls: [read('call_1')] },
      { content: 'notes say hello' },
    ]);
    expect(result.stopReason).toBe('final_answer');
    expect(result.finalAnswer).toBe('notes say hello');
    expect(result.usage).toMatchObject({ modelCalls: 2, turns: 2, toolCalls: 1 });
    expect(toolResult(result, 'call_1').content).toBe('1\thello');
    expectRunConsistent(result);
  });

  it('max_turns: stops before the turn after maxTurns', async () => {
    const result = await runScript(
      space.ws,
      [{ tool_calls: [read('a', 'x1')] }, { tool_calls: [read('b', 'x2')] }, { content: 'never asked' }],
      {
        config: { limits: { maxTurns: 2 } },
      },
    );
    expect(result.stopReason).toBe('max_turns');
    expect(result.usage.modelCalls).toBe(2);
    expect(result.finalAnswer).toBeNull();
    expect(budgetEvents(result)).toEqual([expect.objectContaining({ budget: 'turns', used: 2, limit: 2 })]);
    expectRunConsistent(result);
  });

  it('tool_budget_exceeded: the call over the budget and the rest of its turn are not executed', async () => {
    const result = await runScript(
      space.ws,
      [
        { tool_calls: [read('a', 'x1'), read('b', 'x2'), read('c', 'x3'), read('d', 'x4')] },
        { content: 'never asked' },
      ],
      {
        config: { limits: { maxToolCalls: 2 } },
      },
    );
    expect(result.stopReason).toBe('tool_budget_exceeded');
    expect(executedIds(result)).toEqual(['a', 'b']);
    expect(toolResult(result, 'c').error).toMatchObject({
      type: 'not_executed',
      message: 'not executed: the tool-call budget of 2 calls is spent',
    });
    expect(toolResult(result, 'd').error).toMatchObject({
      type: 'not_executed',
      message: 'not executed: the run is stopping (tool_budget_exceeded)',
    });
    expect(result.usage.modelCalls).toBe(1);
    expect(budgetEvents(result)).toEqual([expect.objectContaining({ budget: 'toolCalls', limit: 2 })]);
    expectRunConsistent(result);
  });

  it('tool_budget_exceeded: a budget used up exactly stops before the next model call', async () => {
    const result = await runScript(
      space.ws,
      [{ tool_calls: [read('a', 'x1'), read('b', 'x2')] }, { content: 'never asked' }],
      { config: { limits: { maxToolCalls: 2 } } },
    );
    expect(result.stopReason).toBe('tool_budget_exceeded');
    expect(executedIds(result)).toEqual(['a', 'b']);
    expect(result.usage.modelCalls).toBe(1);
  });

  it('token_budget_exceeded: reported usage counts, prompt and completion together', async () => {
    const result = await runScript(
      space.ws,
      [
        { tool_calls: [read('a')], usage: { prompt_tokens: 900, completion_tokens: 100 } },
        { content: 'never asked' },
      ],
      {
        config: { limits: { maxTokens: 1000 } },
      },
    );
    expect(result.stopReason).toBe('token_budget_exceeded');
    expect(result.usage).toMatchObject({
      modelCalls: 1,
      promptTokens: 900,
      completionTokens: 100,
      totalTokens: 1000,
    });
    expect(budgetEvents(result)).toEqual([
      expect.objectContaining({ budget: 'tokens', used: 1000, limit: 1000 }),
    ]);
    expectRunConsistent(result);
  });

  it('cost_budget_exceeded: every billed turn counts, even when its calls failed validation (case C03)', async () => {
    const search = recordingTool('search', () => 'hits', {
      parameters: { type: 'object', required: ['query'], properties: { query: { type: 'string' } } },
    });
    const turn = {
      tool_calls: [{ id: 'call_s', name: 'search', arguments: '{"query": 42}' }],
      usage: { prompt_tokens: 4000, completion_tokens: 200 },
      repeat: 5,
    };
    const result = await runScript(space.ws, [turn], {
      tools: [search],
      config: {
        limits: { maxTurns: 100, maxCostUsd: 0.05 },
        pricing: { '*': { inputUsdPerMTok: 5, outputUsdPerMTok: 15 } },
      },
    });
    expect(result.stopReason).toBe('cost_budget_exceeded');
    expect(result.usage.modelCalls).toBe(3);
    expect(result.usage.costUsd).toBeCloseTo(0.069, 10);
    expect(search.calls).toEqual([]);
    for (const id of ['call_s', 'call_s_2', 'call_s_3'])
      expect(toolResult(result, id).error).toMatchObject({
        type: 'invalid_arguments',
        retryable: true,
        message: expect.stringContaining('query: expected string, got number'),
      });
    expectRunConsistent(result);
  });

  it('time_budget_exceeded: wall time on the injected clock', async () => {
    const result = await runScript(space.ws, [{ tool_calls: [read('r', 'x')], repeat: 50 }], {
      deps: deterministicDeps({ stepMs: 1000 }),
      config: { limits: { maxWallMs: 10_000 } },
    });
    expect(result.stopReason).toBe('time_budget_exceeded');
    const [event] = budgetEvents(result) as unknown as { budget: string; used: number; limit: number }[];
    expect(event).toMatchObject({ budget: 'wallMs', limit: 10_000 });
    expect(event!.used).toBeGreaterThanOrEqual(10_000);
    expect(result.usage.modelCalls).toBeGreaterThan(0);
    expect(result.usage.modelCalls).toBeLessThan(10);
    expectRunConsistent(result);
  });

  it('repeated_tool_call: 3 runs, the 4th is warned, the 5th stops the run (case C01)', async () => {
    const result = await runScript(space.ws, [{ tool_calls: [read('call_r')], repeat: 6 }]);
    expect(result.stopReason).toBe('repeated_tool_call');
    expect(result.usage.modelCalls).toBe(5);
    expect(executedIds(result)).toEqual(['call_r', 'call_r_2', 'call_r_3']);
    expect(toolResult(result, 'call_r_4').error).toMatchObject({
      type: 'repeated_call',
      message: expect.stringContaining('try a different approach'),
    });
    expect(toolResult(result, 'call_r_5').error).toMatchObject({
      type: 'repeated_call',
      message: expect.stringContaining('not executed; run stopped'),
    });
    expect(
      result.events.filter((e) => e.type === 'loop_warning').map((e) => (e as { stop: boolean }).stop),
    ).toEqual([false, true]);
    expectRunConsistent(result);
  });

  it('policy_violation: with onDeny stop, a denied call ends the run and nothing after it runs', async () => {
    symlinkSync(space.outside, path.join(space.ws, 'outbox'));
    const write = {
      id: 'w',
      name: 'write_file',
      arguments: JSON.stringify({ path: 'outbox/escaped.txt', content: 'x' }),
    };
    const result = await runScript(
      space.ws,
      [{ tool_calls: [write, read('r')] }, { content: 'never asked' }],
      {
        config: { permissions: { onDeny: 'stop', mode: 'auto' } },
      },
    );
    expect(result.stopReason).toBe('policy_violation');
    expect(toolResult(result, 'w').error).toMatchObject({ type: 'path_outside_workspace', retryable: false });
    expect(toolResult(result, 'r').error).toMatchObject({ type: 'not_executed' });
    expect(existsSync(path.join(space.outside, 'escaped.txt'))).toBe(false);
    expect(result.usage.modelCalls).toBe(1);
    expectRunConsistent(result);
  });

  it('a deny without onDeny stop is an observation: the run goes on', async () => {
    symlinkSync(space.outside, path.join(space.ws, 'outbox'));
    const write = {
      id: 'w',
      name: 'write_file',
      arguments: JSON.stringify({ path: 'outbox/escaped.txt', content: 'x' }),
    };
    const result = await runScript(
      space.ws,
      [{ tool_calls: [write] }, { content: 'could not write there' }],
      { config: { permissions: { mode: 'auto' } } },
    );
    expect(result.stopReason).toBe('final_answer');
    expect(result.ledger.calls[0]).toMatchObject({
      verdict: 'deny',
      executed: false,
      errorType: 'path_outside_workspace',
    });
  });

  it('human_cancelled: an aborted signal stops before the next model call', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runScript(space.ws, [{ content: 'never asked' }], { signal: controller.signal });
    expect(result.stopReason).toBe('human_cancelled');
    expect(result.usage.modelCalls).toBe(0);
    expectRunConsistent(result);
  });

  it('human_cancelled: cancelling during a model call', async () => {
    const controller = new AbortController();
    const model = new InlineModel(() => {
      controller.abort();
      throw new ModelError('aborted', 'the model call was cancelled');
    });
    const result = await runScript(space.ws, model, {
      signal: controller.signal,
      config: { limits: { wrapUpTurn: true } },
    });
    expect(result.stopReason).toBe('human_cancelled');
    expect(result.usage.modelCalls).toBe(1);
    expectRunConsistent(result);
  });

  it('human_cancelled: calls after the cancel in the same turn are not executed (interrupted)', async () => {
    const controller = new AbortController();
    const first = recordingTool('first', () => {
      controller.abort();
      return 'done';
    });
    const second = recordingTool('second');
    const result = await runScript(
      space.ws,
      [
        {
          tool_calls: [
            { id: 'a', name: 'first', arguments: '{}' },
            { id: 'b', name: 'second', arguments: '{}' },
          ],
        },
        { content: 'never asked' },
      ],
      {
        tools: [first, second],
        signal: controller.signal,
      },
    );
    expect(result.stopReason).toBe('human_cancelled');
    expect(second.calls).toEqual([]);
    expect(toolResult(result, 'b').error).toMatchObject({ type: 'interrupted' });
    expect(executedIds(result)).toEqual(['a']);
    expectRunConsistent(result);
  });

  it('model_error: an HTTP error ends the run with its code and status', async () => {
    const result = await runScript(space.ws, [
      { error: { status: 400, body: { error: { message: 'bad request' } } } },
    ]);
    expect(result.stopReason).toBe('model_error');
    expect(result.stopDetail).toBe('http_error: HTTP 400: bad request');
    expect(result.ledger.turns).toEqual([
      expect.objectContaining({ ok: false, error: { code: 'http_error', message: 'HTTP 400: bad request' } }),
    ]);
    expectRunConsistent(result);
  });

  it('model_error: a model that throws something else, or runs out of script', async () => {
    const odd = await runScript(space.ws, new InlineModel(() => Promise.reject(new TypeError('boom'))));
    expect(odd.stopReason).toBe('model_error');
    expect(odd.stopDetail).toBe('invalid_response: boom');
    const exhausted = await runScript(space.ws, [{ tool_calls: [read('a')] }]);
    expect(exhausted.stopReason).toBe('model_error');
    expect(exhausted.stopDetail).toMatch(/^script_exhausted/);
    expectRunConsistent(exhausted);
  });

  it('context_overflow: a request bigger than the window is never sent', async () => {
    const result = await runScript(space.ws, [{ content: 'never asked' }], {
      config: { context: { windowTokens: 5 } },
    });
    expect(result.stopReason).toBe('context_overflow');
    expect(result.usage.modelCalls).toBe(0);
    expect(result.events.find((e) => e.type === 'turn_start')).toMatchObject({
      turn: 1,
      requestTokens: expect.any(Number),
    });
    // The context stage's own stop reaches the result, with its detail (it was dropped before).
    expect(result.stopDetail).toMatch(/over the window of 5, and no layer can remove more/);
    expectRunConsistent(result);
  });

  it('context_overflow: the context stage stops the run when its layers cannot bring the request under the window', async () => {
    writeFileSync(path.join(space.ws, 'big.txt'), 'some words on a line\n'.repeat(1500));
    const result = await runScript(
      space.ws,
      [{ tool_calls: [read('r1', 'big.txt')] }, { content: 'never asked' }],
      {
        config: {
          context: {
            windowTokens: 1200,
            toolOutputMaxChars: 1_000_000,
            layers: { cap: false, spill: false, stub: false, drop: false, compact: false },
          },
        },
      },
    );
    expect(result.stopReason).toBe('context_overflow');
    expect(result.usage.modelCalls).toBe(1);
    expect(result.stopDetail).toMatch(/^the next request needs about \d+ tokens, over the window of 1200/);
    expectRunConsistent(result);
  });

  it('output_truncated: maxConsecutiveTruncations text replies cut off by the length limit', async () => {
    const result = await runScript(space.ws, [
      { content: 'part', finish_reason: 'length', repeat: 3 },
      { content: 'never asked' },
    ]);
    expect(result.stopReason).toBe('output_truncated');
    expect(result.usage.modelCalls).toBe(3);
    expect(
      result.messages.filter(
        (m) => m.role === 'user' && contentText(m.content).includes('cut off by the output token limit'),
      ),
    ).toHaveLength(2);
    expectRunConsistent(result);
  });

  it('output_truncated: truncated tool-call turns never run their calls and do not count as loops', async () => {
    const cut = {
      tool_calls: [{ id: 'w', name: 'write_file', arguments: '{"path":"big.txt","content":"aaaa' }],
      finish_reason: 'length' as const,
      repeat: 3,
    };
    const result = await runScript(space.ws, [cut, { content: 'never asked' }], {
      config: { permissions: { mode: 'auto' } },
    });
    expect(result.stopReason).toBe('output_truncated');
    expect(executedIds(result)).toEqual([]);
    expect(result.ledger.calls.map((c) => c.errorType)).toEqual([
      'truncated_call',
      'truncated_call',
      'truncated_call',
    ]);
    expect(result.events.some((e) => e.type === 'loop_warning')).toBe(false);
    expect(existsSync(path.join(space.ws, 'big.txt'))).toBe(false);
    expectRunConsistent(result);
  });

  it('a truncation streak is broken by a whole turn', async () => {
    const result = await runScript(space.ws, [
      { content: 'a', finish_reason: 'length', repeat: 2 },
      { tool_calls: [read('r')] },
      { content: 'b', finish_reason: 'length', repeat: 2 },
      { content: 'done' },
    ]);
    expect(result.stopReason).toBe('final_answer');
    expect(readFileSync(path.join(space.ws, 'notes.txt'), 'utf8')).toBe('hello\n');
  });

  it('content_filter: a filtered turn with text is never a final answer; the text stays in the transcript', async () => {
    const result = await runScript(space.ws, [
      { tool_calls: [read('call_1')] },
      { content: 'Here is how to', finish_reason: 'content_filter' },
      { content: 'never asked' },
    ]);
    expect(result.stopReason).toBe('content_filter');
    expect(result.finalAnswer).toBeNull();
    expect(result.stopDetail).toMatch(/content filter/);
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', content: 'Here is how to' });
    expect(result.usage.modelCalls).toBe(2);
    expectRunConsistent(result);
  });

  it('content_filter: without any text, and with partial tool calls that are never run (streamed too)', async () => {
    for (const stream of [false, true]) {
      const result = await runScript(space.ws, [
        {
          tool_calls: [{ id: 'w', name: 'write_file', arguments: '{"path":"x.txt","content":"a"}' }],
          finish_reason: 'content_filter',
          stream,
        },
        { content: 'never asked' },
      ]);
      expect(result.stopReason).toBe('content_filter');
      expect(result.finalAnswer).toBeNull();
      expect(result.stopDetail).toMatch(/1 tool call not run/);
      expect(executedIds(result)).toEqual([]);
      expect(existsSync(path.join(space.ws, 'x.txt'))).toBe(false);
      expectRunConsistent(result);
    }
    const empty = await runScript(space.ws, [{ content: null, finish_reason: 'content_filter' }]);
    expect(empty.stopReason).toBe('content_filter');
    expect(empty.finalAnswer).toBeNull();
  });

  it('every stop reason of the fixed list is reached by a test above', () => {
    expect([...reached].sort()).toEqual([...STOP_REASONS].sort());
  });
});
