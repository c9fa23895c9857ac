import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import nock from 'nock';
import { beforeEach, describe, expect, it } from 'vitest';
import { OpenAIModel } from '../harness/model/openai-model.ts';
import { loadCassette } from '../eval/cassette/load.ts';
import { importRecording } from '../eval/import/index.ts';
import {
  completion,
  json,
  sse,
  useStub,
  textChunks,
  toolCallChunks,
  type StubServer,
} from '../harness/testing/stub-server.ts';
import { PACKAGE_ROOT } from '../eval/config-load.ts';
import type { CliIo } from './io.ts';
import { main } from './main.ts';

const KEY = 'sk-proj-CliRecorderKey0123456789abcdefXYZ';
const getStub = useStub();
let stub: StubServer;
beforeEach(() => {
  stub = getStub();
});

async function cli(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]) {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    cwd,
    env: { NO_COLOR: '1', ...env },
    isTTY: false,
  };
  const code = await main(['node', 'harness-bench', ...args], io);
  return { code, out, err };
}

function project(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'hb-cli-rec-'));
  writeFileSync(path.join(dir, 'notes.txt'), 'remember the milk\n');
  writeFileSync(
    path.join(dir, 'writes.json'),
    JSON.stringify({ permissions: { effects: { write: 'allow' } } }),
  );
  return dir;
}

function queueSession(): void {
  stub.queue.push(
    sse(toolCallChunks('call_n1', 'read_file', '{"path":"notes.txt"}'), {
      headers: { 'openai-organization': 'org-CliOrg1234567890', 'x-echo': KEY },
    }),
    json(503, { error: { message: 'overloaded', type: 'server_error' } }, { 'retry-after': '0' }),
    sse(toolCallChunks('call_w1', 'write_file', '{"path":"todo.txt","content":"milk"}')),
    sse(textChunks('Wrote todo.txt.')),
  );
}

