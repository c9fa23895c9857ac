/**
 * `--trace`, `--trace-file` and the OTLP environment variables on `run` and `record`: one trace
 * per case (or per recorded run), to a JSON Lines file or a 127.0.0.1 OTLP receiver; off unless
 * asked; a bad `--trace` is exit 2.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../eval/config-load.ts';
import {
  json,
  sse,
  textChunks,
  toolCallChunks,
  useStub,
  type StubServer,
} from '../harness/testing/stub-server.ts';
import { providerForHost, traceTarget, tracesUrl } from '../eval/trace/cli-tracing.ts';
import { chatCommand } from './chat-command.ts';
import { main } from './main.ts';

const getStub = useStub();
let stub: StubServer;
beforeEach(() => {
  stub = getStub();
});

const dirs: string[] = [];
const temp = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hb-trace-cli-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function cli(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]) {
  let out = '';
  let err = '';
  const code = await main(['node', 'harness-bench', ...args], {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    cwd,
    env: { NO_COLOR: '1', ...env },
    isTTY: false,
  });
  return { code, out, err };
}

type Line = {
  resourceSpans: {
    scopeSpans: {
      spans: { name: string; parentSpanId?: string; attributes: { key: string; value: unknown }[] }[];
    }[];
  }[];
};
const roots = (lines: Line[]) =>
  lines
    .flatMap((l) => l.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)))
    .filter((s) => !s.parentSpanId);
const attr = (span: { attributes: { key: string; value: unknown }[] }, key: string) =>
  span.attributes.find((a) => a.key === key)?.value;

const otlpOk = () => json(200, {});
const receiverBase = () => stub.baseURL.replace(/\/v1$/, '');

describe('run with tracing', () => {
  it('--trace-file writes one trace per case, each rooted at invoke_agent with the case id and status', async () => {
    const file = path.join(temp(), 'traces.jsonl');
    const result = await cli(PACKAGE_ROOT, {}, 'run', '-s', 'scenarios/bad-json', '--trace-file', file);
    expect(result.code).toBe(0);
    expect(result.err).toMatch(/traces: \d+ spans to .*traces\.jsonl/);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
    const cases = (result.out.match(/(\d+) scenarios: /) ?? [])[1];
    expect(lines).toHaveLength(Number(cases));
    const ids = roots(lines).map(
      (r) => (attr(r, 'harness_bench.case.id') as { stringValue: string }).stringValue,
    );
    expect(ids).toContain('bad-json/missing-colon');
    expect(roots(lines).every((r) => r.name === 'invoke_agent harness-bench')).toBe(true);
    expect(
      roots(lines).every(
        (r) => (attr(r, 'harness_bench.case.status') as { stringValue: string }).stringValue === 'pass',
      ),
    ).toBe(true);
  });

  it('--trace URL exports over OTLP/HTTP; so does OTEL_EXPORTER_OTLP_ENDPOINT alone; OTEL_SDK_DISABLED switches the variable off', async () => {
    for (let i = 0; i < 20; i += 1) stub.queue.push(otlpOk());
    const flagged = await cli(
      PACKAGE_ROOT,
      {},
      'run',
      '-s',
      'scenarios/bad-json/missing-colon.json',
      '--trace',
      receiverBase(),
    );
    expect(flagged.err).toMatch(new RegExp(`traces: \\d+ spans to ${receiverBase()}/v1/traces`));
    expect(stub.received.map((r) => r.path)).toEqual(['/v1/traces']);
    const byEnv = await cli(
      PACKAGE_ROOT,
      { OTEL_EXPORTER_OTLP_ENDPOINT: receiverBase() },
      'run',
      '-s',
      'scenarios/bad-json/missing-colon.json',
    );
    expect(byEnv.err).toMatch(/traces: \d+ spans to/);
    expect(stub.received).toHaveLength(2);
    const off = await cli(
      PACKAGE_ROOT,
      { OTEL_EXPORTER_OTLP_ENDPOINT: receiverBase(), OTEL_SDK_DISABLED: 'true' },
      'run',
      '-s',
      'scenarios/bad-json/missing-colon.json',
    );
    expect(off.err).not.toMatch(/traces:/);
    expect(stub.received).toHaveLength(2);
    const none = await cli(PACKAGE_ROOT, {}, 'run', '-s', 'scenarios/bad-json/missing-colon.json');
    expect(none.err).not.toMatch(/traces:/);
  });

  it('a --trace value that is not a URL is exit 2 before anything runs', async () => {
    const result = await cli(
      PACKAGE_ROOT,
      {},
      'run',
      '-s',
      'scenarios/bad-json',
      '--trace',
      'localhost:4318',
    );
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/--trace: must be an http\(s\) URL, got "localhost:4318"/);
  });
});

describe('record with tracing', () => {
  it('--trace-file holds the recorded run as one trace: live chat spans (CLIENT), tool calls, the provider of the host', async () => {
    const dir = temp();
    writeFileSync(path.join(dir, 'notes.txt'), 'remember the milk\n');
    stub.queue.push(
      sse(toolCallChunks('call_n1', 'read_file', '{"path":"notes.txt"}')),
      sse(textChunks('Milk.')),
    );
    const file = path.join(dir, 'trace.jsonl');
    const result = await cli(
      dir,
      {},
      'record',
      '--base-url',
      stub.baseURL,
      '--model',
      'stub-model',
      '--task',
      'Read notes.txt.',
      '--out',
      'c.json',
      '--trace-file',
      file,
    );
    expect(result.code).toBe(0);
    expect(result.err).toMatch(/traces: 5 spans to/);
    const [line] = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
    const spans = line!.resourceSpans[0]!.scopeSpans[0]!.spans as {
      name: string;
      kind: number;
      attributes: { key: string; value: unknown }[];
    }[];
    expect(spans.map((s) => s.name).sort()).toEqual([
      'chat stub-model',
      'chat stub-model',
      'execute_tool read_file',
      'invoke_agent harness-bench',
      'policy read_file',
    ]);
    const chat = spans.find((s) => s.name === 'chat stub-model')!;
    expect(chat.kind).toBe(3);
    expect(attr(chat, 'gen_ai.provider.name')).toEqual({ stringValue: '127.0.0.1' });
  });
});

describe('chat with tracing', () => {
  it('one trace per user line, each with the session as gen_ai.conversation.id', async () => {
    const dir = temp();
    stub.queue.push(sse(textChunks('Hello.')), sse(textChunks('Bye.')));
    const input = new PassThrough();
    const output = new PassThrough();
    output.resume();
    let err = '';
    const file = path.join(dir, 'chat.jsonl');
    const done = chatCommand(
      { baseUrl: stub.baseURL, model: 'stub-model', traceFile: file },
      {
        stdout: () => undefined,
        stderr: (t) => (err += t),
        cwd: dir,
        env: { NO_COLOR: '1', HARNESS_BENCH_HOME: dir },
        isTTY: false,
      },
      { input, output, terminal: false, interrupts: new EventEmitter() },
    );
    input.write('hi\n');
    input.write('bye\n');
    input.end();
    expect(await done).toBe(0);
    expect(err).toMatch(/traces: 4 spans to/);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
    expect(lines).toHaveLength(2);
    const ids = roots(lines).map(
      (r) => (attr(r, 'gen_ai.conversation.id') as { stringValue: string }).stringValue,
    );
    expect(ids[0]).toMatch(/^ses_/);
    expect(ids[1]).toBe(ids[0]);
  });
});

describe('traceTarget', () => {
  it('names the provider of a host with the conventions` well-known values, else the host', () => {
    expect(providerForHost('api.openai.com', 'x')).toBe('openai');
    expect(providerForHost('my-res.openai.azure.com', 'x')).toBe('azure.ai.openai');
    expect(providerForHost('api.groq.com', 'x')).toBe('groq');
    expect(providerForHost('generativelanguage.googleapis.com', 'x')).toBe('gcp.gemini');
    expect(providerForHost('api.mistral.ai', 'x')).toBe('mistral_ai');
    expect(providerForHost('openrouter.ai', 'x')).toBe('openrouter.ai');
    expect(providerForHost('notopenai.com.evil', 'x')).toBe('notopenai.com.evil');
    expect(providerForHost(null, 'harness_bench.replay')).toBe('harness_bench.replay');
  });

  it('appends /v1/traces to a base endpoint only', () => {
    expect(tracesUrl('http://collector:4318')).toBe('http://collector:4318/v1/traces');
    expect(tracesUrl('http://collector:4318/')).toBe('http://collector:4318/v1/traces');
    expect(tracesUrl('https://x.example/otlp/v1/traces')).toBe('https://x.example/otlp/v1/traces');
  });

  it('flags win over the environment; the traces variable over the generic one', () => {
    expect(traceTarget({}, {})).toBeUndefined();
    expect(traceTarget({ trace: true }, {})).toEqual({
      endpoint: 'http://localhost:4318/v1/traces',
      captureContent: false,
    });
    expect(
      traceTarget(
        {},
        { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b/t' },
      ),
    ).toEqual({ endpoint: 'http://b/t', captureContent: false });
    expect(
      traceTarget({ trace: 'http://c:4318' }, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318' })?.endpoint,
    ).toBe('http://c:4318/v1/traces');
    expect(
      traceTarget({}, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_TRACES_EXPORTER: 'none' }),
    ).toBeUndefined();
    expect(traceTarget({ traceFile: 't.jsonl', traceContent: true }, {})).toEqual({
      file: 't.jsonl',
      captureContent: true,
    });
  });
});
