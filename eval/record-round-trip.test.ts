import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../harness/config.ts';
import type { Exchange } from './cassette/types.ts';
import { eventData, roundTripChecks, unfaithful, type Served } from './record-round-trip.ts';
import { scenarioConfig, scenarioTools } from './run-scenario.ts';
import type { LoadedScenario, Scenario } from './scenario/types.ts';

const TOKEN = 'tok-PlantedTest-0123456789abcdef';

function loaded(over: Partial<Scenario> = {}): LoadedScenario {
  const scenario = {
    version: 1,
    id: 'replay/round-trip-test',
    task: 'Read notes.txt.',
    tools: ['read_file'],
    workspace: { files: { 'notes.txt': `API_TOKEN=${TOKEN}\nregion=eu\n` } },
    roundTrip: { apiKey: 'sk-proj-TestKey0123456789abcdef', env: { API_TOKEN: TOKEN } },
    // Usage reported, as providers do: an estimate would count the redacted fixture's shorter text.
    model: [
      {
        tool_calls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"notes.txt"}' }],
        usage: { prompt_tokens: 90, completion_tokens: 12 },
      },
      { content: 'The region is eu.', usage: { prompt_tokens: 120, completion_tokens: 6 } },
    ],
    expect: { stopReason: 'final_answer' },
    ...over,
  } as Scenario;
  return { scenario, file: 'scenarios/replay/round-trip-test.yaml', absolutePath: '/x/round-trip-test.yaml' };
}

async function checksOf(l: LoadedScenario) {
  const config = scenarioConfig(l.scenario, DEFAULT_CONFIG);
  const checks = await roundTripChecks(l, config, scenarioTools(l.scenario, config));
  return Object.fromEntries(checks.map((c) => [c.name, c]));
}

describe('the recorder round trip', () => {
  it('records through the pass-through proxy, redacts every planted value and replays clean', async () => {
    const checks = await checksOf(loaded());
    expect(checks['roundTrip.recorded']).toMatchObject({
      pass: true,
      observed: { exchanges: 2, faithful: true },
    });
    expect(checks['roundTrip.redacted']).toMatchObject({ pass: true });
    expect(checks['roundTrip.replay']).toMatchObject({
      pass: true,
      observed: { sameRun: true, divergences: 0 },
    });
    expect(checks['roundTrip.session']).toMatchObject({ pass: true, observed: { left: [], status: 'pass' } });
  });

  it('leaves the record command’s round trip out of a case with scripted tools', async () => {
    const scripted = loaded({ fakeTools: { web_fetch: { results: [{ output: 'page' }] } } });
    const checks = await checksOf(scripted);
    expect(checks['roundTrip.session']).toMatchObject({ status: 'not_applicable' });
    expect(checks['roundTrip.replay']).toMatchObject({ pass: true });
  });

  it('fails a planted value that never went through the recording: its redaction was not exercised', async () => {
    const quiet = loaded({ model: [{ content: 'Nothing to read.' }] });
    const checks = await checksOf(quiet);
    expect(checks['roundTrip.redacted']).toMatchObject({
      pass: false,
      observed: { unexercised: ['env.API_TOKEN'] },
    });
  });

  it('fails a value the recorder was not told to redact: the key-shaped scan refuses the cassette', async () => {
    const ghp = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
    const told = loaded({
      workspace: { files: { 'notes.txt': `token ${ghp}\n` } },
      roundTrip: { apiKey: 'sk-proj-TestKey0123456789abcdef' },
    });
    const checks = await checksOf(told);
    expect(checks['roundTrip.recorded']).toMatchObject({ pass: false });
    expect(checks['roundTrip.recorded']!.reason).toMatch(/no cassette: .*secret/);
    expect(checks['roundTrip.replay']).toBeUndefined();
  });

  it('adds nothing to a scenario without a roundTrip block', async () => {
    const plain = loaded();
    delete plain.scenario.roundTrip;
    expect(await checksOf(plain)).toEqual({});
  });
});

describe('unfaithful', () => {
  const served = (status: number, text: string): Served => ({ status, text: Promise.resolve(text) });
  const exchange = (response: Exchange['response']): Exchange =>
    ({ request: { method: 'POST', path: '/v1/chat/completions', body: {} }, response }) as Exchange;

  it('accepts a recording that is what was served, with the planted values redacted', async () => {
    const body = { id: 'x', choices: [{ message: { content: 'REDACTED' } }] };
    const cassette = { exchanges: [exchange({ status: 200, headers: {}, body })] };
    const sent = JSON.stringify({ id: 'x', choices: [{ message: { content: TOKEN } }] });
    expect(await unfaithful(cassette, [served(200, sent)], [TOKEN])).toBeUndefined();
  });

  it('names the first exchange whose status, body or events differ, or a missing exchange', async () => {
    const ok = exchange({ status: 200, headers: {}, body: { a: 1 } });
    expect(await unfaithful({ exchanges: [ok] }, [served(200, '{"a":2}')], [])).toMatch(
      /exchange 1: its body differs/,
    );
    expect(await unfaithful({ exchanges: [ok] }, [served(500, '{"a":1}')], [])).toMatch(
      /exchange 1: status 200, served 500/,
    );
    expect(await unfaithful({ exchanges: [] }, [served(200, '{}')], [])).toMatch(
      /0 exchanges recorded for 1 responses/,
    );
    const events = exchange({ status: 200, headers: {}, events: [{ data: '{"n":1}', delayMs: 0 }] });
    const stream = 'data: {"n":1}\n\ndata: [DONE]\n\n';
    expect(await unfaithful({ exchanges: [events] }, [served(200, stream)], [])).toMatch(/its events differ/);
  });

  it('reads the data of each server-sent event, multi-line data joined, comments and other fields left out', () => {
    expect(eventData(': ping\n\nevent: x\ndata: a\ndata: b\n\ndata: [DONE]\n\n')).toEqual(['a\nb', '[DONE]']);
    expect(eventData('data:{"x":1}\r\n\r\n')).toEqual(['{"x":1}']);
  });
});
