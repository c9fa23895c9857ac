/**
 * One golden test per importer format and body form, each on a real recording (provenance in
 * `recordings/real/SOURCES.md` and `./fixtures/PROVENANCE.md`): the decoded values a client
 * would have seen, the non-model traffic kept apart, and the refusals.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.ts';
import type { Cassette } from '../cassette/types.ts';
import { importRecordingText } from './index.ts';
import { REAL_SOURCES_DIR } from './import-real.ts';

const quiet = { onWarning: () => {} };
const real = (name: string): Cassette =>
  importRecordingText(readFileSync(`${REAL_SOURCES_DIR}${name}`, 'utf8'), name, quiet).cassette;
const message = (c: Cassette, i: number) =>
  (c.exchanges[i]!.response.body as { choices: { message: Record<string, unknown> }[] }).choices[0]!.message;

function refusal(name: string): string {
  const text = readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
  try {
    importRecordingText(text, name, quiet);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).problems.map((p) => p.reason).join('\n');
  }
  throw new Error(`${name} was imported`);
}

describe('Ruby VCR (http_interactions)', () => {
  const c = real('rubyllm-ollama-qwen3-placeholder-tool-loop.yml');

  it('keeps the placeholder base URL as the host and the rest as the path', () => {
    expect(c.meta).toMatchObject({ host: '<OLLAMA_API_BASE>', modelRequested: 'qwen3', responseOnly: false });
    expect(c.exchanges.map((e) => [e.request.method, e.request.path])).toEqual([
      ['POST', '/chat/completions'],
      ['POST', '/chat/completions'],
    ]);
  });

  it('decodes a !binary (base64) body into the UTF-8 text the client saw', () => {
    expect(message(c, 1).content).toBe(
      'The current weather in Berlin (52.5200, 13.4050) is **15°C** with winds at **10 km/h**. 🌤️',
    );
    expect(message(c, 0).tool_calls).toEqual([
      expect.objectContaining({
        function: { name: 'weather', arguments: '{"latitude":"52.5200","longitude":"13.4050"}' },
      }),
    ]);
  });
});

describe('VCR.py with compressed bodies', () => {
  it('gunzips a !!binary body and keeps the telemetry export as non-model traffic', () => {
    const c = real('crewai-gpt4o-gzip-telemetry-converter.yaml');
    expect(message(c, 1).tool_calls).toEqual([
      expect.objectContaining({ function: expect.objectContaining({ name: 'ScoreOutput' }) }),
    ]);
    expect(c.nonModel).toEqual([
      {
        index: 1,
        method: 'POST',
        url: 'https://telemetry.crewai.com:4319/v1/traces',
        status: 200,
        note: 'telemetry (trace export)',
      },
    ]);
    expect(c.meta.host).toBe('api.openai.com');
  });

  it('keeps httpx-era content that was stored decoded under Content-Encoding: gzip', () => {
    const c = real('crewai-gpt4o-httpx-content-gzip-header.yaml');
    expect(String(message(c, 0).content)).toMatch(/^Thought: I now can give a great answer\nFinal Answer:/);
  });

  it('decodes gzip bodies in a file mixing model and Assistants API traffic', () => {
    const c = real('openllmetry-llamaindex-gpt35-assistants-api-mixed.yaml');
    expect(c.exchanges).toHaveLength(2);
    expect(c.nonModel).toHaveLength(17);
    expect(new Set(c.nonModel!.map((n) => n.note))).toEqual(new Set(['OpenAI Assistants/files API']));
    expect(String(message(c, 1).content)).toContain('city');
  });
});

describe('LangSmith, prompt hub and search traffic (VCR.py)', () => {
  it('serves only the two chat completions; metadata comes from them', () => {
    const c = real('openllmetry-langchain-gpt35-langsmith-tavily-agent.yaml');
    expect(c.nonModel!.map((n) => `${n.method} ${new URL(n.url).host} ${n.note}`)).toEqual([
      'GET api.smith.langchain.com LangSmith API (tracing, prompt hub)',
      'GET api.smith.langchain.com LangSmith API (tracing, prompt hub)',
      'POST api.tavily.com search API (tool traffic)',
    ]);
    expect(c.exchanges.map((e) => Boolean(e.response.events))).toEqual([true, true]);
    expect(c.meta).toMatchObject({ host: 'api.openai.com', modelRequested: 'gpt-3.5-turbo' });
  });
});

describe('HAR / Polly.JS', () => {
  it('joins base64 chunk arrays, gunzips them and keeps embeddings apart', () => {
    const c = real('openllmetryjs-llamaindex-gpt4o-gzip-embeddings-rag.har');
    expect(c.meta.imported).toEqual({
      format: 'har',
      file: 'openllmetryjs-llamaindex-gpt4o-gzip-embeddings-rag.har',
      creator: expect.stringMatching(/^Polly\.JS \d/),
    });
    expect(c.nonModel!.map((n) => [n.index, n.note])).toEqual([
      [0, 'embeddings API'],
      [1, 'embeddings API'],
    ]);
    expect(String(message(c, 0).content)).toContain('Ulm');
  });

  it('keeps a body stored decoded under content-encoding: br, then a Wikipedia search', () => {
    const c = real('openllmetryjs-langchain-gpt35-br-wikipedia-search.har');
    expect(message(c, 0).content).toBe('"Current Prime Minister of Malaysia" site:wikipedia.org');
    expect(c.nonModel![0]).toMatchObject({ method: 'GET', note: 'search API (tool traffic)' });
  });

  it('reads a streamed HAR response as SSE events', () => {
    const c = real('openllmetryjs-together-llama31-stream-two-tools.har');
    expect(c.exchanges[0]!.response.events!.at(-1)).toEqual({ data: '[DONE]' });
    expect(c.meta.host).toBe('api.together.xyz');
  });
});

describe('refused at import: no model traffic, with what was there', () => {
  it('an OpenAI Agents SDK recording (Responses API and trace export only)', () => {
    const reason = refusal('openllmetry-openai-agents-responses-telemetry.yaml');
    expect(reason).toMatch(/^no model traffic: none of the \d+ interactions is a chat completion/);
    expect(reason).toContain('OpenAI Responses API');
    expect(reason).toContain('telemetry (trace export)');
  });

  it("Ollama's native chat API", () => {
    expect(refusal('openinference-ollama-native-chat.yaml')).toContain('/api/chat → 200 (Ollama native API)');
  });

  it("a Polly.JS HAR of Anthropic's Messages API", () => {
    expect(refusal('openllmetryjs-anthropic-messages.har')).toContain('Anthropic Messages API');
  });

  it("a chunk log of Anthropic's native stream events", () => {
    expect(refusal('vercel-anthropic-native-stream.chunks.txt')).toMatch(
      /one JSON object per line, but not chat-completion chunks .*type "message_start"/,
    );
  });
});
