import { describe, expect, it } from 'vitest';
import { completionFromEvents, eventsFromCompletion, includeUsageOf } from './stream-convert.ts';
import { essentials, realRecording, recordedEvents, sdkAccumulation } from './stream-convert.test-helpers.ts';

const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 5, model: 'm', choices, ...extra });
const delta = (d: Record<string, unknown>, finish: string | null = null, index = 0) => ({
  index,
  delta: d,
  finish_reason: finish,
});

describe('completionFromEvents: a recorded stream as the openai SDK assembles it', () => {
  // Every streamed exchange of these recordings: the SDK's accumulation and ours agree on every field kept.
  const agreeing: [string, number][] = [
    ['azure-ai-inference-mistral-large-stream-tool-then-text-call', 1],
    ['crewai-gpt4-stream-gzip-summarizer', 0],
    ['crewai-gpt4o-stream-tool-call', 0],
    ['langchaingo-gpt35-chat-stream', 0],
    ['mirascope-gpt5mini-length-empty-stream', 0],
    ['openai-gpt4omini-stream-tool-loop', 0],
    ['openai-gpt4omini-stream-tool-loop', 1],
    ['openinference-autogen-gpt35-stream-tool-loop', 0],
    ['openllmetryjs-openai-gpt4omini-stream-two-tools', 0],
    ['openllmetryjs-together-llama31-stream-two-tools', 0],
    ['rubyllm-mistral-small-stream-tools-two-turns', 0],
    ['rubyopenai-deepseek-chat-stream', 0],
    ['vercel-deepseek-reasoner-tool-call', 0],
    ['vercel-groq-llama33-tool-call', 0],
  ];
  it.each(agreeing)('%s, exchange %i: equals the SDK accumulation', async (id, exchange) => {
    const events = recordedEvents(id, exchange);
    expect(events.length).toBeGreaterThan(0);
    expect(essentials(completionFromEvents(events), false)).toEqual(
      essentials(await sdkAccumulation(events), false),
    );
  });

  it('assembles the parallel calls of a real OpenAI stream (hand-checked)', () => {
    const body = completionFromEvents(recordedEvents('openllmetryjs-openai-gpt4omini-stream-two-tools'));
    const message = (body.choices as { message: Record<string, unknown> }[])[0]!.message;
    expect(message.content).toBeNull();
    expect((message.tool_calls as { function: { name: string; arguments: string } }[]).length).toBe(2);
    for (const call of message.tool_calls as { function: { arguments: string } }[])
      expect(() => JSON.parse(call.function.arguments)).not.toThrow();
    expect((body.choices as { finish_reason: string }[])[0]!.finish_reason).toBe('tool_calls');
  });

  it('tolerates a first tool call at index 1 (the SDK fails on the hole): one dense call', async () => {
    const events = recordedEvents('vercel-anthropic-compat-sparse-index');
    await expect(sdkAccumulation(events)).rejects.toThrow();
    expect(completionFromEvents(events)).toEqual({
      id: 'msg_sanitized',
      object: 'chat.completion',
      created: 0,
      model: 'claude-haiku-4-5-20251001',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Reading it.',
            tool_calls: [
              {
                id: 'toolu_sanitized',
                type: 'function',
                function: { name: 'read_file', arguments: '{"path": "a.txt"}' },
              },
            ],
          },
          finish_reason: 'tool_calls',
          logprobs: null,
        },
      ],
    });
  });

  it('keeps a call whose delta has no index and no type (Azure AI Inference, Mistral), which the SDK drops', () => {
    const events = recordedEvents('azure-ai-inference-mistral-large-stream-tool-then-text-call');
    const choice = (completionFromEvents(events).choices as Record<string, unknown>[])[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect((choice.message as Record<string, unknown>).tool_calls).toEqual([
      {
        id: 'Sanitized',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city": "Seattle"}' },
      },
    ]);
  });

  it('turns an error event into the error body, whatever came before it (OpenRouter, minimax)', async () => {
    const events = recordedEvents('openrouter-minimax-stream-error-event');
    await expect(sdkAccumulation(events)).rejects.toThrow(/Token limit reached/);
    expect(completionFromEvents(events)).toEqual({ error: { code: 400, message: 'Token limit reached' } });
  });

  it('merges reasoning_details as the harness that recorded the next request did (ruby_llm, OpenRouter)', () => {
    const id = 'rubyllm-openrouter-haiku45-reasoning-details-stream';
    const body = completionFromEvents(recordedEvents(id, 0));
    const message = (body.choices as { message: Record<string, unknown> }[])[0]!.message;
    const next = realRecording(id).exchanges[1]!.request.body!.messages as Record<string, unknown>[];
    const echoed = next.find((m) => m.role === 'assistant')!;
    expect(message.reasoning_details).toEqual(echoed.reasoning_details);
    // ruby_llm sends the arguments back re-serialised: the same JSON value.
    const parsed = (calls: unknown) =>
      (calls as { id: string; function: { name: string; arguments: string } }[]).map((c) => [
        c.id,
        c.function.name,
        JSON.parse(c.function.arguments),
      ]);
    expect(parsed(message.tool_calls)).toEqual(parsed(echoed.tool_calls));
  });

  it("takes Groq's x_groq.usage as the usage, as Groq's plain body has it", () => {
    const body = completionFromEvents(recordedEvents('rubyopenai-groq-llama3-stream'));
    expect(body.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 24, total_tokens: 36 });
  });

  it('concatenates text fields, takes the last finish reason and a usage chunk with no choices', () => {
    const events = [
      ': comment',
      'not json',
      chunk([delta({ role: 'assistant', content: '' })]),
      chunk([delta({ reasoning_content: 'th' }), delta({ content: 'B' }, null, 1)]),
      chunk([delta({ reasoning_content: 'ink', content: 'Hel' })]),
      chunk([delta({ content: 'lo', refusal: 'no' })], { system_fingerprint: 'fp' }),
      chunk([delta({}, 'stop'), delta({}, 'length', 1)]),
      chunk([delta({}, null)]),
      chunk([], { usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } }),
      '[DONE]',
    ];
    expect(completionFromEvents(events)).toEqual({
      id: 'c1',
      object: 'chat.completion',
      created: 5,
      model: 'm',
      system_fingerprint: 'fp',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hello', reasoning_content: 'think', refusal: 'no' },
          finish_reason: 'stop',
          logprobs: null,
        },
        { index: 1, message: { role: 'assistant', content: 'B' }, finish_reason: 'length', logprobs: null },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
    });
  });

  it('assembles calls by index in order, continues one without index, and a legacy function_call', () => {
    const call = (c: Record<string, unknown>) => ({ tool_calls: [c] });
    const events = [
      chunk([delta(call({ index: 2, id: 'b', type: 'function', function: { name: 'two', arguments: '' } }))]),
      chunk([delta(call({ index: 0, id: 'a', function: { name: 'one', arguments: '{"x"' } }))]),
      chunk([delta(call({ function: { arguments: ':1}' } }))]),
      chunk([delta(call({ index: 2, function: { arguments: '{}' } }))]),
      chunk([delta({ function_call: { name: 'legacy', arguments: '{"a"' } })]),
      chunk([delta({ function_call: { arguments: ':2}' } }, 'tool_calls')]),
    ];
    const message = (completionFromEvents(events).choices as { message: Record<string, unknown> }[])[0]!
      .message;
    expect(message.tool_calls).toEqual([
      { id: 'a', type: 'function', function: { name: 'one', arguments: '{"x":1}' } },
      { id: 'b', type: 'function', function: { name: 'two', arguments: '{}' } },
    ]);
    expect(message.function_call).toEqual({ name: 'legacy', arguments: '{"a":2}' });
    expect(message.content).toBeNull();
  });

  it('gives an empty completion for a stream with no chunk', () => {
    expect(completionFromEvents(['[DONE]'])).toMatchObject({ object: 'chat.completion', choices: [] });
  });
});

