import { describe, expect, it } from 'vitest';
import type { ToolContext, ToolDefinition } from '../../harness/tools/types.ts';
import {
  NO_RECORDED_RESULT,
  RESPONSE_ONLY_TASK,
  indexRecordedCalls,
  recordedTools,
  replayPlan,
} from './recorded-tools.ts';
import { cassetteOf, completion, exchange, miniHarness, realCassette } from './fixtures.test-helpers.ts';

const ctx = (callId: string): ToolContext => ({ callId }) as ToolContext;

function tool(tools: ToolDefinition[], name: string): ToolDefinition {
  const found = tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

const call = (id: string, name: string, args: string) => ({
  id,
  type: 'function',
  function: { name, arguments: args },
});

describe('recordedTools: declarations', () => {
  it('declares every recorded function with its recorded schema, effect read', () => {
    const tools = recordedTools(realCassette('mistral-large-tool-any-loop'));
    expect(tools.map((t) => [t.name, t.effect])).toEqual([
      ['get_weather', 'read'],
      ['final_result', 'read'],
    ]);
    expect(tools[0]!.description).toBe('Get the current weather for a city.');
    expect(tools[0]!.parameters).toEqual({
      additionalProperties: false,
      properties: { city: { type: 'string' } },
      required: ['city'],
      type: 'object',
    });
  });

  it('uses an empty object schema for a tool declared without parameters, and unions tools over requests', () => {
    const cassette = cassetteOf([
      exchange([{ role: 'user', content: 'q' }], completion({ content: 'a' }), {
        tools: [{ type: 'function', function: { name: 'bare' } }],
      }),
      exchange([{ role: 'user', content: 'q' }], completion({ content: 'b' }), {
        tools: [
          { type: 'function', function: { name: 'later', parameters: { type: 'object', properties: {} } } },
        ],
      }),
    ]);
    const tools = recordedTools(cassette);
    expect(tools.map((t) => [t.name, t.parameters, t.description])).toEqual([
      ['bare', { type: 'object' }, ''],
      ['later', { type: 'object', properties: {} }, ''],
    ]);
  });

  it('declares the observed calls of a response-only recording with an empty schema; they are not executed', async () => {
    const tools = recordedTools(realCassette('vercel-anthropic-compat-sparse-index'));
    expect(tools.map((t) => [t.name, t.parameters])).toEqual([['read_file', { type: 'object' }]]);
    expect(await tools[0]!.execute({ path: 'a.txt' }, ctx('toolu_sanitized'))).toEqual(NO_RECORDED_RESULT);
  });
});

describe('recordedTools: recorded results', () => {
  it('serves the tool message of the next request by recorded call id', async () => {
    const tools = recordedTools(realCassette('crewai-gpt4omini-parallel-3-tools'));
    const out = await tool(tools, 'parallel_local_search_two').execute(
      { query: 'latest Anthropic model release notes' },
      ctx('call_yNouGq1Kv6P5W9fhTng6acZi'),
    );
    expect(out).toMatchObject({
      ok: true,
      content: '[two] latest Anthropic model release notes',
      details: { recorded: true, exchange: 0, position: 1 },
    });
  });

  it('falls back to name and arguments when the harness re-ided the call (Groq tool_use_failed has no id)', async () => {
    const tools = recordedTools(realCassette('groq-gptoss120b-tool-use-failed'));
    const first = await tool(tools, 'get_something_by_name').execute({ foo: 'bar' }, ctx('call_0001'));
    expect(first.ok && first.content).toMatch(/^2 validation errors:/);
    const second = await tool(tools, 'get_something_by_name').execute({ name: 'test' }, ctx('call_0002'));
    expect(second).toMatchObject({ ok: true, content: 'Something with name: test' });
  });

  it('serves each recorded result once, and not_executed when the recording has none', async () => {
    const tools = recordedTools(realCassette('crewai-gpt41mini-9req-multiplier-loop'));
    const multiplier = tool(tools, 'multiplier');
    // The second of the two parallel calls (exchange 4) never reached the next request.
    expect(
      await multiplier.execute({ first_number: 6, second_number: 3 }, ctx('call_M7plSCPSJMKIjN8yOfVZtwGC')),
    ).toEqual(NO_RECORDED_RESULT);
    const results = [];
    for (let i = 0; i < 4; i++)
      results.push(await multiplier.execute({ first_number: 2, second_number: 6 }, ctx(`h${i}`)));
    expect(results.map((r) => (r.ok ? r.content : r.errorType))).toEqual(['12', '12', '12', 'not_executed']);
  });

  it('prefers the turn the linked replay model served last', async () => {
    const f = (id: string) => ({ role: 'assistant', tool_calls: [call(id, 'f', '{}')] });
    const tools = { tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }] };
    const cassette = cassetteOf([
      exchange(
        [{ role: 'user', content: 'q' }],
        completion({ tool_calls: [call('a', 'f', '{}')] }, 'tool_calls'),
        tools,
      ),
      exchange(
        [{ role: 'user', content: 'q' }, f('a'), { role: 'tool', tool_call_id: 'a', content: 'r1' }],
        completion({ tool_calls: [call('b', 'f', '{}')] }, 'tool_calls'),
        tools,
      ),
      exchange(
        [
          { role: 'user', content: 'q' },
          f('a'),
          { role: 'tool', tool_call_id: 'a', content: 'r1' },
          f('b'),
          { role: 'tool', tool_call_id: 'b', content: 'r2' },
        ],
        completion({ content: 'done' }),
        tools,
      ),
    ]);
    const unlinked = recordedTools(cassette)[0]!;
    expect(await unlinked.execute({}, ctx('x'))).toMatchObject({ content: 'r1' });
    const linked = recordedTools(cassette, { model: { lastServed: 1 } })[0]!;
    expect(await linked.execute({}, ctx('x'))).toMatchObject({ content: 'r2' });
  });

  it('does not declare a tool the model called but the requests never offered (that is unknown_tool)', () => {
    const cassette = cassetteOf([
      exchange(
        [{ role: 'user', content: 'q' }],
        completion({ tool_calls: [call('a', 'ghost', '{}')] }, 'tool_calls'),
      ),
    ]);
    expect(recordedTools(cassette)).toEqual([]);
  });

  it('indexes every recorded call with its result', () => {
    const calls = indexRecordedCalls(realCassette('crewai-gpt41mini-9req-multiplier-loop'));
    expect(calls.map((c) => [c.exchange, c.position, c.result])).toEqual([
      [0, 0, '12'],
      [2, 0, '9'],
      [4, 0, '12'],
      [4, 1, null],
      [5, 0, '36'],
      [7, 0, '12'],
    ]);
  });
});