describe('harness-bench record → replay', () => {
  it('records a live session with no secret in the cassette, and the replay exits 0 offline', async () => {
    const dir = project();
    queueSession();
    const recorded = await cli(
      dir,
      { HARNESS_API_KEY: KEY },
      'record',
      '--base-url',
      stub.baseURL,
      '--model',
      'stub-model',
      '--task',
      'Put the note into todo.txt.',
      '-c',
      'writes.json',
      '--out',
      'cassettes/session.json',
    );
    expect(recorded.err).not.toMatch(/error/i);
    expect(recorded.code).toBe(0);
    expect(recorded.out).toMatch(/call_w1 write_file\(.*\) verdict allow, executed, ok/);
    expect(recorded.out).toMatch(/wrote cassettes\/session\.json \(4 exchanges, 3 model calls\)/);
    expect(stub.received.every((r) => r.authorization === `Bearer ${KEY}`)).toBe(true);
    const file = path.join(dir, 'cassettes/session.json');
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('org-CliOrg1234567890');
    const cassette = loadCassette(file);
    expect(cassette.meta.workspace!.files['notes.txt']).toBe('remember the milk\n');
    expect(cassette.meta.workspace!.files['todo.txt']).toBeUndefined();

    const replayed = await cli(dir, {}, 'replay', 'cassettes/session.json', '-c', 'writes.json');
    expect(replayed.out).toMatch(/no divergence/);
    expect(replayed.code).toBe(0);
    expect(stub.received).toHaveLength(4);
  });

  it('replay under a changed configuration exits 1 with the first divergence and its cause as the headline', async () => {
    const dir = project();
    queueSession();
    expect(
      (
        await cli(
          dir,
          { HARNESS_API_KEY: KEY },
          'record',
          '--base-url',
          stub.baseURL,
          '--model',
          'stub-model',
          '--task',
          'Put the note into todo.txt.',
          '-c',
          'writes.json',
          '--out',
          's.json',
        )
      ).code,
    ).toBe(0);
    const replayed = await cli(dir, {}, 'replay', 's.json');
    expect(replayed.code).toBe(1);
    const headline = replayed.out.split('\n').find((l) => l.startsWith('first divergence:'));
    expect(headline).toMatch(
      /^first divergence: turn 2, call call_w1 write_file: verdict "allow" → "ask:denied"; executed true → false/,
    );
    expect(headline).toContain('permissions.effects.write "allow" → "ask"');
    expect(replayed.out).toMatch(/requests that differ from the recording \(\d+\):\n {2}request 3: /);
    expect(replayed.out).toMatch(/FAIL: replay\.ledger/);
  });

  it('a denial whose message names the absolute workspace path replays in another folder ($WORKSPACE both ways)', async () => {
    const dir = project();
    queueSession();
    expect(
      (
        await cli(
          dir,
          {},
          'record',
          '--base-url',
          stub.baseURL,
          '--model',
          'stub-model',
          '--task',
          'Put the note into todo.txt.',
          '--out',
          'denied.json',
        )
      ).code,
    ).toBe(0);
    const text = readFileSync(path.join(dir, 'denied.json'), 'utf8');
    expect(text).not.toContain(dir);
    const replayed = await cli(dir, {}, 'replay', 'denied.json');
    expect(replayed.out).toMatch(
      /call_w1 write_file\(.*\) verdict ask:denied, not executed, approval_denied/,
    );
    expect(replayed.code).toBe(0);
  });

  it('bad input exits 2 and writes nothing: no endpoint, no model, an existing cassette', async () => {
    const dir = project();
    const none = await cli(dir, {}, 'record', '--task', 't', '--out', 'x.json');
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/--base-url: no endpoint/);
    expect(none.err).toMatch(/--model: no model/);
    writeFileSync(path.join(dir, 'x.json'), '{}');
    const exists = await cli(
      dir,
      { HARNESS_BASE_URL: stub.baseURL, HARNESS_MODEL: 'm' },
      'record',
      '--task',
      't',
      '--out',
      'x.json',
    );
    expect(exists.code).toBe(2);
    expect(exists.err).toMatch(/x\.json: exists; cassettes are evidence/);
    expect(stub.received).toHaveLength(0);
  });

  it('an endpoint nobody answers is the environment (exit 4, the fix named, nothing written)', async () => {
    const dir = project();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const r = await cli(
      dir,
      { HARNESS_API_KEY: KEY },
      'record',
      '--base-url',
      `http://127.0.0.1:${port}/v1`,
      '--model',
      'm',
      '--task',
      't',
      '--out',
      'x.json',
    );
    expect(r.code).toBe(4);
    expect(r.err).toMatch(/nothing was recorded \(no exchange reached the server\).*is the server up/);
    expect(existsSync(path.join(dir, 'x.json'))).toBe(false);
  }, 60_000);

  it('refuses to write a cassette where a key shape survives redaction (exit 1, nothing written)', async () => {
    const dir = project();
    stub.queue.push(
      json(200, completion({ content: 'I found gsk_abcdefghijklmnopqrstuvwxyz0123 in notes.' })),
    );
    const result = await cli(
      dir,
      {},
      'record',
      '--base-url',
      stub.baseURL,
      '--model',
      'm',
      '--task',
      'look',
      '--no-stream',
      '--out',
      'leak.json',
    );
    expect(result.code).toBe(1);
    expect(result.err).toMatch(
      /refusing to write .*leak\.json.*\n.*\/exchanges\/0\/response\/body\/choices\/0\/message\/content: api-key gsk_abcd…/,
    );
    expect(existsSync(path.join(dir, 'leak.json'))).toBe(false);
  });
});

