import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.ts';
import { canonicalJson, sha256Hex } from '../cassette/canonical.ts';
import { allowlistHeaders, detectFormat, importRecordingText } from './index.ts';

const quiet = { onWarning: () => {} };

const PARSED_BODY_YAML = `interactions:
- request:
    headers:
      cookie:
      - REDACTED
      host:
      - api.openai.com
    method: POST
    parsed_body:
      messages:
      - content: Be brief.
        role: system
      - content: What is the capital of the UK?
        role: user
      model: gpt-4o-mini
      stream: true
      tools:
      - function:
          name: get_capital
          parameters:
            properties:
              country:
                type: string
            type: object
        type: function
    uri: https://api.openai.com/v1/chat/completions
  response:
    body:
      string: |+
        data: {"id":"c1","object":"chat.completion.chunk","created":1782955817,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_capital","arguments":""}}]},"finish_reason":null}]}

        data: {"id":"c1","object":"chat.completion.chunk","created":1782955817,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"country\\":\\"UK\\"}"}}]},"finish_reason":"tool_calls"}]}

        data: [DONE]

    headers:
      content-type:
      - text/event-stream; charset=utf-8
      openai-organization:
      - REDACTED
      openai-processing-ms:
      - '512'
      set-cookie:
      - a=b
    status:
      code: 200
      message: OK
- request:
    method: POST
    parsed_body:
      messages:
      - content: What is the capital of the UK?
        role: user
      model: gpt-4o-mini
    uri: https://api.openai.com/v1/chat/completions
  response:
    headers:
      retry-after:
      - '2'
    parsed_body:
      error:
        message: Rate limit reached
        type: requests
    status:
      code: 429
      message: Too Many Requests
version: 1
`;

const PLAIN_VCR_YAML = `interactions:
- request:
    body: '{"messages": [{"role": "user", "content": "hi"}], "stream": false}'
    headers:
      api-key:
      - X-API-KEY-XXX
      authorization:
      - AUTHORIZATION-XXX
    method: POST
    uri: https://fake-azure-endpoint.openai.azure.com/openai/deployments/gpt-5-nano/chat/completions?api-version=2024-12-01-preview
  response:
    body:
      string: "{\\n  \\"id\\": \\"x\\",\\n  \\"created\\": 1771459550,\\n  \\"model\\": \\"gpt-5-nano-2025-08-07\\",\\n  \\"choices\\": [{\\"index\\": 0, \\"message\\": {\\"role\\": \\"assistant\\", \\"content\\": \\"hello\\"}, \\"finish_reason\\": \\"stop\\"}]\\n}"
    headers:
      Content-Type:
      - application/json
      Set-Cookie:
      - COOKIE-XXX
      x-ratelimit-remaining-tokens:
      - '99'
      x-request-id:
      - X-REQUEST-ID-XXX
      openai-project:
      - OPENAI-PROJECT-XXX
    status:
      code: 200
      message: OK
version: 1
`;

const CHUNK_LOG = [
  '{"id":"a","object":"chat.completion.chunk","created":1770770843,"model":"llama","choices":[{"index":0,"delta":{"role":"assistant","content":null},"finish_reason":null}]}',
  '{"id":"a","object":"chat.completion.chunk","created":1770770843,"model":"llama","choices":[{"index":0,"delta":{"tool_calls":[{"id":"t1","type":"function","function":{"name":"weather","arguments":"{}"},"index":0}]},"finish_reason":"tool_calls"}]}',
].join('\n');

const SSE = `data: {"id":"m","object":"chat.completion.chunk","created":0,"model":"claude","choices":[{"index":0,"delta":{"content":"Hi"}}]}

data: [DONE]

`;

describe('format detection', () => {
  it('tells the four formats apart', () => {
    expect(detectFormat(PARSED_BODY_YAML, 'a.yaml')).toBe('vcr-yaml-parsed-body');
    expect(detectFormat(PLAIN_VCR_YAML, 'b.yaml')).toBe('vcr-yaml');
    expect(detectFormat(CHUNK_LOG, 'c.chunks.txt')).toBe('chunk-log');
    expect(detectFormat(SSE, 'd.sse')).toBe('sse');
  });

  it('rejects unknown text with an InputError', () => {
    expect(() => detectFormat('hello: world\n', 'x.yaml')).toThrow(InputError);
    expect(() => detectFormat('   \n', 'x.txt')).toThrow(/empty recording/);
  });
});