describe('eventsFromCompletion: a recorded body as the stream an OpenAI endpoint sends', () => {
  const body = {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 7,
    model: 'gpt',
    system_fingerprint: 'fp',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: 'Reading.',
          refusal: null,
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } },
            { id: 'call_b', type: 'function', function: { name: 'now', arguments: '' } },
          ],
        },
        finish_reason: 'tool_calls',
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
  };
  const head = {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 7,
    model: 'gpt',
    system_fingerprint: 'fp',
  };
  const at = (d: Record<string, unknown>, finish: string | null = null) =>
    JSON.stringify({ ...head, choices: [{ index: 0, delta: d, finish_reason: finish, logprobs: null }] });

  it('sends role, content, each call head then its arguments, the finish, usage when asked, [DONE]', () => {
    expect(eventsFromCompletion(body, { includeUsage: true })).toEqual([
      at({ role: 'assistant' }),
      at({ content: 'Reading.' }),
      at({
        tool_calls: [
          { index: 0, id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '' } },
        ],
      }),
      at({ tool_calls: [{ index: 0, function: { arguments: '{"path":"a"}' } }] }),
      at({
        tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'now', arguments: '' } }],
      }),
      at({}, 'tool_calls'),
      JSON.stringify({ ...head, choices: [], usage: body.usage }),
      '[DONE]',
    ]);
  });

  it('leaves the usage chunk out unless the request asked for it', () => {
    const events = eventsFromCompletion(body, { includeUsage: false })!;
    expect(events.some((e) => e.includes('"usage"'))).toBe(false);
    expect(events.at(-1)).toBe('[DONE]');
  });

  it('is what the openai SDK assembles back into the body', async () => {
    const events = eventsFromCompletion(body, { includeUsage: true })!;
    expect(essentials(await sdkAccumulation(events))).toEqual(essentials(body));
    expect(essentials(completionFromEvents(events))).toEqual(essentials(body));
  });

  it('sends a provider error in a 200 as one error event, and nothing for a text body', () => {
    const error = { error: { message: 'filtered', code: 'content_filter' } };
    expect(eventsFromCompletion(error, { includeUsage: true })).toEqual([JSON.stringify(error), '[DONE]']);
    expect(eventsFromCompletion('plain text', { includeUsage: false })).toBeUndefined();
  });

  it('sends reasoning and an object argument as recorded', () => {
    const events = eventsFromCompletion(
      {
        id: 'x',
        created: 1,
        model: 'm',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              reasoning_content: 'why',
              tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: { a: 1 } } }],
            },
            finish_reason: 'tool_calls',
          },
        ],
      },
      { includeUsage: false },
    )!;
    const back = completionFromEvents(events);
    const message = (back.choices as { message: Record<string, unknown> }[])[0]!.message;
    expect(message.reasoning_content).toBe('why');
    expect(message.tool_calls).toEqual([
      { id: 'c', type: 'function', function: { name: 'f', arguments: { a: 1 } } },
    ]);
  });
});

describe('includeUsageOf', () => {
  it('is true only for stream_options.include_usage: true', () => {
    expect(includeUsageOf({ stream: true, stream_options: { include_usage: true } })).toBe(true);
    expect(includeUsageOf({ stream: true, stream_options: { include_usage: false } })).toBe(false);
    expect(includeUsageOf({ stream: true })).toBe(false);
    expect(includeUsageOf(null)).toBe(false);
  });
});