describe('replayPlan', () => {
  it('gives the first request: system prompt, leading messages, model from the Azure deployment, settings', () => {
    const plan = replayPlan(realCassette('crewai-azure-gpt5nano-parallel-3-tools'));
    expect(plan.model).toBe('gpt-5-nano');
    expect(plan.systemPrompt).toMatch(/^You are Parallel Tool Agent\./);
    expect(plan.initialMessages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(plan.task).toMatch(/^\nCurrent Task: This is a tool-calling compliance test\./);
    expect(plan.settings).toEqual({ stream: false, tool_choice: 'auto' });
    expect(plan.tools.map((t) => t.name)).toEqual([
      'parallel_local_search_one',
      'parallel_local_search_two',
      'parallel_local_search_three',
    ]);
    expect(plan.toolSchemas).toEqual(
      realCassette('crewai-azure-gpt5nano-parallel-3-tools').exchanges[0]!.request.body!.tools,
    );
  });

  it('keeps streaming settings, and has a placeholder task for response-only recordings', () => {
    expect(replayPlan(realCassette('openai-gpt4omini-stream-tool-loop')).settings).toEqual({
      stream: true,
      stream_options: { include_usage: true },
      tool_choice: 'auto',
    });
    const plan = replayPlan(realCassette('vercel-xai-grok3mini-tool-call'));
    expect(plan).toMatchObject({
      task: RESPONSE_ONLY_TASK,
      systemPrompt: null,
      initialMessages: [],
      model: 'grok-3-mini',
      settings: {},
    });
  });
});

describe('a minimal harness loop over real recordings', () => {
  it('replays openai-gpt5mini-tool-auto-loop without divergence, serving the recorded result', async () => {
    const run = await miniHarness(realCassette('openai-gpt5mini-tool-auto-loop'), { recordedSchemas: true });
    expect(run.end).toBe('final');
    expect(run.outcomes).toMatchObject([
      { tool: 'get_weather', output: { ok: true, content: 'Sunny, 22C in Paris' } },
    ]);
    expect(run.model.divergences).toEqual([]);
    expect(run.model.unusedExchanges()).toEqual([]);
  });

  it('reports a harness that drops `strict` from the tool schemas', async () => {
    const run = await miniHarness(realCassette('openai-gpt5mini-tool-auto-loop'));
    expect(run.model.divergences.map((d) => `${d.exchange}${d.path}:${d.kind}`)).toEqual([
      '0/tools/get_weather/function/strict:missing',
      '1/tools/get_weather/function/strict:missing',
    ]);
  });

  it('replays the Groq tool_use_failed loop; a loop that drops reasoning misses what the client sent back', async () => {
    const run = await miniHarness(realCassette('groq-gptoss120b-tool-use-failed'), { recordedSchemas: true });
    expect(run.end).toBe('final');
    expect(run.outcomes.map((o) => [o.callId, o.output.ok])).toEqual([
      ['call_0001', true],
      ['fc_311ba17b-89f9-48d3-8fd9-7e74a1264855', true],
    ]);
    // pydantic-ai sent Groq's reasoning back as a <think> block; this minimal loop keeps none.
    expect(run.model.divergences).toEqual([
      {
        exchange: 2,
        path: '/messages/4/reasoning',
        kind: 'missing',
        recorded: 'We need to call with correct param: name field. Use some name, e.g., "test".',
      },
    ]);
  });

  it('ends a response-only replay with not_executed calls and recording_exhausted', async () => {
    const run = await miniHarness(realCassette('vercel-deepseek-reasoner-tool-call'));
    expect(run.end).toBe('recording_exhausted');
    expect(run.outcomes).toMatchObject([
      { tool: 'weather', output: { ok: false, errorType: 'not_executed' } },
    ]);
    expect(run.model.divergences).toEqual([]);
  });

  it("crewAI's `name` on tool messages is a client dialect, not a divergence", async () => {
    const cassette = realCassette('crewai-gpt4omini-parallel-3-tools');
    expect(cassette.exchanges[1]!.request.body!.messages).toContainEqual(
      expect.objectContaining({ role: 'tool', name: 'parallel_local_search_one' }),
    );
    const run = await miniHarness(cassette, { recordedSchemas: true });
    expect(run.outcomes.every((o) => o.output.ok)).toBe(true);
    expect(run.model.divergences).toEqual([]);
  });
});
