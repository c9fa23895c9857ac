import OpenAI, { type APIError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { Cassette } from '../cassette/types.ts';
import { startModelServer, type ModelServer } from './server.ts';

const open: ModelServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

const chunk = (delta: object, finish: string | null = null) =>
  JSON.stringify({
    id: 'rec-1',
    object: 'chat.completion.chunk',
    created: 9,
    model: 'recorded',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

const exchange = (response: object) => ({
  request: { method: 'POST', path: '/v1/chat/completions', body: { messages: [] } },
  response: { headers: {}, ...response },
});

const cassette = {
  meta: { responseOnly: false },
  exchanges: [
    exchange({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      events: [
        { data: chunk({ role: 'assistant', content: 'in $WORKSPACE' }) },
        {
          data: chunk({
            tool_calls: [
              {
                index: 0,
                id: 'c1',
                type: 'function',
                function: { name: 'read_file', arguments: '{"path":' },
              },
            ],
          }),
        },
        { data: chunk({ tool_calls: [{ index: 0, function: { arguments: '"a.txt"}' } }] }) },
        { data: chunk({}, 'tool_calls') },
        { data: '[DONE]' },
      ],
    }),
    exchange({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: {
        id: 'rec-2',
        object: 'chat.completion',
        created: 10,
        model: 'recorded',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'c2',
                  type: 'function',
                  function: { name: 'read_file', arguments: '{"path":"b.txt"}' },
                },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
      },
    }),
    exchange({ status: 429, body: { error: { message: 'slow down' } } }),
  ],
} as unknown as Cassette;

describe('a cassette served in the mode the request asks for', () => {
  it('sends a recorded stream to a plain request as one body and a body to a streaming one as events', async () => {
    const server = await startModelServer({
      cassette,
      workspace: '/tmp/ws',
      toolMap: { read_file: { name: 'Read', args: { path: 'file_path' } } },
    });
    open.push(server);
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 });

    const plain = await client.chat.completions.create({ model: 'm', messages: [] });
    expect(plain.id).toBe('rec-1');
    expect(plain.choices[0]!.message.content).toBe('in /tmp/ws');
    // Assembled, the arguments are whole: the tool map renames their keys too.
    expect(plain.choices[0]!.message.tool_calls).toEqual([
      { id: 'c1', type: 'function', function: { name: 'Read', arguments: '{"file_path":"a.txt"}' } },
    ]);
    expect(plain.choices[0]!.finish_reason).toBe('tool_calls');

    const stream = client.chat.completions.stream({
      model: 'm',
      messages: [],
      stream_options: { include_usage: true },
    });
    const final = await stream.finalChatCompletion();
    expect(final.id).toBe('rec-2');
    expect(final.choices[0]!.message.tool_calls).toEqual([
      { id: 'c2', type: 'function', function: { name: 'Read', arguments: '{"file_path":"b.txt"}' } },
    ]);
    expect(final.usage).toEqual({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 });

    // An error status goes as recorded, whatever the mode.
    const error = (await client.chat.completions
      .create({ model: 'm', messages: [], stream: true })
      .catch((e: unknown) => e)) as APIError;
    expect(error.status).toBe(429);
    expect(server.requests.map((r) => [r.turn, r.stream, r.converted])).toEqual([
      [0, false, 'stream_to_body'],
      [1, true, 'body_to_stream'],
      [2, true, undefined],
    ]);
  });

  it('sends each response as recorded when the request asks in the recorded mode', async () => {
    const server = await startModelServer({ cassette });
    open.push(server);
    const post = (stream: boolean) =>
      fetch(`${server.baseURL}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'm', messages: [], stream }),
      });
    expect((await post(true)).headers.get('content-type')).toBe('text/event-stream');
    const body = await post(false);
    expect(body.headers.get('content-type')).toBe('application/json');
    expect(((await body.json()) as { id: string }).id).toBe('rec-2');
    expect(server.requests.every((r) => r.converted === undefined)).toBe(true);
  });

  it('leaves the usage chunk out of a converted stream unless the request asked for it', async () => {
    const server = await startModelServer({ cassette: { ...cassette, exchanges: [cassette.exchanges[1]!] } });
    open.push(server);
    const response = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: [], stream: true }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const text = await response.text();
    expect(text).not.toContain('"usage"');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });
});
