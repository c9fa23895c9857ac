import { describe, expect, it } from 'vitest';
import { assembleChunks, parseSseData, responseFromCompletion, StreamAssembler } from './stream-assembler.ts';

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'c',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const calls = (...toolCalls: Record<string, unknown>[]) => chunk({ tool_calls: toolCalls });
const summary = (chunks: unknown[]) =>
  assembleChunks(chunks).toolCalls.map((c) => [c.id ?? null, c.function?.name, c.function?.arguments]);

describe('StreamAssembler', () => {
  it('assembles content, reasoning, finish reason, usage and the serving model', () => {
    const turn = assembleChunks([
      { ...chunk({ role: 'assistant', reasoning_content: 'think ' }), model: 'm-1' },
      chunk({ reasoning_content: 'more' }),
      chunk({ content: 'Hel' }),
      chunk({ content: 'lo' }),
      chunk({}, 'stop'),
      { id: 'c', choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } },
    ]);
    expect(turn).toEqual({
      content: 'Hello',
      toolCalls: [],
      finishReason: 'stop',
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
      reasoningContent: 'think more',
      reasoningField: 'reasoning_content',
      modelServed: 'm-1',
    });
  });

  it('keys calls by index: ids and names only on the first delta, arguments interleaved', () => {
    expect(
      summary([
        calls({ index: 0, id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '' } }),
        calls({ index: 1, id: 'call_b', type: 'function', function: { name: 'list_dir' } }),
        calls({ index: 0, function: { arguments: '{"path":' } }),
        calls({ index: 1, function: { arguments: '{"path":"."}' } }),
        calls({ index: 0, function: { arguments: '"a.txt"}' } }),
      ]),
    ).toEqual([
      ['call_a', 'read_file', '{"path":"a.txt"}'],
      ['call_b', 'list_dir', '{"path":"."}'],
    ]);
  });

  it('handles indexes starting at 1 and arriving out of order, returning calls in index order', () => {
    const turn = assembleChunks([
      calls({ index: 2, id: 'second', function: { name: 'b', arguments: '{}' } }),
      calls({ index: 1, id: 'first', function: { name: 'a', arguments: '{}' } }),
    ]);
    expect(turn.toolCalls.map((c) => [c.id, c.index])).toEqual([
      ['first', 1],
      ['second', 2],
    ]);
  });

  it('calls whose ids never arrive stay without id (the harness assigns one); names may arrive late', () => {
    expect(
      summary([
        calls({ index: 0, function: { arguments: '{"pa' } }),
        calls({ index: 0, function: { name: 'read_file', arguments: 'th":"x"}' } }),
        calls({ index: 1, function: { name: 'get_time' } }),
      ]),
    ).toEqual([
      [null, 'read_file', '{"path":"x"}'],
      [null, 'get_time', ''],
    ]);
  });

  it('ids arriving on a later delta are kept', () => {
    expect(
      summary([
        calls({ index: 0, function: { name: 'read_file', arguments: '{' } }),
        calls({ index: 0, id: 'late', function: { arguments: '}' } }),
      ]),
    ).toEqual([['late', 'read_file', '{}']]);
  });

  it('without index: a new id starts a call, no id continues the last one', () => {
    expect(
      summary([
        calls({ id: 'a', function: { name: 'read_file', arguments: '{"path":' } }),
        calls({ function: { arguments: '"x"}' } }),
        calls({ id: 'b', function: { name: 'list_dir', arguments: '{"path":"."}' } }),
        calls({ id: 'a', function: { arguments: '' } }),
      ]),
    ).toEqual([
      ['a', 'read_file', '{"path":"x"}'],
      ['b', 'list_dir', '{"path":"."}'],
    ]);
  });

  it('every parallel call at index 0 with its own id: separate calls, later id-less deltas continue the newest', () => {
    expect(
      summary([
        calls({ index: 0, id: 'A', function: { name: 'read_file', arguments: '' } }),
        calls({ index: 0, function: { arguments: '{"path":"a"}' } }),
        calls({ index: 0, id: 'B', function: { name: 'list_dir', arguments: '' } }),
        calls({ index: 0, function: { arguments: '{"path":"."}' } }),
      ]),
    ).toEqual([
      ['A', 'read_file', '{"path":"a"}'],
      ['B', 'list_dir', '{"path":"."}'],
    ]);
  });

  it('keeps arguments streamed as an object as their JSON text', () => {
    expect(
      summary([
        calls({ index: 0, id: 'o', function: { name: 'read_file', arguments: { path: 'README.md' } } }),
      ]),
    ).toEqual([['o', 'read_file', '{"path":"README.md"}']]);
  });

  it('ignores shapes it does not know, an empty finish reason and non-object chunks', () => {
    const assembler = new StreamAssembler();
    for (const item of [
      null,
      'x',
      42,
      { choices: 'no' },
      { choices: [null, { delta: 'x' }] },
      chunk({ tool_calls: [null, 'x'] }),
      chunk({ content: 'ok' }, ''),
      chunk({}, 'length'),
    ])
      assembler.push(item);
    expect(assembler.finish()).toEqual({ content: 'ok', toolCalls: [], finishReason: 'length' });
  });

  it('a name repeated whole on every delta is set, never concatenated (as the openai SDK stream helper does)', () => {
    expect(
      summary([
        calls({ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }),
        calls({ index: 0, function: { name: 'get_weather', arguments: '{"city":' } }),
        calls({ index: 0, function: { name: 'get_weather', arguments: '"Paris"}' } }),
        calls({ index: 0, function: { name: '', arguments: '' } }),
      ]),
    ).toEqual([['call_1', 'get_weather', '{"city":"Paris"}']]);
  });

  it('content given as a list of parts adds its text', () => {
    const turn = assembleChunks([
      chunk({ content: [{ type: 'text', text: 'Hel' }] }),
      chunk({
        content: [
          { type: 'text', text: 'lo' },
          { type: 'image_url', image_url: { url: 'x' } },
        ],
      }),
    ]);
    expect(turn.content).toBe('Hello');
    // An image part: the parts are kept too, text merged.
    expect(turn.contentParts).toEqual([
      { type: 'text', text: 'Hello' },
      { type: 'image_url', image_url: { url: 'x' } },
    ]);
    expect(assembleChunks([chunk({ content: 'a' }), chunk({ content: 'b' })])).not.toHaveProperty(
      'contentParts',
    );
  });

  it('streamed thinking parts (Mistral) merge into one part per run of the same type; refusal deltas append', () => {
    const thinking = (text: string) => ({ type: 'thinking', thinking: [{ type: 'text', text }] });
    const turn = assembleChunks([
      chunk({ content: [thinking('12 * 12')] }),
      chunk({ content: [thinking(' = 144')] }),
      chunk({ content: [{ ...thinking(''), closed: true }] }),
      chunk({ content: [{ type: 'text', text: '14' }] }),
      chunk({ content: '4' }),
    ]);
    expect(turn.content).toBe('144');
    expect(turn.contentParts).toEqual([
      { type: 'thinking', thinking: [{ type: 'text', text: '12 * 12 = 144' }], closed: true },
      { type: 'text', text: '144' },
    ]);
    const refused = assembleChunks([chunk({ refusal: "I'm sorry, " }), chunk({ refusal: 'I cannot help.' })]);
    expect(refused).toMatchObject({ content: null, refusal: "I'm sorry, I cannot help." });
  });

  it('merges streamed reasoning_details by index, signature set from a later delta (OpenRouter)', () => {
    const turn = assembleChunks([
      chunk({ reasoning: null, reasoning_details: [] }),
      chunk({
        reasoning: 'This',
        reasoning_details: [{ type: 'reasoning.text', text: 'This', index: 0, format: 'f' }],
      }),
      chunk({
        reasoning: ' is',
        reasoning_details: [{ type: 'reasoning.text', text: ' is', index: 0, format: 'f' }],
      }),
      chunk({ reasoning_details: [{ type: 'reasoning.text', signature: 'SIG', index: 0, format: 'f' }] }),
      chunk({ reasoning_details: [{ type: 'reasoning.encrypted', data: 'abc', index: 1 }] }),
    ]);
    expect(turn.reasoningContent).toBe('This is');
    expect(turn.reasoningField).toBe('reasoning');
    expect(turn.reasoningDetails).toEqual([
      { type: 'reasoning.text', text: 'This is', index: 0, format: 'f', signature: 'SIG' },
      { type: 'reasoning.encrypted', data: 'abc', index: 1 },
    ]);
  });

  it('takes Groq-style usage from x_groq when no usage field is given', () => {
    expect(
      assembleChunks([
        { ...chunk({}, 'stop'), x_groq: { usage: { prompt_tokens: 1, completion_tokens: 1 } } },
      ]).usage,
    ).toEqual({ prompt_tokens: 1, completion_tokens: 1 });
  });
});

