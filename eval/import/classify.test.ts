import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  classifyExchange,
  classifyInteraction,
  describeNonModel,
  modelExchangeIndexes,
  nonModelTraffic,
  partitionTraffic,
  redactUrl,
  type ReadInteraction,
} from './classify.ts';

const chat = { messages: [{ role: 'user', content: 'hi' }] };
const note = (method: string, url: string, body: Record<string, unknown> | null = null) => {
  const parsed = new URL(url);
  const verdict = classifyInteraction({
    method,
    host: parsed.hostname,
    path: `${parsed.pathname}${parsed.search}`,
    body,
  });
  return verdict.model ? 'MODEL' : verdict.note;
};

describe('classifyInteraction: only chat completions are model traffic', () => {
  it('accepts chat completions on every OpenAI-compatible path', () => {
    for (const url of [
      'https://api.openai.com/v1/chat/completions',
      'https://x.openai.azure.com/openai/deployments/gpt/chat/completions?api-version=2024-10-21',
      'https://openrouter.ai/api/v1/chat/completions',
      'https://api.groq.com/openai/v1/chat/completions',
      'https://generativelanguage.googleapis.com/v1beta/openai/chat/completions',
      'http://localhost:11434/v1/chat/completions',
      'https://api.deepseek.com/chat/completions',
    ])
      expect(note('POST', url, chat), url).toBe('MODEL');
  });

  it('names the traffic that is not', () => {
    expect(note('GET', 'https://api.smith.langchain.com/info')).toBe('LangSmith API (tracing, prompt hub)');
    expect(note('POST', 'https://telemetry.crewai.com:4319/v1/traces')).toBe('telemetry (trace export)');
    expect(note('POST', 'https://api.openai.com/v1/traces/ingest')).toBe('telemetry (trace export)');
    expect(note('POST', 'https://eu.i.posthog.com/batch/')).toBe('telemetry (product analytics)');
    expect(note('POST', 'https://api.tavily.com/search')).toBe('search API (tool traffic)');
    expect(note('POST', 'https://api.openai.com/v1/embeddings', { input: 'x' })).toBe('embeddings API');
    expect(note('POST', 'https://api.openai.com/v1/responses', { input: 'x' })).toMatch(/Responses API/);
    expect(note('POST', 'https://api.anthropic.com/v1/messages', chat)).toMatch(/Anthropic Messages API/);
    expect(note('POST', 'https://g.googleapis.com/v1beta/models/gemini:generateContent')).toMatch(/Gemini/);
    expect(note('POST', 'http://127.0.0.1:11434/api/chat', chat)).toBe('Ollama native API');
    expect(note('POST', 'https://api.openai.com/v1/completions', { prompt: 'x' })).toMatch(
      /text completions/,
    );
    expect(note('GET', 'http://localhost:11434/')).toBe('health check');
    expect(note('GET', 'https://api.openai.com/v1/chat/completions')).toMatch(/stored completions/);
    expect(note('POST', 'https://api.openai.com/v1/chat/completions', { model: 'x' })).toMatch(
      /without a "messages" array/,
    );
    expect(note('POST', 'https://api.openai.com/v1/chat/completions')).toMatch(/without a JSON body/);
    expect(note('GET', 'https://httpbin.org/image/jpeg')).toBe('not a chat completion');
  });

  it('redacts secret-looking query values and user info from recorded URLs', () => {
    expect(redactUrl('https://u:p@g.com/v1/m?key=AIzaXYZ&alt=sse')).toBe(
      'https://g.com/v1/m?key=REDACTED&alt=sse',
    );
    expect(redactUrl('<HOST>/x?api_key=abc&q=1')).toBe('<HOST>/x?api_key=REDACTED&q=1');
  });
});

const interaction = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT'),
  host: fc.constantFrom(
    'api.openai.com',
    'telemetry.crewai.com',
    'api.smith.langchain.com',
    '<OLLAMA_API_BASE>',
  ),
  path: fc.constantFrom(
    '/v1/chat/completions',
    '/chat/completions',
    '/v1/embeddings',
    '/info',
    '/v1/responses',
    '/',
  ),
  body: fc.option(fc.constantFrom(chat, { input: 'x' }, { model: 'm', messages: [] }), { nil: null }),
  status: fc.constantFrom(0, 200, 400, 503),
  recordedBody: fc.boolean(),
});

