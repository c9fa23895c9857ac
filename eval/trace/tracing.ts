/**
 * The OpenTelemetry SDK side of tracing (`docs/tracing.md`): a tracer provider with the
 * `harness-bench` service resource and the exporters asked for — OTLP/HTTP (JSON) to an endpoint,
 * an OTLP JSON Lines file (the OpenTelemetry file-exporter format: one `TracesData` object per
 * line, https://opentelemetry.io/docs/specs/otel/protocol/file-exporter/), or any exporter a test
 * hands in (the SDK's `InMemorySpanExporter`). The span builder is `run-tracer.ts`; nothing in
 * `harness/` knows about either.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type IdGenerator,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** Where traces go. At least one of `endpoint`, `file`, `exporter`. */
export interface TracingOptions {
  /** OTLP/HTTP traces URL, e.g. `http://127.0.0.1:4318/v1/traces`; `'env'`: the exporter reads `OTEL_EXPORTER_OTLP_*`. */
  endpoint?: string;
  /** Extra headers of the OTLP requests (besides `OTEL_EXPORTER_OTLP_HEADERS`). */
  headers?: Record<string, string>;
  /** OTLP JSON Lines file, truncated at open: one line per trace (run). */
  file?: string;
  /** An exporter of your own (tests: `InMemorySpanExporter`), fed span by span. */
  exporter?: SpanExporter;
  /** Trace and span ids (tests: a counter for deterministic traces). @default random */
  idGenerator?: IdGenerator;
  /** Per-export timeout of the OTLP/HTTP exporter, ms (retries included). @default 10000 */
  timeoutMs?: number;
  /** `service.version` of the resource. */
  version: string;
}

/** What was exported when the pipeline closed: spans sent and refused, and the last error. */
export interface TracingReport {
  exportedSpans: number;
  failedSpans: number;
  lastError?: string;
}

/** An open tracing pipeline. */
export interface Tracing {
  tracer: Tracer;
  /** Exports what is pending and closes the exporters. Resolves even when an export failed. */
  shutdown(): Promise<TracingReport>;
}

/** What an exporter reports (`ExportResult` of `@opentelemetry/core`: code 0 success, 1 failure). */
type ExportResult = Parameters<Parameters<SpanExporter['export']>[1]>[0];
const SUCCESS = 0;
const FAILED = 1;

/** The instrumentation scope name of our spans. */
export const SCOPE_NAME = 'harness-bench';

/**
 * Opens the tracing pipeline.
 * @throws Error when no destination is given (a caller bug).
 */
export function openTracing(options: TracingOptions): Tracing {
  const report: TracingReport = { exportedSpans: 0, failedSpans: 0 };
  const counted = (exporter: SpanExporter) => new CountingExporter(exporter, report);
  const processors: SpanProcessor[] = [];
  if (options.exporter) processors.push(new SimpleSpanProcessor(counted(options.exporter)));
  if (options.file) processors.push(new TraceBatchProcessor(counted(new OtlpJsonFileExporter(options.file))));
  if (options.endpoint)
    processors.push(
      new BatchSpanProcessor(
        counted(
          new OTLPTraceExporter({
            ...(options.endpoint !== 'env' ? { url: options.endpoint } : {}),
            ...(options.headers ? { headers: options.headers } : {}),
            timeoutMillis: options.timeoutMs ?? 10_000,
          }),
        ),
      ),
    );
  if (processors.length === 0) throw new Error('openTracing: no endpoint, file or exporter');
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'harness-bench', 'service.version': options.version }),
    spanProcessors: processors,
    ...(options.idGenerator ? { idGenerator: options.idGenerator } : {}),
  });
  return {
    tracer: provider.getTracer(SCOPE_NAME, options.version),
    shutdown: async () => {
      await provider.forceFlush().catch(() => undefined);
      await provider.shutdown().catch(() => undefined);
      return { ...report };
    },
  };
}

/** Counts what its exporter sent and refused into a shared report. */
class CountingExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    private readonly report: TracingReport,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code === SUCCESS) this.report.exportedSpans += spans.length;
      else {
        this.report.failedSpans += spans.length;
        this.report.lastError = result.error?.message ?? 'export failed';
      }
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/**
 * Writes spans as OTLP JSON Lines: each `export` call appends one line holding an
 * `ExportTraceServiceRequest` (= `TracesData`) in the OTLP JSON encoding. Synchronous appends, so
 * a crash loses at most the trace being built.
 */
export class OtlpJsonFileExporter implements SpanExporter {
  constructor(private readonly file: string) {
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    writeFileSync(file, '');
  }

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    try {
      const bytes = JsonTraceSerializer.serializeRequest(spans);
      if (bytes) appendFileSync(this.file, `${Buffer.from(bytes).toString('utf8')}\n`);
      done({ code: SUCCESS });
    } catch (error) {
      done({ code: FAILED, error: error as Error });
    }
  }

  async shutdown(): Promise<void> {}

  async forceFlush(): Promise<void> {}
}

/**
 * Exports a trace's spans together when its root span ends (our traces end with their root):
 * one export, one line of the JSON Lines file, per run. Spans of traces whose root never ends
 * go out on flush.
 */
export class TraceBatchProcessor implements SpanProcessor {
  private readonly pending = new Map<string, ReadableSpan[]>();

  constructor(private readonly exporter: SpanExporter) {}

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    const id = span.spanContext().traceId;
    const spans = this.pending.get(id) ?? [];
    spans.push(span);
    this.pending.set(id, spans);
    if (!span.parentSpanContext) {
      this.pending.delete(id);
      this.exporter.export(spans, () => undefined);
    }
  }

  async forceFlush(): Promise<void> {
    const rest = [...this.pending.values()].flat();
    this.pending.clear();
    if (rest.length > 0) await new Promise<void>((resolve) => this.exporter.export(rest, () => resolve()));
  }

  async shutdown(): Promise<void> {
    await this.forceFlush();
    await this.exporter.shutdown();
  }
}
