import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, mergeConfig, type HarnessConfig } from '../../harness/config.ts';
import type { HarnessDeps } from '../../harness/deps.ts';
import { ScriptedModel } from '../../harness/model/scripted-model.ts';
import { loadCassette, saveCassette } from '../cassette/load.ts';
import { runRecording } from '../run-recording.ts';
import { RecordRefusedError, SessionRecorder } from './session-recorder.ts';
import {
  chunk,
  completion,
  json,
  sse,
  useStub,
  textChunks,
  toolCallChunks,
  type StubServer,
} from '../../harness/testing/stub-server.ts';

const API_KEY = 'sk-test-RecorderSecret0123456789abcdef';
const ORG = 'org-AbCdEf1234567890';

const getStub = useStub();
let stub: StubServer;
beforeEach(() => {
  stub = getStub();
});

/** A fake clock: every read advances 7 ms, every sleep advances by its length. */
function fakeDeps(): HarnessDeps {
  let clock = 1_764_400_000_000;
  return {
    now: () => (clock += 7),
    newId: () => 'unused',
    random: () => 0.5,
    sleep: async (ms) => void (clock += ms),
  };
}

function workspace(): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-rec-ws-')));
  writeFileSync(path.join(dir, 'a.txt'), 'alpha\n');
  writeFileSync(path.join(dir, 'b.txt'), 'beta\n');
  return dir;
}

const writesAllowed: HarnessConfig = mergeConfig(DEFAULT_CONFIG, {
  permissions: { effects: { write: 'allow' } },
});

function recorder(config: HarnessConfig, stream = true) {
  return new SessionRecorder({
    baseURL: stub.baseURL,
    apiKey: API_KEY,
    model: 'stub-model',
    config,
    workspace: workspace(),
    deps: fakeDeps(),
    env: { HARNESS_API_KEY: API_KEY },
    stream,
  });
}

/**
 * The live (streamed) session: a 429, a streamed call, a 500, a 400 tool_use_failed, another streamed call, a
 * streamed answer.
 */
function queueSession(): void {
  stub.queue.push(
    json(
      429,
      { error: { message: `Rate limit reached for ${ORG} on requests per min`, type: 'rate_limit_error' } },
      {
        'retry-after': '1',
        'openai-organization': ORG,
        'set-cookie': '__cf_bm=cookie-value-123; path=/',
        'x-echo-key': `Bearer ${API_KEY}`,
      },
    ),
    sse(toolCallChunks('call_r1', 'read_file', '{"path":"a.txt"}')),
    json(500, { error: { message: 'internal error', type: 'server_error' } }),
    json(400, {
      error: {
        message: 'Failed to call a function.',
        type: 'invalid_request_error',
        code: 'tool_use_failed',
        failed_generation: '{"name":"read_file","arguments":{"path":"b.txt"}}',
      },
    }),
    sse(toolCallChunks('call_w1', 'write_file', '{"path":"out.txt","content":"alpha beta"}')),
    sse(textChunks(`Done. (your key ${API_KEY} was never needed)`)),
  );
}

async function recordSession(config = writesAllowed) {
  queueSession();
  const session = recorder(config);
  const run = await session.run('Read a.txt and b.txt, then write out.txt with both words.');
  const cassette = session.cassette({ id: 'stub-session' });
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'hb-rec-out-')), 'stub-session.json');
  saveCassette(file, cassette);
  return { run, cassette, file };
}

