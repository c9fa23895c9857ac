/**
 * Export of traces: an OTLP JSON Lines file (one `TracesData` per run) and OTLP/HTTP to a stub
 * receiver on 127.0.0.1, both well-formed OTLP JSON (the OTLP JSON encoding: hex ids, int64 times
 * as decimal strings, typed attribute values) with the GenAI span names and attributes.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { json, startStub } from '../../harness/testing/stub-server.ts';
import { RunTracer } from './run-tracer.ts';
import { counterIds, runTraced } from './trace-fixture.test-helpers.ts';
import { openTracing, type TracingOptions, type TracingReport } from './tracing.ts';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: Record<string, unknown> }[];
  status?: { code?: number };
}

/**
 * Problems of one OTLP JSON `TracesData` object against the OTLP JSON encoding
 * (opentelemetry-proto `trace.proto`, https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding).
 */
function otlpProblems(data: unknown): string[] {
  const problems: string[] = [];
  const want = (ok: boolean, what: string) => void (ok || problems.push(what));
  const resourceSpans = (data as { resourceSpans?: unknown[] }).resourceSpans;
  want(Array.isArray(resourceSpans) && resourceSpans.length > 0, 'resourceSpans is a non-empty array');
  const spans: OtlpSpan[] = [];
  for (const rs of (resourceSpans ?? []) as {
    resource: { attributes: OtlpSpan['attributes'] };
    scopeSpans: unknown[];
  }[]) {
    const service = rs.resource?.attributes?.find((a) => a.key === 'service.name');
    want(service?.value.stringValue === 'harness-bench', 'resource service.name is harness-bench');
    for (const ss of rs.scopeSpans as { scope: { name: string }; spans: OtlpSpan[] }[]) {
      want(ss.scope?.name === 'harness-bench', 'scope name harness-bench');
      spans.push(...ss.spans);
    }
  }
  const ids = new Set(spans.map((s) => s.spanId));
  for (const s of spans) {
    want(/^[0-9a-f]{32}$/.test(s.traceId), `${s.name}: traceId is 32 hex digits`);
    want(/^[0-9a-f]{16}$/.test(s.spanId), `${s.name}: spanId is 16 hex digits`);
    want(!s.parentSpanId || ids.has(s.parentSpanId), `${s.name}: parent is a span of the same batch`);
    want(Number.isInteger(s.kind) && s.kind >= 1 && s.kind <= 5, `${s.name}: kind is a SpanKind enum (1..5)`);
    want(
      /^\d+$/.test(s.startTimeUnixNano) && /^\d+$/.test(s.endTimeUnixNano),
      `${s.name}: times are int64 strings`,
    );
    want(BigInt(s.endTimeUnixNano) >= BigInt(s.startTimeUnixNano), `${s.name}: ends after it starts`);
    for (const a of s.attributes) {
      const kinds = Object.keys(a.value);
      want(
        kinds.length === 1 &&
          ['stringValue', 'intValue', 'boolValue', 'doubleValue', 'arrayValue'].includes(kinds[0]!),
        `${s.name}: attribute ${a.key} has one typed value`,
      );
    }
  }
  want(spans.filter((s) => !s.parentSpanId).length === 1, 'exactly one root span per trace');
  return problems;
}

const spansOf = (data: unknown) =>
  (data as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans.flatMap((r) =>
    r.scopeSpans.flatMap((s) => s.spans),
  );
const attr = (span: OtlpSpan, key: string) => span.attributes.find((a) => a.key === key)?.value;

/** Runs the fixture twice into one tracing pipeline and closes it. */
async function twoRuns(options: Omit<TracingOptions, 'version'>): Promise<TracingReport> {
  const tracing = openTracing({ ...options, idGenerator: counterIds(), version: '0.0.0-test' });
  for (let i = 0; i < 2; i += 1) {
    const tracer = new RunTracer({
      tracer: tracing.tracer,
      model: 'gpt-4o-mini',
      provider: 'harness_bench.scripted',
    });
    await runTraced(tracer.onEvent);
  }
  return tracing.shutdown();
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('trace export', () => {
  it('to a file: OTLP JSON Lines, one well-formed TracesData line per run', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hb-trace-'));
    dirs.push(dir);
    const file = path.join(dir, 'out', 'traces.jsonl');
    expect(await twoRuns({ file })).toEqual({ exportedSpans: 40, failedSpans: 0 });
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(2);
    const traces = lines.map((line) => JSON.parse(line) as unknown);
    for (const data of traces) expect(otlpProblems(data)).toEqual([]);
    const [first, second] = traces.map(spansOf) as [OtlpSpan[], OtlpSpan[]];
    expect(first).toHaveLength(20);
    expect(new Set([...first, ...second].map((s) => s.traceId)).size).toBe(2);
    const chat = first.find((s) => s.name === 'chat gpt-4o-mini')!;
    expect(chat.kind).toBe(3); // CLIENT
    expect(attr(chat, 'gen_ai.operation.name')).toEqual({ stringValue: 'chat' });
    expect(attr(chat, 'gen_ai.response.finish_reasons')).toEqual({
      arrayValue: { values: [{ stringValue: 'tool_calls' }] },
    });
    expect(attr(chat, 'gen_ai.usage.input_tokens')?.intValue).toBeGreaterThan(0);
    const root = first.find((s) => !s.parentSpanId)!;
    expect(root.name).toBe('invoke_agent harness-bench');
    expect(attr(root, 'harness_bench.stop_reason')).toEqual({ stringValue: 'final_answer' });
  });

  it('over OTLP/HTTP: JSON POSTs to the endpoint, with the configured headers', async () => {
    const stub = await startStub();
    const headers: Record<string, string | string[] | undefined>[] = [];
    for (let i = 0; i < 4; i += 1)
      stub.queue.push((req, res, body) => {
        headers.push(req.headers);
        return json(200, {})(req, res, body);
      });
    try {
      const endpoint = `${stub.baseURL.replace(/\/v1$/, '')}/v1/traces`;
      expect(await twoRuns({ endpoint, headers: { 'x-team': 'bench' } })).toEqual({
        exportedSpans: 40,
        failedSpans: 0,
      });
      expect(stub.received.length).toBeGreaterThan(0);
      expect(stub.received.every((r) => r.path === '/v1/traces')).toBe(true);
      expect(headers.every((h) => h['content-type'] === 'application/json' && h['x-team'] === 'bench')).toBe(
        true,
      );
      const spans = stub.received.flatMap((r) => spansOf(r.body));
      expect(spans).toHaveLength(40);
      for (const r of stub.received)
        expect(otlpProblems(r.body).filter((p) => !/root span/.test(p))).toEqual([]);
      expect(spans.filter((s) => s.name === 'invoke_agent harness-bench')).toHaveLength(2);
      expect(new Set(spans.map((s) => s.name))).toEqual(
        new Set([
          'invoke_agent harness-bench',
          'invoke_agent subagent',
          'chat gpt-4o-mini',
          'execute_tool read_file',
          'execute_tool task',
          'execute_tool write_file',
          'execute_tool bash',
          'policy read_file',
          'policy task',
          'policy write_file',
          'policy bash',
          'approval write_file',
        ]),
      );
    } finally {
      await stub.close();
    }
  });

  it('a receiver that is down does not fail the run or the shutdown; the report says what was lost', async () => {
    const report = await twoRuns({ endpoint: 'http://127.0.0.1:9/v1/traces', timeoutMs: 500 });
    expect(report).toMatchObject({ exportedSpans: 0, failedSpans: 40, lastError: expect.any(String) });
  });
});
