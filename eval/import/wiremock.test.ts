import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../errors.ts';
import { detectRecording } from './detect.ts';
import { importRecordingDetailed, importRecordingText } from './index.ts';
import { REAL_SOURCES_DIR } from './import-real.ts';

const quiet = { onWarning: () => {} };
const completion = (content: string, created = 1_700_000_000) =>
  JSON.stringify({
    id: `chatcmpl-${content}`,
    object: 'chat.completion',
    created,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  });
const stub = (extra: Record<string, unknown>, content: string) => ({
  request: { method: 'POST', urlPath: '/v1/chat/completions' },
  response: { status: 200, headers: { 'Content-Type': 'application/json' }, body: completion(content) },
  ...extra,
});
const texts = (text: string, file = 'mappings.json') =>
  importRecordingText(text, file, quiet).cassette.exchanges.map(
    (e) => (e.response.body as { choices: { message: { content: string } }[] }).choices[0]!.message.content,
  );
function reason(text: string, file = 'm.json'): string {
  try {
    importRecordingText(text, file, quiet);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).problems.map((p) => `${p.path}: ${p.reason}`).join('\n');
  }
  throw new Error('imported');
}

describe('WireMock stub mappings', () => {
  it('reads a real recorded stub: the equalToJson pattern is the request, jsonBody the answer', () => {
    const text = readFileSync(join(REAL_SOURCES_DIR, 'sap-aisdk-azure-gpt5-wiremock-chat.json'), 'utf8');
    const { cassette, format } = importRecordingText(text, 'chat.json', quiet);
    expect(format).toBe('wiremock');
    expect(cassette.exchanges).toHaveLength(1);
    expect(cassette.exchanges[0]!.request).toEqual({
      method: 'POST',
      // The regex's escapes removed: `\\?` was a literal question mark.
      path: '/chat/completions?api-version=2024-02-01',
      body: { messages: [{ content: 'Say this is a test', role: 'user' }], model: 'gpt-5' },
    });
    expect(cassette.meta).toMatchObject({ modelServed: 'gpt-5-2025-08-07', responseOnly: false, host: null });
  });

  it('makes a stub that recorded no request body a response-only exchange', () => {
    const { cassette } = importRecordingText(JSON.stringify(stub({}, 'hello')), 'one.json', quiet);
    expect(cassette.exchanges[0]!.request.body).toBeNull();
    expect(cassette.meta.responseOnly).toBe(true);
  });

  it('follows a scenario from Started through its states, whatever the file order', () => {
    const mappings = [
      stub({ scenarioName: 's', requiredScenarioState: 'step-3' }, 'third'),
      stub({ scenarioName: 's', requiredScenarioState: 'step-2', newScenarioState: 'step-3' }, 'second'),
      stub({ scenarioName: 's', requiredScenarioState: 'Started', newScenarioState: 'step-2' }, 'first'),
    ];
    expect(texts(JSON.stringify({ mappings }))).toEqual(['first', 'second', 'third']);
    // Without a scenario, insertionIndex orders the stubs.
    const indexed = [stub({ insertionIndex: 2 }, 'b'), stub({ insertionIndex: 1 }, 'a')];
    expect(texts(JSON.stringify({ mappings: indexed }))).toEqual(['a', 'b']);
  });

  it('reads a bodyFileName from the __files folder beside mappings/, and says where it looked', () => {
    const root = mkdtempSync(join(tmpdir(), 'wiremock-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    mkdirSync(join(root, 'mappings'));
    mkdirSync(join(root, '__files'));
    const mapping = {
      request: { method: 'POST', url: '/v1/chat/completions' },
      response: { status: 200, bodyFileName: 'answer.json' },
    };
    writeFileSync(join(root, 'mappings', 'chat.json'), JSON.stringify(mapping));
    writeFileSync(join(root, '__files', 'answer.json'), completion('from a file'));
    const { cassette } = importRecordingDetailed(join(root, 'mappings', 'chat.json'), quiet);
    expect(cassette.exchanges[0]!.response.body).toMatchObject({
      choices: [{ message: { content: 'from a file' } }],
    });
    writeFileSync(
      join(root, 'mappings', 'gone.json'),
      JSON.stringify({ ...mapping, response: { bodyFileName: 'gone.txt' } }),
    );
    expect(() => importRecordingDetailed(join(root, 'mappings', 'gone.json'), quiet)).toThrow(
      /gone\.txt is not in the __files folder/,
    );
  });

  it('refuses a response template: it generates answers, it recorded none', () => {
    const template = {
      ...stub({}, 'x'),
      response: {
        status: 200,
        body: '{"model":"{{jsonPath request.body \'$.model\'}}"}',
        transformers: ['response-template'],
      },
    };
    expect(reason(JSON.stringify(template))).toContain('a response template');
  });

  it('says when the recorded body is a partial matcher, and refuses an equalToJson that is not an object', () => {
    const partial = {
      ...stub({}, 'x'),
      request: {
        method: 'POST',
        url: '/v1/chat/completions',
        bodyPatterns: [
          { equalToJson: '{"messages":[{"role":"user","content":"hi"}]}', ignoreExtraElements: true },
        ],
      },
    };
    const { warnings } = importRecordingText(JSON.stringify(partial), 'p.json', quiet);
    expect(warnings.join('\n')).toContain('ignoreExtraElements');
    const bad = { ...partial, request: { ...partial.request, bodyPatterns: [{ equalToJson: '[1]' }] } };
    expect(reason(JSON.stringify(bad))).toContain(
      '/request/bodyPatterns/0/equalToJson: the request body must be a JSON object',
    );
  });
});

describe('the WireMock request journal (GET /__admin/requests)', () => {
  const entry = (i: number, content: string) => ({
    id: `e${i}`,
    request: {
      url: '/v1/chat/completions',
      absoluteUrl: 'http://localhost:8080/v1/chat/completions',
      method: 'POST',
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `turn ${i}` }] }),
      loggedDate: 1_700_000_000_000 + i * 1000,
    },
    response: {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      bodyAsBase64: Buffer.from(completion(content)).toString('base64'),
    },
    wasMatched: true,
  });

  it('reads the journal oldest first (WireMock lists newest first), with the logged requests', () => {
    // The logged bytes as sent: a gzipped answer is decoded by its Content-Encoding.
    const gzipped = {
      ...entry(2, 'second'),
      response: {
        status: 200,
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
        bodyAsBase64: gzipSync(completion('second')).toString('base64'),
      },
    };
    const journal = { requests: [gzipped, entry(1, 'first')], meta: { total: 2 } };
    const text = JSON.stringify(journal);
    expect(detectRecording(text, 'j.json').format).toBe('wiremock-journal');
    const { cassette } = importRecordingText(text, 'j.json', quiet);
    expect(texts(text)).toEqual(['first', 'second']);
    expect(
      cassette.exchanges.map(
        (e) => (e.request.body as { messages: { content: string }[] }).messages[0]!.content,
      ),
    ).toEqual(['turn 1', 'turn 2']);
    expect(cassette.meta.host).toBe('localhost');
  });
});

