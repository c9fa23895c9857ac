import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../harness/config.ts';
import type { Cassette } from '../cassette/types.ts';
import type { RecordedRequest } from '../serve/server.ts';
import { ADAPTERS_DIR, loadAdapterFile } from './load.ts';
import { conversionNote, endedCheck, requestDivergences, runAdapterRecording } from './replay-adapter.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FILE = 'recordings/examples/stub-read-then-write-asked.json';
const cassette = (): Cassette => JSON.parse(readFileSync(path.join(ROOT, FILE), 'utf8')) as Cassette;
const base = { name: 'default', config: DEFAULT_CONFIG };
const served = () => loadAdapterFile(path.join(ADAPTERS_DIR, 'ours-served.json'));

const sent = (body: unknown): RecordedRequest => ({
  method: 'POST',
  path: '/v1/chat/completions',
  body,
  turn: 0,
  stream: false,
  status: 200,
  outcome: 'turn',
});

describe('conversionNote and endedCheck', () => {
  const exchanges = [
    { request: {}, response: { status: 200, events: [{ data: '{}' }] } },
    {
      request: {},
      response: { status: 200, body: { choices: [{ finish_reason: 'content_filter', index: 0 }] } },
    },
    { request: {}, response: { status: 200, body: { error: { message: 'filtered' } } } },
    { request: {}, response: { status: 429, body: { error: { message: 'slow down' } } } },
  ] as unknown as Cassette['exchanges'];
  const at = (turn: number | null, over: Partial<RecordedRequest> = {}): RecordedRequest => ({
    ...sent({}),
    turn,
    ...over,
  });

  it('notes each turn the endpoint served converted, by direction, and nothing when none was', () => {
    expect(conversionNote([at(0, { stream: true }), at(1)])).toBeUndefined();
    const note = conversionNote([
      at(0, { converted: 'stream_to_body' }),
      at(1, { stream: true, converted: 'body_to_stream' }),
      at(2, { converted: 'stream_to_body' }),
      at(null, { outcome: 'exhausted' }),
    ]);
    expect(note).toMatchObject({ name: 'replay.converted', pass: true });
    expect(note!.reason).toBe(
      'served converted: recorded stream sent as one JSON body to turns 1, 3; recorded JSON body sent as server-sent events to turn 2',
    );
    expect(conversionNote([at(0, { converted: 'stream_to_body' })])!.reason).toBe(
      'served converted: recorded stream sent as one JSON body to turn 1',
    );
  });

  it('counts an error event in a recorded stream as a provider error a harness may raise on', () => {
    const streamed = [
      { request: {}, response: { status: 200, events: [{ data: '{"choices":[]}' }, { data: '[DONE]' }] } },
      {
        request: {},
        response: {
          status: 200,
          events: [{ data: '{"error":{"code":400,"message":"Token limit reached"},"choices":[]}' }],
        },
      },
    ] as unknown as Cassette['exchanges'];
    expect(endedCheck({ exchanges: streamed }, [0, 1], [at(0)], 'exit code 1')).toMatchObject({
      pass: false,
    });
    expect(endedCheck({ exchanges: streamed }, [0, 1], [at(1)], 'exit code 1')).toMatchObject({ pass: true });
  });

  it('fails a crash on a response the provider really sent, not one past the recording or on a provider error', () => {
    const indexes = [0, 1, 2, 3];
    expect(endedCheck({ exchanges }, indexes, [at(1)], undefined)).toMatchObject({ pass: true });
    const crash = endedCheck({ exchanges }, indexes, [at(0, { stream: true }), at(1)], 'TypeError');
    expect(crash).toMatchObject({ pass: false });
    expect(crash.reason).toMatch(/crashed \(TypeError\) on recorded exchange 2/);
    const past = [at(1), at(null, { outcome: 'exhausted', status: 400 })];
    expect(endedCheck({ exchanges }, indexes, past, 'exit code 1')).toMatchObject({ pass: true });
    expect(endedCheck({ exchanges }, indexes, [at(2)], 'filtered')).toMatchObject({ pass: true });
    expect(endedCheck({ exchanges }, indexes, [at(3, { status: 429 })], 'slow down')).toMatchObject({
      pass: true,
    });
  });
});

describe('requestDivergences', () => {
  it('diffs each request with the recorded one, and names a request too many or too few', () => {
    const recorded = [
      { model: 'm', messages: [{ role: 'user', content: 'a' }] },
      { model: 'm', messages: [{ role: 'user', content: 'b' }] },
    ];
    expect(requestDivergences(recorded, [sent(recorded[0]), sent(recorded[1])])).toEqual([]);
    const changed = requestDivergences(recorded, [
      sent({ model: 'm', messages: [{ role: 'user', content: 'x' }] }),
    ]);
    expect(changed.map((d) => [d.exchange, d.kind])).toEqual([
      [0, 'changed'],
      [1, 'missing'],
    ]);
    expect(
      requestDivergences(recorded.slice(0, 1), [sent(recorded[0]), sent(recorded[1])]).at(-1),
    ).toMatchObject({
      exchange: 1,
      kind: 'extra',
    });
  });
});

describe('a recording replayed against a harness through the endpoint', () => {
  it('serves a recorded stream to a plain request as one body, and notes it instead of skipping', async () => {
    const file = 'recordings/real/crewai-gpt4o-stream-tool-call.json';
    const recording = JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as Cassette;
    const minimal = loadAdapterFile(path.join(ADAPTERS_DIR, 'minimal-loop.json'));
    const { result, run } = await runAdapterRecording(recording, file, base, minimal);
    expect(result.status).toBe('pass');
    expect(result.checks.find((c) => c.name === 'replay.converted')?.reason).toBe(
      'served converted: recorded stream sent as one JSON body to turn 1',
    );
    // The run as seen from outside, for `show`: the requests it sent; tokens from the served turns.
    expect(run?.requests?.length).toBeGreaterThanOrEqual(1);
    const first = (run?.requests?.[0]?.messages ?? []) as { role: string }[];
    expect(first.some((m) => m.role === 'user')).toBe(true);
    expect(result.usage.promptTokens).toBeGreaterThan(0);
    expect(result.usage.totalTokens).toBe(result.usage.promptTokens + result.usage.completionTokens);
  }, 60_000);

  it('passes when the harness sends every request as recorded (a cassette of ours, replayed against ours served)', async () => {
    const { result } = await runAdapterRecording(cassette(), FILE, base, served());
    expect(result.divergences).toEqual([]);
    expect(result.status).toBe('pass');
    expect(result.checks.find((c) => c.name === 'replay.served')?.reason).toMatch(
      /^[1-9]\d* of \d+ recorded model turns served/,
    );
  }, 60_000);

  it('fails a cassette recorded from a harness on the first divergence (its regression test)', async () => {
    const edited = cassette();
    const first = edited.exchanges.find((e) => Array.isArray(e.request.body?.messages))!;
    (first.request.body!.messages as { role: string; content: string }[])[0]!.content =
      'another system prompt';
    const { result } = await runAdapterRecording(edited, FILE, base, served());
    expect(result.status).toBe('fail');
    expect(result.firstFailure).toMatch(/replay\.divergences: \d+ divergences?; first: \/messages\/0/);
  }, 60_000);
});