describe('record then replay', () => {
  it('records every exchange with no secret, and the replay gives the same ledger', async () => {
    const { run, cassette, file } = await recordSession();
    expect(run.stopReason).toBe('final_answer');
    expect(run.ledger.calls.map((c) => [c.tool, c.verdict, c.ok])).toEqual([
      ['read_file', 'allow', true],
      ['read_file', 'allow', true],
      ['write_file', 'allow', true],
    ]);
    expect(stub.received[0]!.authorization).toBe(`Bearer ${API_KEY}`);
    expect(cassette.exchanges.map((e) => e.response.status)).toEqual([429, 200, 500, 400, 200, 200]);
    expect(cassette.exchanges[0]!.response.headers).toEqual({
      'content-type': 'application/json',
      'retry-after': '1',
      'openai-organization': 'REDACTED',
      'set-cookie': 'REDACTED',
    });
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(ORG);
    expect(text).not.toContain('cookie-value-123');
    expect(cassette.meta).toMatchObject({
      host: '127.0.0.1',
      modelRequested: 'stub-model',
      modelServed: 'stub-model-2025',
      responseOnly: false,
      workspace: { files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' } },
    });
    expect(cassette.exchanges[1]!.response.events!.length).toBeGreaterThan(3);
    expect(cassette.deps.clock!.length).toBeGreaterThan(10);

    const loaded = loadCassette(file);
    const replay = await runRecording(loaded, file, { name: 'writes-allowed', config: writesAllowed });
    expect(replay.comparison).toMatchObject({
      ledgerDifferences: [],
      requestDivergences: [],
      unusedExchanges: 0,
    });
    expect(replay.result.status).toBe('pass');
    expect(replay.run!.ledger).toEqual(loaded.ledger);
  });

  it('a changed configuration diverges at the write, naming the rule and the key that changed it', async () => {
    const { file } = await recordSession();
    const replay = await runRecording(loadCassette(file), file, { name: 'default', config: DEFAULT_CONFIG });
    expect(replay.result.status).toBe('fail');
    const first = replay.comparison!.ledgerDifferences[0]!;
    expect(first).toMatchObject({ step: 'turn 3, call call_w1 write_file', turn: 3, callId: 'call_w1' });
    expect(first.changes).toContainEqual({ field: 'verdict', recorded: 'allow', replayed: 'ask:denied' });
    expect(first.cause).toContain('permissions.effects.write "allow" → "ask"');
    expect(replay.comparison!.headline).toMatch(
      /^turn 3, call call_w1 write_file: verdict "allow" → "ask:denied"/,
    );
    expect(replay.comparison!.requestDivergences[0]).toMatchObject({ exchange: 5 });
    expect(replay.run!.stopReason).toBe('model_error');
  });

  it('sequential matching serves the rest and reports every request that differs', async () => {
    const { file } = await recordSession();
    const replay = await runRecording(
      loadCassette(file),
      file,
      { name: 'default', config: DEFAULT_CONFIG },
      { match: 'sequential' },
    );
    expect(replay.run!.stopReason).toBe('final_answer');
    expect(replay.comparison!.unusedExchanges).toBe(0);
    expect([...new Set(replay.comparison!.requestDivergences.map((d) => d.exchange))]).toEqual([5]);
    expect(replay.result.status).toBe('fail');
  });

  it('counterfactual: follows the recording to the divergence, then stops with a message or hands over', async () => {
    const { file } = await recordSession();
    const stopped = await runRecording(
      loadCassette(file),
      file,
      { name: 'default', config: DEFAULT_CONFIG },
      { match: 'counterfactual' },
    );
    expect(stopped.run!.stopDetail).toMatch(
      /counterfactual replay: the harness left the recording at request 5 .*no model to hand over to/,
    );
    expect(stopped.result.status).toBe('fail');
    const handed = await runRecording(
      loadCassette(file),
      file,
      { name: 'default', config: DEFAULT_CONFIG },
      { match: 'counterfactual', then: new ScriptedModel([{ content: 'I could not write out.txt.' }]) },
    );
    expect(handed.run!.stopReason).toBe('final_answer');
    expect(handed.run!.finalAnswer).toBe('I could not write out.txt.');
    expect(handed.comparison!.handoverAt).toBe(5);
    expect(handed.result.status).toBe('pass');
  });

  it('an error event after a 200 stream is recorded and replays to the same model_error', async () => {
    stub.queue.push(
      sse(
        [
          chunk({ role: 'assistant', content: 'Work' }),
          { error: { message: 'upstream connection reset', type: 'invalid_request_error' } },
        ],
        { noDone: true },
      ),
    );
    const session = recorder(DEFAULT_CONFIG);
    const run = await session.run('Say something.');
    expect(run.stopReason).toBe('model_error');
    const cassette = session.cassette({ id: 'error-event' });
    expect(cassette.exchanges[0]!.response.events!.map((e) => e.data)).toContain(
      '{"error":{"message":"upstream connection reset","type":"invalid_request_error"}}',
    );
    const replay = await runRecording(cassette, 'error-event.json', {
      name: 'default',
      config: DEFAULT_CONFIG,
    });
    expect(replay.run!.stopReason).toBe('model_error');
    expect(replay.result.status).toBe('pass');
  });

  it('a session of several runs (a chat) with whole JSON responses replays run after run', async () => {
    stub.queue.push(
      json(200, completion({ content: 'Hello.' })),
      json(
        200,
        completion(
          {
            content: null,
            tool_calls: [
              {
                id: 'call_c1',
                type: 'function',
                function: { name: 'read_file', arguments: '{"path":"a.txt"}' },
              },
            ],
          },
          'tool_calls',
        ),
      ),
      json(200, completion({ content: 'It says alpha.' })),
    );
    const session = recorder(DEFAULT_CONFIG, false);
    const first = await session.run('Hi');
    const second = await session.run('What does a.txt say?', { history: first.messages });
    expect(second.finalAnswer).toBe('It says alpha.');
    const cassette = session.cassette({ id: 'chat' });
    expect(
      cassette.exchanges.map((e) => e.response.body !== undefined && e.response.events === undefined),
    ).toEqual([true, true, true]);
    expect(stub.received.map((r) => r.body.stream)).toEqual([false, false, false]);
    expect(cassette.ledger!.turns.map((t) => t.turn)).toEqual([1, 2, 3]);
    const replay = await runRecording(cassette, 'chat.json', { name: 'default', config: DEFAULT_CONFIG });
    expect(replay.result.status).toBe('pass');
    expect(replay.run!.ledger).toEqual(cassette.ledger);
  });

  it('refuses to build a cassette that still holds a key shape after redaction', async () => {
    stub.queue.push(
      json(200, completion({ content: 'Found sk-proj-abcdefghijklmnopqrstuvwxyz012345 in the logs.' })),
    );
    const session = recorder(DEFAULT_CONFIG);
    await session.run('Look.');
    expect(() => session.cassette({ id: 'leak' })).toThrow(RecordRefusedError);
    try {
      session.cassette({ id: 'leak' });
    } catch (error) {
      expect((error as RecordRefusedError).findings[0]).toMatchObject({
        kind: 'api-key',
        path: '/exchanges/0/response/body/choices/0/message/content',
      });
    }
  });
});
