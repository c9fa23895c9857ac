import OpenAI, { APIError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../../harness/model/scripted-model.ts';
import type { Cassette } from '../cassette/types.ts';
import { startModelServer, type ModelServer } from './server.ts';

const open: ModelServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function serve(model: ScriptedTurn[], toolMap?: Parameters<typeof startModelServer>[0]['toolMap']) {
  const server = await startModelServer({ scenario: { model }, ...(toolMap ? { toolMap } : {}) });
  open.push(server);
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 });
  return { server, client };
}

const TOOL_TURN: ScriptedTurn = {
  content: 'reading',
  tool_calls: [
    { id: 'c1', name: 'read_file', arguments: '{"path":"a.txt"}' },
    { id: 'c2', name: 'bash', arguments: '{"command":"ls' },
  ],
};

describe('startModelServer against the openai SDK', () => {
  it('serves a non-streaming turn with tool calls, arguments verbatim (invalid JSON kept)', async () => {
    const { server, client } = await serve([TOOL_TURN, { content: 'done' }]);
    const first = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'go' }],
    });
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    expect(first.choices[0]!.message.content).toBe('reading');
    const calls = first.choices[0]!.message.tool_calls!;
    expect(calls.map((c) => c.type === 'function' && [c.id, c.function.name, c.function.arguments])).toEqual([
      ['c1', 'read_file', '{"path":"a.txt"}'],
      ['c2', 'bash', '{"command":"ls'],
    ]);
    const second = await client.chat.completions.create({ model: 'm', messages: [] });
    expect(second.choices[0]!.message.content).toBe('done');
    expect(second.choices[0]!.finish_reason).toBe('stop');
    expect(server.requests.map((r) => [r.path, r.turn, r.status, r.outcome])).toEqual([
      ['/v1/chat/completions', 0, 200, 'turn'],
      ['/v1/chat/completions', 1, 200, 'turn'],
    ]);
    expect((server.requests[0]!.body as { messages: unknown[] }).messages).toEqual([
      { role: 'user', content: 'go' },
    ]);
  });

  it('streams chunks with tool_call deltas that the SDK assembles, ending in [DONE]', async () => {
    const { server, client } = await serve([
      { ...TOOL_TURN, usage: { prompt_tokens: 5, completion_tokens: 2 } },
    ]);
    const stream = await client.chat.completions.create({ model: 'm', messages: [], stream: true });
    let content = '';
    const args: string[] = [];
    const names: string[] = [];
    let finish: string | null = null;
    let usage: unknown;
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices[0];
      if (!choice) continue;
      content += choice.delta.content ?? '';
      for (const call of choice.delta.tool_calls ?? []) {
        if (call.function?.name) names[call.index] = call.function.name;
        args[call.index] = (args[call.index] ?? '') + (call.function?.arguments ?? '');
      }
      finish = choice.finish_reason ?? finish;
    }
    expect(content).toBe('reading');
    expect(names).toEqual(['read_file', 'bash']);
    expect(args).toEqual(['{"path":"a.txt"}', '{"command":"ls']);
    expect(finish).toBe('tool_calls');
    expect(usage).toEqual({ prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 });
    expect(server.requests[0]!.stream).toBe(true);
  });

  it('answers a scripted error with its status and body, and tool_use_failed as Groq sends it', async () => {
    const failed = {
      error: {
        message: 'Failed to call a function.',
        type: 'invalid_request_error',
        code: 'tool_use_failed',
      },
    };
    const { client } = await serve([
      { error: { status: 429, body: { error: { message: 'slow down' } } } },
      { error: { status: 400, body: failed } },
    ]);
    const first = await client.chat.completions.create({ model: 'm', messages: [] }).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(APIError);
    expect((first as APIError).status).toBe(429);
    expect((first as APIError).message).toContain('slow down');
    const second = (await client.chat.completions
      .create({ model: 'm', messages: [] })
      .catch((e: unknown) => e)) as APIError;
    expect(second.status).toBe(400);
    expect(second.error).toEqual(failed.error);
  });

  it('answers a request past the script with HTTP 400 script_exhausted, recorded as exhausted', async () => {
    const { server, client } = await serve([{ content: 'only' }]);
    await client.chat.completions.create({ model: 'm', messages: [] });
    const error = (await client.chat.completions
      .create({ model: 'm', messages: [] })
      .catch((e: unknown) => e)) as APIError;
    expect(error.status).toBe(400);
    expect(error.message).toContain('the scenario script has 1 turns and the harness asked for turn 2');
    expect((error.error as { code: string }).code).toBe('script_exhausted');
    expect(server.requests.map((r) => r.outcome)).toEqual(['turn', 'exhausted']);
    expect(server.served()).toBe(1);
  });

  it('expands repeat like the scripted model, lists models, and maps tool names and keys out', async () => {
    const { server, client } = await serve(
      [{ tool_calls: [{ id: 'r', name: 'read_file', arguments: { path: 'x' } }], repeat: 2 }],
      { read_file: { name: 'readFile', args: { path: 'filePath' } } },
    );
    expect(server.turns).toBe(2);
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['scripted']);
    await client.chat.completions.create({ model: 'm', messages: [] });
    const second = await client.chat.completions.create({ model: 'm', messages: [] });
    const call = second.choices[0]!.message.tool_calls![0]!;
    expect(call.id).toBe('r_2');
    expect(call.type === 'function' && call.function).toEqual({
      name: 'readFile',
      arguments: { filePath: 'x' },
    });
  });

  it('serves /chat/completions without /v1 and answers unknown routes 404', async () => {
    const { server } = await serve([{ content: 'a' }]);
    const base = server.baseURL.replace(/\/v1$/, '');
    const ok = await fetch(`${base}/chat/completions`, { method: 'POST', body: '{"messages":[]}' });
    expect(
      ((await ok.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content,
    ).toBe('a');
    const missing = await fetch(`${base}/v1/embeddings`, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(404);
    const bad = await fetch(`${base}/v1/chat/completions`, { method: 'POST', body: 'not json' });
    expect(bad.status).toBe(400);
    expect(server.requests.map((r) => r.outcome)).toEqual(['turn', 'not_found', 'bad_request']);
  });

  it('serves a cassette in order: a recorded stream as events, a body as JSON', async () => {
    const chunk = (delta: object, finish: string | null = null) =>
      JSON.stringify({
        id: 'x',
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
    const cassette = {
      meta: { responseOnly: false },
      exchanges: [
        {
          request: { method: 'POST', path: '/v1/chat/completions', body: { messages: [] } },
          response: {
            status: 200,
            headers: {},
            events: [
              { data: chunk({ content: 'hi $WORKSPACE' }) },
              { data: chunk({}, 'stop') },
              { data: '[DONE]' },
            ],
          },
        },
        {
          request: { method: 'POST', path: '/v1/chat/completions', body: { messages: [] } },
          response: { status: 500, headers: {}, body: { error: { message: 'boom' } } },
        },
      ],
    } as unknown as Cassette;
    const server = await startModelServer({ cassette, workspace: '/tmp/ws' });
    open.push(server);
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: 'm', messages: [], stream: true });
    let text = '';
    for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
    expect(text).toBe('hi /tmp/ws');
    const error = (await client.chat.completions
      .create({ model: 'm', messages: [] })
      .catch((e: unknown) => e)) as APIError;
    expect(error.status).toBe(500);
    expect(server.requests.map((r) => r.turn)).toEqual([0, 1]);
  });
});

describe('a provider error that outlasts the script', () => {
  it('answers a retry of a last retryable error with the same error, marked retry, not script_exhausted', async () => {
    const error = { error: { status: 429, body: { error: { message: 'slow down' } } } } as ScriptedTurn;
    const { server } = await serve([{ content: 'hi' }, error]);
    const post = () =>
      fetch(`${server.baseURL}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'm', messages: [] }),
      });
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(429);
    const retry = await post();
    expect(retry.status).toBe(429);
    expect(server.requests.map((r) => [r.outcome, r.turn, r.retry ?? false])).toEqual([
      ['turn', 0, false],
      ['error_turn', 1, false],
      ['error_turn', 1, true],
    ]);
  });

  it('still answers script_exhausted after a last turn that is not a retryable error', async () => {
    const error = { error: { status: 400, body: { error: { message: 'bad' } } } } as ScriptedTurn;
    const { server } = await serve([error]);
    const post = () =>
      fetch(`${server.baseURL}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'm', messages: [] }),
      });
    await post();
    expect((await post()).status).toBe(400);
    expect(server.requests.at(-1)?.outcome).toBe('exhausted');
  });
});