describe('VCR written as JSON and Betamax tapes', () => {
  const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

  it('reads a Betamax (Python) cassette: body.string, base64_string, status.code, recorded_at', () => {
    const text = fixture('betamax-python.json');
    const { cassette, format } = importRecordingText(text, 'b.json', quiet);
    expect(format).toBe('vcr-json');
    expect(cassette.exchanges[0]!.request.body).toMatchObject({ model: 'gpt-4o-mini' });
    expect(cassette.exchanges[0]!.response.body).toMatchObject({
      choices: [{ message: { content: 'Hi!' } }],
    });
  });

  it('reads a Betamax (Java) tape: the !tape tag, recorded stamps, plain bodies; a health check kept apart', () => {
    const { cassette, format } = importRecordingText(fixture('betamax-java-tape.yaml'), 't.yaml', quiet);
    expect(format).toBe('betamax-tape');
    expect(cassette.exchanges).toHaveLength(1);
    expect(cassette.exchanges[0]!.response.body).toMatchObject({
      choices: [{ finish_reason: 'tool_calls' }],
    });
    expect(cassette.nonModel?.map((n) => n.url)).toEqual(['https://example.test/health']);
  });

  it('names go-vcr cassettes by their own spelling (url, code, proto)', () => {
    const text = readFileSync(join(REAL_SOURCES_DIR, 'fantasy-openai-gpt5-parallel-tools.yaml'), 'utf8');
    expect(detectRecording(text, 'x.yaml').format).toBe('go-vcr-yaml');
  });
});