describe('nock interoperability', () => {
  it('export --nock writes definitions that nock serves to the openai client, and import reads them back', async () => {
    const dir = project();
    stub.queue.push(json(200, completion({ content: 'Hello from the stub.' })));
    expect(
      (
        await cli(
          dir,
          {},
          'record',
          '--base-url',
          stub.baseURL,
          '--model',
          'm',
          '--task',
          'hi',
          '--no-stream',
          '--out',
          'hi.json',
        )
      ).code,
    ).toBe(0);
    const exported = await cli(
      dir,
      {},
      'export',
      '--nock',
      'hi.json',
      '--scope',
      'https://llm.example.test',
      '--out',
      'hi.nock.json',
    );
    expect(exported.code).toBe(0);
    const definitions = JSON.parse(readFileSync(path.join(dir, 'hi.nock.json'), 'utf8')) as Record<
      string,
      unknown
    >[];
    expect(definitions).toHaveLength(1);
    expect(definitions[0]).toMatchObject({
      scope: 'https://llm.example.test',
      method: 'POST',
      path: '/v1/chat/completions',
      status: 200,
    });

    const scopes = nock.define(definitions as unknown as nock.Definition[]);
    try {
      const cassette = loadCassette(path.join(dir, 'hi.json'));
      const body = cassette.exchanges[0]!.request.body!;
      const live = new OpenAIModel({
        baseURL: 'https://llm.example.test/v1',
        apiKey: 'x',
        deps: { sleep: async () => {}, random: () => 0 },
      });
      const turn = await live.generate({
        model: body.model as string,
        messages: body.messages as never,
        tools: body.tools as never,
        stream: false,
        settings: {},
      });
      expect(turn.content).toBe('Hello from the stub.');
      expect(scopes.every((s) => s.isDone())).toBe(true);
    } finally {
      nock.cleanAll();
    }

    const back = importRecording(path.join(dir, 'hi.nock.json'), { onWarning: () => {} });
    expect(back.meta.imported).toEqual({ format: 'nock', file: 'hi.nock.json' });
    expect(back.meta.host).toBe('llm.example.test');
    expect(back.exchanges.map((e) => e.response.body)).toEqual(
      loadCassette(path.join(dir, 'hi.json')).exchanges.map((e) => e.response.body),
    );
  });

  it('a streamed exchange exports as SSE text and imports back as the same events', async () => {
    const dir = project();
    stub.queue.push(sse(textChunks('streamed words')));
    expect(
      (
        await cli(
          dir,
          {},
          'record',
          '--base-url',
          stub.baseURL,
          '--model',
          'm',
          '--task',
          'hi',
          '--out',
          's.json',
        )
      ).code,
    ).toBe(0);
    expect((await cli(dir, {}, 'export', '--nock', 's.json', '--out', 's.nock.json')).code).toBe(0);
    const definitions = JSON.parse(readFileSync(path.join(dir, 's.nock.json'), 'utf8')) as {
      scope: string;
      response: string;
    }[];
    expect(definitions[0]!.scope).toBe('http://127.0.0.1');
    expect(definitions[0]!.response).toMatch(/^data: \{.*\n\ndata: /);
    const back = importRecording(path.join(dir, 's.nock.json'), { onWarning: () => {} });
    expect(back.exchanges[0]!.response.events!.map((e) => e.data)).toEqual(
      loadCassette(path.join(dir, 's.json')).exchanges[0]!.response.events!.map((e) => e.data),
    );
  });
});

describe('harness-bench replay --match counterfactual', () => {
  const example = 'recordings/examples/stub-read-then-write-asked.json';

  it('hands over to --then scripted turns at the first divergence (exit 0), or stops and says why (exit 1)', async () => {
    const dir = project();
    writeFileSync(path.join(dir, 'then.json'), JSON.stringify([{ content: 'Wrote summary.txt.' }]));
    const handed = await cli(
      PACKAGE_ROOT,
      {},
      'replay',
      example,
      '-c',
      'configs/permissive.json',
      '--match',
      'counterfactual',
      '--then',
      path.join(dir, 'then.json'),
    );
    expect(handed.out).toMatch(
      /counterfactual: followed the recording for 3 exchanges, then handed over to the scripted turns/,
    );
    expect(handed.code).toBe(0);
    const stopped = await cli(
      PACKAGE_ROOT,
      {},
      'replay',
      example,
      '-c',
      'configs/permissive.json',
      '--match',
      'counterfactual',
    );
    expect(stopped.out).toMatch(/no model to hand over to/);
    expect(stopped.code).toBe(1);
  });

  it('is refused for an imported cassette, and --then without it is a bad flag (exit 2)', async () => {
    expect(
      (
        await cli(
          PACKAGE_ROOT,
          {},
          'replay',
          'recordings/real/openai-gpt5mini-tool-auto-loop.json',
          '--match',
          'counterfactual',
        )
      ).code,
    ).toBe(2);
    const flag = await cli(PACKAGE_ROOT, {}, 'replay', example, '--then', 'x.json');
    expect(flag.code).toBe(2);
    expect(flag.err).toMatch(/--then: only applies with --match counterfactual/);
    expect((await cli(PACKAGE_ROOT, {}, 'export')).code).toBe(2);
  });
});
