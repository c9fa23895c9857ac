import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../harness/config.ts';
import { completion, json, sse, toolCallChunks, useStub } from '../harness/testing/stub-server.ts';
import { loadCassette } from '../eval/cassette/load.ts';
import { runRecording } from '../eval/run-recording.ts';
import { cli, put, STACK_LINE, tempDir } from './cli.test-helpers.ts';
import type { CliIo } from './io.ts';
import { DUMMY_API_KEY, servePassthrough } from './serve-passthrough.ts';

const KEY = 'sk-test-PassthroughUpstream0123456789';
/** The command under test: the hidden `serve-passthrough` until `serve --upstream` dispatches to it, then `serve`. */
const SERVE = 'serve';
const stub = useStub();

/**
 * A "foreign harness" in plain Node (no SDK, nothing of ours): a loop over fetch with its own
 * read_file tool in its working folder, streaming the first turn. It prints the key it was given
 * on stderr and its final answer on stdout.
 */
const FOREIGN_HARNESS = `
import { readFileSync } from 'node:fs';
const base = process.env.OPENAI_BASE_URL;
const headers = { 'content-type': 'application/json', authorization: 'Bearer ' + process.env.OPENAI_API_KEY };
const tools = [{ type: 'function', function: { name: 'read_file', description: 'Read a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } }];
const messages = [{ role: 'user', content: process.argv[2] }];
process.stderr.write('key=' + process.env.OPENAI_API_KEY + '\\n');
for (let turn = 0; turn < 5; turn++) {
  const stream = turn === 0;
  const res = await fetch(base + '/chat/completions', { method: 'POST', headers,
    body: JSON.stringify({ model: 'foreign-model', messages, tools, stream }) });
  if (!res.ok) { console.error('HTTP ' + res.status); process.exit(3); }
  let message;
  if (stream) {
    message = { role: 'assistant', content: null, tool_calls: [] };
    for (const block of (await res.text()).split('\\n\\n')) {
      const data = block.replace(/^data: /, '').trim();
      if (!data || data === '[DONE]') continue;
      for (const choice of JSON.parse(data).choices) for (const call of choice.delta.tool_calls ?? []) {
        const slot = (message.tool_calls[call.index] ??= { id: call.id, type: 'function', function: { name: '', arguments: '' } });
        if (call.function?.name) slot.function.name = call.function.name;
        slot.function.arguments += call.function?.arguments ?? '';
      }
    }
  } else message = (await res.json()).choices[0].message;
  messages.push(message);
  if (!message.tool_calls?.length) { console.log(message.content); process.exit(0); }
  for (const call of message.tool_calls)
    messages.push({ role: 'tool', tool_call_id: call.id,
      content: readFileSync(JSON.parse(call.function.arguments).path, 'utf8') });
}
process.exit(4);
`;

/** The same loop in Python's standard library (urllib, json): nothing of the pass-through assumes Node. */
const PYTHON_HARNESS = `
import json, os, sys, urllib.request
base = os.environ["OPENAI_BASE_URL"]
messages = [{"role": "user", "content": sys.argv[1]}]
tools = [{"type": "function", "function": {"name": "read_file", "description": "Read a file",
  "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}}]
for _ in range(5):
    request = urllib.request.Request(base + "/chat/completions",
        data=json.dumps({"model": "py-model", "messages": messages, "tools": tools}).encode(),
        headers={"content-type": "application/json", "authorization": "Bearer " + os.environ["OPENAI_API_KEY"]})
    message = json.load(urllib.request.urlopen(request))["choices"][0]["message"]
    messages.append(message)
    if not message.get("tool_calls"):
        print(message["content"])
        sys.exit(0)
    for call in message["tool_calls"]:
        path = json.loads(call["function"]["arguments"])["path"]
        messages.append({"role": "tool", "tool_call_id": call["id"], "content": open(path).read()})
sys.exit(4)
`;

const PYTHON = spawnSync('python3', ['--version']).status === 0;