describe('partitionTraffic (property)', () => {
  it('serves nothing but chat completions with a recorded response, keeps the rest in order, takes the host from model traffic', () => {
    fc.assert(
      fc.property(fc.array(interaction, { maxLength: 12 }), (items) => {
        const read: ReadInteraction[] = items.map((item, index) => ({
          ...item,
          index,
          url: `https://${item.host}${item.path}`,
          exchange: () => ({
            request: { method: item.method, path: item.path, body: item.body },
            response: {
              status: item.status,
              headers: {},
              ...(item.recordedBody ? { body: { choices: [] } } : {}),
            },
          }),
        }));
        const { exchanges, nonModel, host } = partitionTraffic(read);
        expect(exchanges.length + nonModel.length).toBe(items.length);
        for (const exchange of exchanges) {
          expect(exchange.request.method).toBe('POST');
          expect(exchange.request.path).toMatch(/\/chat\/completions$/);
          expect(Array.isArray(exchange.request.body?.messages)).toBe(true);
          expect(exchange.response.status).toBeGreaterThanOrEqual(100);
          if (exchange.response.status < 300) expect(exchange.response.body).toBeDefined();
        }
        expect(nonModel.map((n) => n.index)).toEqual([...nonModel.map((n) => n.index)].sort((a, b) => a - b));
        // The request rule, a recorded status, and a body for a 2xx.
        const firstModel = read.find(
          (r, i) =>
            exchanges.length > 0 &&
            classifyInteraction(r).model &&
            r.status >= 100 &&
            (r.status >= 300 || items[i]!.recordedBody),
        );
        expect(host).toBe(firstModel ? firstModel.host : null);
      }),
    );
  });
});

describe('the same classifier at replay: classifyExchange, nonModelTraffic', () => {
  const meta = { host: 'api.openai.com', responseOnly: false };
  const exchange = (method: string, path: string, body: Record<string, unknown> | null, status = 200) => ({
    request: { method, path, body },
    response: { status, headers: {}, body: { choices: [] } },
  });

  it('judges a cassette exchange as the importer judged the interaction', () => {
    expect(classifyExchange(exchange('POST', '/v1/chat/completions', chat), meta)).toEqual({ model: true });
    expect(
      classifyExchange(exchange('GET', '/info', null), { ...meta, host: 'api.smith.langchain.com' }),
    ).toEqual({
      model: false,
      note: 'LangSmith API (tracing, prompt hub)',
    });
    expect(classifyExchange(exchange('POST', '/crewai_plus/api/v1/tracing/batches', {}), meta)).toEqual({
      model: false,
      note: 'telemetry (tracing)',
    });
    const noBody = {
      ...exchange('POST', '/v1/chat/completions', chat),
      response: { status: 200, headers: {} },
    };
    expect(classifyExchange(noBody, meta)).toMatchObject({ model: false, note: /body was not recorded/ });
    // An error status is a model exchange (a recorded failure the client met), body or not.
    expect(classifyExchange({ ...noBody, response: { status: 429, headers: {} } }, meta)).toEqual({
      model: true,
    });
  });

  it("takes a response-only recording's placeholder request, but not another endpoint without a body", () => {
    const only = { ...meta, responseOnly: true };
    expect(classifyExchange(exchange('POST', '/chat/completions', null), only)).toEqual({ model: true });
    expect(classifyExchange(exchange('GET', '/info', null), only).model).toBe(false);
    expect(classifyExchange(exchange('POST', '/chat/completions', null), meta).model).toBe(false);
  });

  it('lists the cassette-level nonModel list, then exchanges it rejects, and serves only the rest', () => {
    const cassette = {
      meta,
      exchanges: [
        exchange('POST', '/v1/chat/completions', chat),
        exchange('POST', '/v1/embeddings', { input: 'x' }),
      ],
      nonModel: [
        {
          index: 0,
          method: 'GET',
          url: 'https://api.smith.langchain.com/info?k=1',
          status: 200,
          note: 'LangSmith',
        },
      ],
    };
    expect(modelExchangeIndexes(cassette)).toEqual([0]);
    const listed = nonModelTraffic(cassette);
    expect(listed).toEqual([
      cassette.nonModel[0],
      {
        index: 1,
        exchange: 1,
        method: 'POST',
        url: 'https://api.openai.com/v1/embeddings',
        status: 200,
        note: 'embeddings API',
      },
    ]);
    expect(listed.map(describeNonModel)).toEqual([
      'GET https://api.smith.langchain.com/info (200)',
      'POST https://api.openai.com/v1/embeddings (200)',
    ]);
  });
});