describe('parseSseData', () => {
  it('returns the data payloads in order, joining multi-line data and skipping comments', () => {
    expect(
      parseSseData(
        ': keep-alive\n\ndata: {"a":1}\n\ndata:{"b":2}\r\n\r\nevent: x\ndata: line1\ndata: line2\n\ndata: [DONE]\n\n',
      ),
    ).toEqual(['{"a":1}', '{"b":2}', 'line1\nline2', '[DONE]']);
  });
});

describe('responseFromCompletion', () => {
  it('keeps a refusal (OpenAI message.refusal) and never a text-only part list', () => {
    const refusal = responseFromCompletion({
      choices: [
        {
          message: { role: 'assistant', content: null, refusal: "I'm sorry, I can't help." },
          finish_reason: 'stop',
        },
      ],
    });
    expect(refusal).toMatchObject({
      content: null,
      refusal: "I'm sorry, I can't help.",
      finishReason: 'stop',
    });
    const plain = responseFromCompletion({
      choices: [
        { message: { content: [{ type: 'text', text: 'a' }], refusal: null }, finish_reason: 'stop' },
      ],
    });
    expect(plain).toEqual({ content: 'a', toolCalls: [], finishReason: 'stop' });
  });

  it('reads the first choice and tolerates missing parts', () => {
    expect(
      responseFromCompletion({
        choices: [
          {
            message: { content: 'hi', tool_calls: [{ id: 'x' }, 'bad'], reasoning: 'r' },
            finish_reason: 'stop',
          },
        ],
        model: 'm',
      }),
    ).toEqual({
      content: 'hi',
      toolCalls: [{ id: 'x' }, {}],
      finishReason: 'stop',
      reasoningContent: 'r',
      reasoningField: 'reasoning',
      modelServed: 'm',
    });
    expect(responseFromCompletion('nonsense')).toEqual({ content: null, toolCalls: [], finishReason: null });
  });

  it('content as a list of parts becomes its text; reasoning_details kept as received', () => {
    const details = [{ type: 'reasoning.text', text: 'Let me get the weather.', signature: 'Ev', index: 0 }];
    const turn = responseFromCompletion({
      choices: [
        {
          message: {
            content: [
              { type: 'thinking', thinking: [{ type: 'text', text: 'ignored' }] },
              { type: 'text', text: 'answer' },
            ],
            reasoning_details: details,
            reasoning_content: 'why',
          },
          finish_reason: 'stop',
        },
      ],
    });
    expect(turn.content).toBe('answer');
    expect(turn.contentParts).toEqual([
      { type: 'thinking', thinking: [{ type: 'text', text: 'ignored' }] },
      { type: 'text', text: 'answer' },
    ]);
    expect(turn.reasoningDetails).toEqual(details);
    expect(turn).toMatchObject({ reasoningContent: 'why', reasoningField: 'reasoning_content' });
  });
});