describe('pydantic-ai VCR YAML (parsed_body)', () => {
  const { cassette, format } = importRecordingText(PARSED_BODY_YAML, 'dir/openai-stream.yaml', quiet);

  it('keeps JSON bodies and turns SSE text into events, [DONE] included', () => {
    expect(format).toBe('vcr-yaml-parsed-body');
    const [first, second] = cassette.exchanges;
    expect(first!.request).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(first!.request.body).toMatchObject({ model: 'gpt-4o-mini', stream: true });
    expect(first!.response.events!.map((e) => e.data.slice(0, 8))).toEqual([
      '{"id":"c',
      '{"id":"c',
      '[DONE]',
    ]);
    expect(first!.response.body).toBeUndefined();
    expect(second!.response).toEqual({
      status: 429,
      headers: { 'retry-after': '2' },
      body: { error: { message: 'Rate limit reached', type: 'requests' } },
    });
  });

  it('keeps allowlisted headers only', () => {
    expect(cassette.exchanges[0]!.response.headers).toEqual({
      'content-type': 'text/event-stream; charset=utf-8',
      'openai-processing-ms': '512',
    });
  });

  it('derives the metadata', () => {
    const tools = (cassette.exchanges[0]!.request.body as { tools: unknown }).tools;
    expect(cassette.meta).toEqual({
      id: 'openai-stream',
      title: 'openai-stream (imported vcr-yaml-parsed-body)',
      recordedAt: new Date(1782955817 * 1000).toISOString(),
      host: 'api.openai.com',
      modelRequested: 'gpt-4o-mini',
      modelServed: 'gpt-4o-mini-2024-07-18',
      task: 'What is the capital of the UK?',
      toolSchemasHash: sha256Hex(canonicalJson(tools)),
      imported: { format: 'vcr-yaml-parsed-body', file: 'openai-stream.yaml' },
      responseOnly: false,
    });
    expect(cassette.deps).toEqual({});
  });
});

describe('plain crewAI VCR YAML', () => {
  const { cassette, format } = importRecordingText(PLAIN_VCR_YAML, 'azure.yaml', {
    ...quiet,
    source: { repository: 'crewAIInc/crewAI', path: 'x.yaml', commit: 'abc', license: 'MIT' },
    title: 'Azure',
  });

  it('parses the raw JSON body strings and keeps the Azure deployment path and query', () => {
    expect(format).toBe('vcr-yaml');
    const exchange = cassette.exchanges[0]!;
    expect(exchange.request).toEqual({
      method: 'POST',
      path: '/openai/deployments/gpt-5-nano/chat/completions?api-version=2024-12-01-preview',
      body: { messages: [{ role: 'user', content: 'hi' }], stream: false },
    });
    expect(exchange.response.body).toMatchObject({
      model: 'gpt-5-nano-2025-08-07',
      choices: [{ message: { content: 'hello' } }],
    });
  });

  it('drops cookies, keys, org/project and request ids; lower-cases names', () => {
    expect(cassette.exchanges[0]!.response.headers).toEqual({
      'content-type': 'application/json',
      'x-ratelimit-remaining-tokens': '99',
    });
  });

  it('takes the model requested from the deployment name and provenance from options', () => {
    expect(cassette.meta).toMatchObject({
      host: 'fake-azure-endpoint.openai.azure.com',
      modelRequested: 'gpt-5-nano',
      modelServed: 'gpt-5-nano-2025-08-07',
      title: 'Azure',
      source: { repository: 'crewAIInc/crewAI', license: 'MIT' },
    });
  });

  it('reports a request body that is not JSON with its path', () => {
    const broken = PLAIN_VCR_YAML.replace(`body: '{"messages"`, `body: '{messages"`);
    try {
      importRecordingText(broken, 'broken.yaml', quiet);
      expect.unreachable();
    } catch (error) {
      expect((error as InputError).problems[0]).toMatchObject({
        file: 'broken.yaml',
        path: '/interactions/0/request/body',
      });
    }
  });
});

