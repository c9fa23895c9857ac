/**
 * Tracing as the commands switch it on (`docs/tracing.md`): `--trace [URL]` exports over
 * OTLP/HTTP, `--trace-file FILE` writes OTLP JSON Lines, `--trace-content` records content; with
 * no flag, an `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT` in the
 * environment switches OTLP export on, as the OpenTelemetry SDK environment variables specify
 * (https://opentelemetry.io/docs/specs/otel/protocol/exporter/; `OTEL_SDK_DISABLED=true` and
 * `OTEL_TRACES_EXPORTER=none` switch it off). Also: the subscriber that turns each case of a suite
 * run into one trace, and the provider name of an endpoint.
 */
import { type Attributes, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { HarnessDeps } from '../../harness/deps.ts';
import type { RunResult } from '../../harness/ledger.ts';
import { InputError } from '../errors.ts';
import type { CaseResult } from '../results.ts';
import type { PlannedCase } from '../suite.ts';
import { AGENT_NAME, RunTracer } from './run-tracer.ts';
import { ERROR_TYPE, GEN_AI, HB, OPERATION } from './semconv.ts';
import { openTracing, type Tracing, type TracingReport } from './tracing.ts';

/** The tracing flags of `run` and `record`. `trace`: `true` for `--trace` without a URL. */
export interface TraceFlags {
  trace?: string | boolean;
  traceFile?: string;
  traceContent?: boolean;
}

/** Where traces go; `undefined` from {@link traceTarget} when tracing is off. */
export interface TraceTarget {
  /** OTLP/HTTP traces URL. */
  endpoint?: string;
  /** OTLP JSON Lines file (absolute or relative to the working folder). */
  file?: string;
  captureContent: boolean;
}

/** The OTLP/HTTP default: a collector on this machine (the port of OTLP/HTTP, 4318). */
export const DEFAULT_OTLP_TRACES_URL = 'http://localhost:4318/v1/traces';

/**
 * A base endpoint gets the traces path appended (as `OTEL_EXPORTER_OTLP_ENDPOINT` does); a URL
 * with a path is used as it is (as `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`).
 */
export function tracesUrl(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname === '/' || parsed.pathname === '' ? `${parsed.origin}/v1/traces` : url;
}

/**
 * Resolves the tracing flags and the environment.
 * @throws InputError (exit 2) for a `--trace` value that is not an http(s) URL.
 */
export function traceTarget(flags: TraceFlags, env: NodeJS.ProcessEnv): TraceTarget | undefined {
  const captureContent = Boolean(flags.traceContent);
  const file = flags.traceFile;
  let endpoint: string | undefined;
  if (typeof flags.trace === 'string') {
    if (!/^https?:\/\/[^/]/.test(flags.trace))
      throw new InputError([
        {
          file: '(flags)',
          path: '--trace',
          reason: `must be an http(s) URL, got ${JSON.stringify(flags.trace)}`,
        },
      ]);
    endpoint = tracesUrl(flags.trace);
  } else {
    const disabled = env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none';
    const fromEnv = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
      ? env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
      : env.OTEL_EXPORTER_OTLP_ENDPOINT
        ? tracesUrl(env.OTEL_EXPORTER_OTLP_ENDPOINT)
        : undefined;
    if (flags.trace === true) endpoint = fromEnv ?? DEFAULT_OTLP_TRACES_URL;
    else if (fromEnv && !disabled) endpoint = fromEnv;
  }
  if (!endpoint && !file) return undefined;
  return { ...(endpoint ? { endpoint } : {}), ...(file ? { file } : {}), captureContent };
}

/**
 * `gen_ai.provider.name` for an endpoint host: the conventions' well-known value when one
 * applies (`openai`, `azure.ai.openai`, `groq`, `mistral_ai`, `gcp.gemini`, `deepseek`, `x_ai`,
 * `anthropic`, `perplexity`, `cohere`), else the host itself (a custom value, which the
 * conventions allow), else `fallback`.
 */
export function providerForHost(host: string | null | undefined, fallback: string): string {
  if (!host) return fallback;
  const known: [RegExp, string][] = [
    [/(^|\.)openai\.azure\.com$/, 'azure.ai.openai'],
    [/(^|\.)openai\.com$/, 'openai'],
    [/(^|\.)groq\.com$/, 'groq'],
    [/(^|\.)mistral\.ai$/, 'mistral_ai'],
    [/^generativelanguage\.googleapis\.com$/, 'gcp.gemini'],
    [/(^|\.)deepseek\.com$/, 'deepseek'],
    [/(^|\.)x\.ai$/, 'x_ai'],
    [/(^|\.)anthropic\.com$/, 'anthropic'],
    [/(^|\.)perplexity\.ai$/, 'perplexity'],
    [/(^|\.)cohere\.(com|ai)$/, 'cohere'],
  ];
  return known.find(([pattern]) => pattern.test(host))?.[1] ?? host;
}

/** An open pipeline with the subscriber of a suite run. */
export interface SuiteTracing {
  /** Hand to `runSuite`'s `onRun`: one trace per case, from its run's events. */
  onRun(planned: PlannedCase, run: RunResult | undefined, result: CaseResult): void;
  /** Flushes and closes; the report of what was exported. */
  close(): Promise<TracingReport>;
}

/**
 * Tracing of a suite run: each case becomes one trace whose root carries the case id, kind,
 * configuration and status. Scripted and replayed runs keep their injected clock's durations,
 * shifted so the trace starts when the case did (`wallNow` is the wall clock, ms).
 */
export function suiteTracing(
  target: TraceTarget,
  version: string,
  options: { tracing?: Tracing; wallNow?: () => number } = {},
): SuiteTracing {
  const tracing =
    options.tracing ??
    openTracing({
      ...(target.endpoint ? { endpoint: target.endpoint } : {}),
      ...(target.file ? { file: target.file } : {}),
      version,
    });
  const wallNow = options.wallNow ?? (() => Date.now());
  return {
    onRun(planned, run, result) {
      const attributes = {
        [HB.caseId]: result.id,
        [HB.caseKind]: result.kind,
        [HB.config]: result.config,
        [HB.caseStatus]: result.status,
        [HB.caseFile]: result.file,
      };
      const model = run?.requests[0]?.model ?? planned.config.config.model.name;
      const provider =
        planned.kind === 'scenario'
          ? 'harness_bench.scripted'
          : providerForHost(planned.recording.cassette.meta.host, 'harness_bench.replay');
      const startedWall = wallNow() - result.usage.durationMs;
      if (!run) {
        const span = tracing.tracer.startSpan(`invoke_agent ${AGENT_NAME}`, {
          kind: SpanKind.INTERNAL,
          startTime: startedWall,
          attributes: {
            [GEN_AI.operationName]: OPERATION.invokeAgent,
            [GEN_AI.agentName]: AGENT_NAME,
            [GEN_AI.providerName]: provider,
            [GEN_AI.requestModel]: model,
            [ERROR_TYPE]: 'case_error',
            ...attributes,
          },
        });
        span.setStatus({ code: SpanStatusCode.ERROR, message: result.error?.message ?? 'error' });
        span.end(startedWall + result.usage.durationMs);
        return;
      }
      const tracer = new RunTracer({
        tracer: tracing.tracer,
        model,
        provider,
        attributes,
        inProcessModel: true,
        captureContent: target.captureContent,
        timeOffsetMs: startedWall - (run.events[0]?.atMs ?? startedWall),
      });
      for (const event of run.events) tracer.onEvent(event);
    },
    close: () => tracing.shutdown(),
  };
}

/** Tracing of live runs (`record`, `chat`): a new trace at every top-level `run_start`. */
export interface LiveTracing {
  /**
   * `deps` with a tracer subscribed to its events (any `onEvent` it had still receives them);
   * one subscription per session, each run of it one trace.
   */
  subscribe(deps: HarnessDeps): HarnessDeps;
  close(): Promise<TracingReport>;
}

/**
 * Tracing of live sessions against an endpoint: spans are timed by the live clock, the chat
 * spans are CLIENT spans, the provider comes from the endpoint's host.
 */
export function liveTracing(
  target: TraceTarget,
  version: string,
  live: { model: string; baseURL: string },
  options: { tracing?: Tracing; attributes?: Attributes } = {},
): LiveTracing {
  const tracing =
    options.tracing ??
    openTracing({
      ...(target.endpoint ? { endpoint: target.endpoint } : {}),
      ...(target.file ? { file: target.file } : {}),
      version,
    });
  let host: string | undefined;
  try {
    host = new URL(live.baseURL).hostname;
  } catch {
    host = undefined;
  }
  const provider = providerForHost(host, 'openai_compatible');
  return {
    subscribe: (deps) => {
      // One tracer per subscription: sessions recorded at the same time never share a trace.
      let current: RunTracer | undefined;
      return {
        ...deps,
        onEvent: (event) => {
          deps.onEvent?.(event);
          if (event.type === 'run_start' && event.scope.length === 0)
            current = new RunTracer({
              tracer: tracing.tracer,
              model: live.model,
              provider,
              captureContent: target.captureContent,
              ...(options.attributes ? { attributes: options.attributes } : {}),
            });
          current?.onEvent(event);
        },
      };
    },
    close: () => tracing.shutdown(),
  };
}

/** One line for stderr on what tracing did. */
export function describeTracing(target: TraceTarget, report: TracingReport): string {
  const where = [target.endpoint, target.file].filter(Boolean).join(' and ');
  if (report.failedSpans > 0)
    return `warning: ${report.failedSpans} spans could not be exported to ${where}${report.lastError ? `: ${report.lastError}` : ''}`;
  return `traces: ${report.exportedSpans} spans to ${where}`;
}