function queueSession() {
  stub().queue.push(
    sse(toolCallChunks('call_a', 'read_file', '{"path":"a.txt"}')),
    json(200, completion({ content: 'a.txt says hello.' })),
  );
}

function foreignWorkspace(): string {
  const dir = tempDir('hb-pt-');
  put(dir, { 'a.txt': 'hello from a\n', 'harness.mjs': FOREIGN_HARNESS });
  return dir;
}

function serveArgs(extra: string[] = []): string[] {
  return [SERVE, '--upstream', stub().baseURL, '--record', 'out.json', ...extra];
}

describe('serve --upstream --exec', () => {
  it('records a foreign harness end to end, and the cassette replays with served model turns', async () => {
    const dir = foreignWorkspace();
    queueSession();
    const run = await cli(
      dir,
      serveArgs(['--exec', '--', process.execPath, 'harness.mjs', 'What does a.txt say?']),
      { OPENAI_API_KEY: KEY },
    );
    expect(run.err).toContain(`key=${DUMMY_API_KEY}`);
    expect(run.code).toBe(0);
    expect(run.out).toContain('a.txt says hello.');
    expect(run.out).toMatch(/recorded 2 model exchanges \(1 streamed, 0 error statuses\) → out\.json/);
    expect(run.out).toMatch(/exited with code 0/);
    expect(run.out).toContain('harness-bench replay out.json');
    expect(stub().received.map((r) => r.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
    const text = readFileSync(path.join(dir, 'out.json'), 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(DUMMY_API_KEY);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const cassette = loadCassette(path.join(dir, 'out.json'));
    expect(cassette.meta).toMatchObject({
      id: 'out',
      task: 'What does a.txt say?',
      modelRequested: 'foreign-model',
      imported: { format: 'passthrough', file: 'out.json' },
    });
    // The second request carries the foreign harness's own tool result.
    expect(JSON.stringify(cassette.exchanges[1]!.request.body)).toContain('hello from a');

    const replay = await runRecording(cassette, 'out.json', { name: 'default', config: DEFAULT_CONFIG });
    expect(replay.result.status).toBe('pass');
    expect(replay.result.checks.find((c) => c.name === 'replay.servedModelTurn')).toMatchObject({
      pass: true,
    });
    expect(replay.imported!.model.served).toBe(2);
    expect(replay.run!.finalAnswer).toBe('a.txt says hello.');
    expect(replay.run!.ledger.calls.map((c) => c.tool)).toEqual(['read_file']);

    const replayed = await cli(dir, ['replay', 'out.json']);
    expect(replayed.code).toBe(0);
    expect(replayed.out).toContain('(imported, sequential by default)');
    expect(replayed.out).toContain('call_a read_file({"path":"a.txt"}) verdict allow, executed, ok');
    expect(replayed.out).toContain('2 turns served');
    expect(replayed.out).toMatch(/PASS\n$/);
  });

  it.skipIf(!PYTHON)('records a Python standard-library loop (skipped without python3)', async () => {
    const dir = foreignWorkspace();
    put(dir, { 'agent.py': PYTHON_HARNESS });
    stub().queue.push(
      json(
        200,
        completion(
          {
            content: null,
            tool_calls: [
              {
                id: 'call_p',
                type: 'function',
                function: { name: 'read_file', arguments: '{"path":"a.txt"}' },
              },
            ],
          },
          'tool_calls',
        ),
      ),
      json(200, completion({ content: 'It says hello from a.' })),
    );
    const run = await cli(dir, serveArgs(['--exec', '--', 'python3', 'agent.py', 'Read a.txt']), {
      OPENAI_API_KEY: KEY,
      PATH: process.env.PATH,
    });
    expect(run.code).toBe(0);
    expect(run.out).toContain('It says hello from a.');
    expect(run.out).toMatch(/recorded 2 model exchanges/);
    const cassette = loadCassette(path.join(dir, 'out.json'));
    expect(cassette.meta.modelRequested).toBe('py-model');
    const replay = await runRecording(cassette, 'out.json', { name: 'default', config: DEFAULT_CONFIG });
    expect(replay.result.status).toBe('pass');
    expect(replay.imported!.model.served).toBe(2);
  });

  it('writes the cassette but exits 1 when the harness fails, and says how it exited', async () => {
    const dir = foreignWorkspace();
    stub().queue.push(json(200, completion({ content: 'fine' })), json(500, { error: { message: 'boom' } }));
    writeFileSync(
      path.join(dir, 'flaky.mjs'),
      `for (const i of [1, 2]) { const r = await fetch(process.env.HARNESS_BASE_URL + '/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'try ' + i }] }) }); if (!r.ok) process.exit(3); }`,
    );
    const run = await cli(dir, serveArgs(['--exec', '--', process.execPath, 'flaky.mjs']), {
      OPENAI_API_KEY: KEY,
    });
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/recorded 2 model exchanges \(0 streamed, 1 error status\)/);
    expect(run.out).toContain('flaky.mjs exited with code 3');
    expect(loadCassette(path.join(dir, 'out.json')).exchanges[1]!.response.status).toBe(500);
  });

  it('on SIGTERM stops the harness, writes what it recorded and exits 1', async () => {
    const dir = foreignWorkspace();
    let stop!: (signal: string) => void;
    const stopped = new Promise<string>((resolve) => (stop = resolve));
    stub().queue.push(async (req, res) => {
      json(200, completion({ content: 'first' }))(req, res, {});
      setTimeout(() => stop('SIGTERM'), 50);
    });
    writeFileSync(
      path.join(dir, 'forever.mjs'),
      `await fetch(process.env.OPENAI_BASE_URL + '/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'go' }] }) }); setInterval(() => {}, 1000);`,
    );
    let out = '';
    let err = '';
    const io: CliIo = {
      stdout: (t) => (out += t),
      stderr: (t) => (err += t),
      cwd: dir,
      env: { OPENAI_API_KEY: KEY },
      isTTY: false,
    };
    const code = await servePassthrough(
      {
        upstream: stub().baseURL,
        record: 'out.json',
        exec: true,
        command: [process.execPath, 'forever.mjs'],
      },
      io,
      { stop: () => stopped, stdin: 'ignore' },
    );
    expect(err).toContain('SIGTERM: stopping');
    expect(out).toContain('forever.mjs exited on SIGTERM');
    expect(out).toContain('recorded 1 model exchange');
    expect(code).toBe(1);
    expect(loadCassette(path.join(dir, 'out.json')).exchanges).toHaveLength(1);
  });

  it('writes nothing and exits 1 when the harness made no chat completion', async () => {
    const dir = foreignWorkspace();
    const run = await cli(dir, serveArgs(['--exec', '--', process.execPath, '-e', '']));
    expect(run.code).toBe(1);
    expect(run.err).toMatch(
      /nothing was recorded: no request reached the upstream; out\.json was not written/,
    );
    expect(existsSync(path.join(dir, 'out.json'))).toBe(false);
  });

  it('refuses to write a cassette the secret scan flags: exit 2, nothing written', async () => {
    const dir = foreignWorkspace();
    stub().queue.push(
      sse(toolCallChunks('call_a', 'read_file', '{"path":"a.txt"}')),
      json(200, completion({ content: 'the key is sk-LEAKEDleakedLEAKEDleaked0123456789' })),
    );
    const run = await cli(dir, serveArgs(['--exec', '--', process.execPath, 'harness.mjs', 'go']), {
      OPENAI_API_KEY: KEY,
    });
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/refusing to write out\.json: .*api-key sk-LEAKE…/s);
    expect(run.err).toContain('Nothing was written.');
    expect(run.err).not.toContain('sk-LEAKEDleakedLEAKEDleaked0123456789');
    expect(existsSync(path.join(dir, 'out.json'))).toBe(false);
  });
});

describe('serve --upstream: bad input before anything starts', () => {
  it('refuses to overwrite --record without --force, and overwrites with it', async () => {
    const dir = foreignWorkspace();
    put(dir, { 'out.json': 'precious\n' });
    const run = await cli(dir, serveArgs(['--exec', '--', process.execPath, 'harness.mjs', 'go']));
    expect(run.code).toBe(2);
    expect(run.err).toContain('--record out.json: exists; pass --force to overwrite it');
    expect(run.err).not.toMatch(STACK_LINE);
    expect(readFileSync(path.join(dir, 'out.json'), 'utf8')).toBe('precious\n');
    expect(stub().received).toEqual([]);
    queueSession();
    const forced = await cli(
      dir,
      serveArgs(['--force', '--exec', '--', process.execPath, 'harness.mjs', 'go']),
    );
    expect(forced.code).toBe(0);
    expect(loadCassette(path.join(dir, 'out.json')).exchanges).toHaveLength(2);
  });

  it.each([
    [['--record', 'out.json', '--upstream', 'not a url'], /--upstream: must be an http\(s\) base URL/],
    [['--upstream', 'http://127.0.0.1:9/v1'], /--record: give the cassette to write/],
    [
      [...['--upstream', 'http://127.0.0.1:9/v1', '--record', 'out.json'], '--exec'],
      /--exec: give the harness command/,
    ],
    [
      [...['--upstream', 'http://127.0.0.1:9/v1', '--record', 'out.json'], '--port', '70000'],
      /--port: must be a port/,
    ],
    [
      [...['--upstream', 'http://127.0.0.1:9/v1', '--record', 'out.json'], '--api-key-env', 'NOPE_KEY'],
      /--api-key-env: the variable NOPE_KEY is not set/,
    ],
    [
      [...['--upstream', 'http://127.0.0.1:9/v1', '--record', 'sub/out.json/x']],
      /nothing can be written under it/,
    ],
    [
      [
        ...['--upstream', 'http://127.0.0.1:9/v1', '--record', 'out.json'],
        '--exec',
        '--',
        'no-such-harness-xyz',
      ],
      /cannot start no-such-harness-xyz: .*ENOENT/,
    ],
  ])('%j exits 2 with a reason', async (args, reason) => {
    const dir = foreignWorkspace();
    put(dir, { 'sub/out.json': '{}' });
    const run = await cli(dir, [SERVE, ...args]);
    expect(run.err).toMatch(reason);
    expect(run.code).toBe(2);
    expect(existsSync(path.join(dir, 'out.json'))).toBe(false);
  });
});

describe('serve --upstream without --exec', () => {
  it('serves until stopped, then writes the cassette atomically', async () => {
    const dir = tempDir('hb-pt-');
    let out = '';
    let err = '';
    const io: CliIo = {
      stdout: (t) => (out += t),
      stderr: (t) => (err += t),
      cwd: dir,
      env: { OPENAI_API_KEY: KEY },
      isTTY: false,
    };
    let stop!: (signal: string) => void;
    const stopped = new Promise<string>((resolve) => (stop = resolve));
    stub().queue.push(json(200, completion({ content: 'hi' })));
    const code = await servePassthrough({ upstream: stub().baseURL, record: 'rec/session.json' }, io, {
      stop: () => stopped,
      onListening: (baseURL) => {
        void new OpenAI({ baseURL, apiKey: 'x', maxRetries: 0 }).chat.completions
          .create({ model: 'm', messages: [{ role: 'user', content: 'hello' }] })
          .then(() => stop('SIGINT'));
      },
    });
    expect(code).toBe(0);
    expect(out).toMatch(/pass-through endpoint: http:\/\/127\.0\.0\.1:\d+\/v1 → http:\/\/127\.0\.0\.1/);
    expect(out).toContain('Ctrl-C (or SIGTERM) writes the cassette');
    expect(err).toMatch(/#1 POST \/v1\/chat\/completions → 200/);
    expect(err).toContain('SIGINT: stopping and writing the cassette');
    expect(out).toContain('recorded 1 model exchange (0 streamed, 0 error statuses) → rec/session.json');
    expect(loadCassette(path.join(dir, 'rec/session.json')).meta.task).toBe('hello');
    expect(readdirSync(path.join(dir, 'rec'))).toEqual(['session.json']);
  });
});