describe('response-only recordings', () => {
  it('imports a chunk log as one streamed exchange and adds the stripped [DONE]', () => {
    const { cassette } = importRecordingText(CHUNK_LOG, 'groq-tool-call.chunks.txt', quiet);
    expect(cassette.meta).toMatchObject({
      id: 'groq-tool-call',
      responseOnly: true,
      host: null,
      task: null,
      modelRequested: null,
      modelServed: 'llama',
    });
    expect(cassette.meta.toolSchemasHash).toBeNull();
    const [exchange] = cassette.exchanges;
    expect(exchange!.request).toEqual({ method: 'POST', path: '/chat/completions', body: null });
    expect(exchange!.response.events).toHaveLength(3);
    expect(exchange!.response.events!.at(-1)).toEqual({ data: '[DONE]' });
    expect(JSON.parse(exchange!.response.events![1]!.data)).toMatchObject({
      choices: [{ delta: { tool_calls: [{ id: 't1' }] } }],
    });
  });

  it('names the line of a broken chunk', () => {
    try {
      importRecordingText(`${CHUNK_LOG}\n{"id": `, 'x.chunks.txt', quiet);
      expect.unreachable();
    } catch (error) {
      expect((error as InputError).problems[0]).toMatchObject({ file: 'x.chunks.txt', path: '/line/3' });
    }
  });

  it('imports raw SSE events as they are, falling back to options.recordedAt when created is 0', () => {
    const { cassette } = importRecordingText(SSE, 'gw.sse', { ...quiet, recordedAt: '2026-08-04' });
    expect(cassette.exchanges[0]!.response.events!.map((e) => e.data.slice(0, 6))).toEqual([
      '{"id":',
      '[DONE]',
    ]);
    expect(cassette.meta.recordedAt).toBe('2026-08-04');
    expect(
      importRecordingText(SSE.replace('data: [DONE]\n', ''), 'gw.sse', quiet).cassette.exchanges[0]!.response
        .events,
    ).toHaveLength(1);
  });
});

describe('secret scan during import', () => {
  it('warns about key shapes and still imports', () => {
    const warnings: string[] = [];
    const leaked = SSE.replace('"Hi"', `"sk-proj-${'Q'.repeat(30)}"`);
    const { cassette } = importRecordingText(leaked, 'leak.sse', { onWarning: (w) => warnings.push(w) });
    expect(cassette.exchanges).toHaveLength(1);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^leak\.sse: \/exchanges\/0\/response\/events\/0\/data: possible secret \(api-key\)/,
    );
  });
});

describe('allowlistHeaders', () => {
  it('joins repeated values into one string', () => {
    expect(
      allowlistHeaders({ 'Retry-After': ['1'], 'x-ratelimit-limit-requests': ['10', '20'], cookie: ['x'] }),
    ).toEqual({
      'retry-after': '1',
      'x-ratelimit-limit-requests': '10, 20',
    });
  });
});

describe('VCR spelling variants', () => {
  it("reads go-vcr's url, code and `status: 200 OK`, and bodies stored as parsed mappings", () => {
    const goVcr = `version: 2
interactions:
- id: 0
  request:
    url: https://api.openai.com/v1/chat/completions
    method: POST
    body:
      model: gpt-4o-mini
      messages:
      - role: user
        content: hi
  response:
    code: 200
    status: 200 OK
    headers:
      Content-Type:
      - application/json
    body:
      choices:
      - index: 0
        finish_reason: stop
        message:
          role: assistant
          content: hello
`;
    const { cassette, format } = importRecordingText(goVcr, 'go.yaml', quiet);
    expect(format).toBe('go-vcr-yaml');
    expect(cassette.exchanges).toEqual([
      {
        request: {
          method: 'POST',
          path: '/v1/chat/completions',
          body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
        },
        response: {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: {
            choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'hello' } }],
          },
        },
      },
    ]);
  });
});
