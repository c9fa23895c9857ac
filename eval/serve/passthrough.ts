/**
 * The endpoint in pass-through mode: an OpenAI-compatible server on 127.0.0.1
 * that forwards every request of a foreign harness to a real provider and records the session
 * into a version-1 cassette (`docs/recording-format.md`, "Recording a foreign harness"), so users
 * of other harnesses get record and replay too.
 *
 * - `POST /v1/chat/completions` (and `/chat/completions`, and any other path under the base such
 *   as `GET /v1/models`) goes to the upstream base URL with the path after `/v1`; the API key is
 *   the one given here (the client's dummy key is replaced), never written anywhere.
 * - Responses are relayed as they arrive: status and body unchanged (errors too), a stream chunk
 *   by chunk, read from the upstream only as fast as the client takes it (the recorder's `fetch`,
 *   `eval/record/recorder.ts`, copies the bytes aside; SSE is cut by `eval/record/sse-capture.ts`).
 * - The cassette holds the model exchanges (the import rule, `eval/import/classify.ts`) and lists
 *   the rest as `nonModel`; it is marked `meta.imported.format: "passthrough"` because another
 *   client made the requests, so it replays as an imported recording (sequential, conversation
 *   by conversation). Redaction and the secret scan are the recorder's (`eval/record/redact.ts`,
 *   `eval/cassette/secret-scan.ts`): a cassette that still holds a key shape is refused.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { validateCassette } from '../cassette/load.ts';
import { scanForSecrets } from '../cassette/secret-scan.ts';
import { CASSETTE_FORMAT, CASSETTE_VERSION, type Cassette, type Exchange } from '../cassette/types.ts';
import { partitionTraffic, type ReadInteraction } from '../import/classify.ts';
import { deriveMeta } from '../import/common.ts';
import { RequestLimiter } from '../record/rate-limit.ts';
import { type CaptureEnd, CassetteRecorder } from '../record/recorder.ts';
import { redactValues, secretValuesFromEnv } from '../record/redact.ts';
import { RecordRefusedError } from '../record/session-recorder.ts';
import { semaphore } from './semaphore.ts';

/** Options of {@link startPassthroughServer}. */
export interface PassthroughOptions {
  /** The provider's base URL, e.g. `https://api.openai.com/v1` (the path after `/v1` is appended). */
  upstream: string;
  /**
   * The key sent upstream as `Authorization: Bearer KEY` (as `api-key: KEY` when the client sent
   * an `api-key` header, Azure's form). Absent: the client's own credentials are forwarded.
   * Never recorded; its value is redacted wherever it appears.
   */
  apiKey?: string;
  /** Port on 127.0.0.1. @default 0 (a free port chosen by the system) */
  port?: number;
  /** Further values redacted wherever they appear (at least 8 characters each). */
  secrets?: readonly string[];
  /** Environment whose secret-named variables' values are redacted. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Requests forwarded at once; more wait their turn. @default 8 */
  concurrency?: number;
  /** Request starts per second (`eval/record/rate-limit.ts`); also holds requests after a 429. Absent: no spacing. */
  ratePerSecond?: number;
  /** The fetch that reaches the upstream. @default globalThis.fetch */
  fetch?: typeof globalThis.fetch;
  /** Clock for SSE event delays, in ms. @default performance.now */
  now?: () => number;
  /** Wall clock for `meta.recordedAt` when no response dates the recording, in ms since the epoch. @default Date.now */
  wallClock?: () => number;
  /** Called when an exchange's response has been relayed to the end (or cut off). */
  onExchange?: (summary: ExchangeSummary) => void;
}

/** One relayed request, for progress lines: `POST /v1/chat/completions → 200 (stream)`. */
export interface ExchangeSummary {
  /** 0-based, in request order. */
  index: number;
  method: string;
  /** Upstream path and query. */
  path: string;
  /** HTTP status; 502 when the upstream could not be reached, 0 when the client left before the headers (neither recorded). */
  status: number;
  /** True when the response was a server-sent-events stream. */
  stream: boolean;
  /** How the relay ended: `complete`, `cancelled` (the client went away), `error` (the upstream broke off), `unreachable`. */
  end: 'complete' | 'cancelled' | 'error' | 'unreachable';
}

/** What the cassette needs beyond the traffic. */
export interface PassthroughCassetteInfo {
  /** Cassette id, e.g. the output file's name without `.json`. */
  id: string;
  /** @default `pass-through recording: <task>` */
  title?: string;
  description?: string;
  /** `meta.imported.file`: the output file's base name. @default `<id>.json` */
  file?: string;
}

/** A running pass-through server. */
export interface PassthroughServer {
  /** `http://127.0.0.1:<port>/v1` */
  baseURL: string;
  /** Every exchange so far (model and non-model, request order), before redaction. */
  readonly exchanges: Exchange[];
  /** Requests that got no upstream response (connection failures): not exchanges. */
  readonly notes: string[];
  /**
   * Exchanges whose response body was cut short (`index` in {@link PassthroughServer.exchanges}):
   * the client went away or the upstream broke off (`cancelled`/`error`), or the server closed
   * while it streamed (`unread`). Each is kept as far as it got.
   */
  incomplete(): { index: number; end: CaptureEnd | 'unread' }[];
  /** Stops accepting requests, cuts open connections (a stream in flight keeps what arrived) and resolves when closed. */
  close(): Promise<void>;
  /**
   * The cassette of the session so far: model exchanges, the rest as `nonModel`, metadata
   * derived from the exchanges, every secret redacted, validated and scanned.
   * @throws NothingRecordedError when no model exchange was recorded (its message lists what was);
   *   RecordRefusedError when a key shape remains after redaction (nothing may be written);
   *   Error when the cassette does not match the schema (a bug).
   */
  cassette(info: PassthroughCassetteInfo): Cassette;
}

/** No chat completion went through the pass-through, so there is no cassette to write. */
export class NothingRecordedError extends Error {
  override readonly name = 'NothingRecordedError';
}

/** Request headers never forwarded: hop-by-hop (RFC 9110 §7.6.1), the host, and what the proxy sets itself. */
const DROPPED_REQUEST_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'content-length',
  'accept-encoding',
  'expect',
]);

/** Response headers not relayed: hop-by-hop, and the body framing the relay redoes (fetch already decoded the body). */
const DROPPED_RESPONSE_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
]);

/**
 * Starts the pass-through server on 127.0.0.1 (see the module comment).
 * @throws TypeError when `upstream` is not an http(s) URL; the listen error (e.g. `EADDRINUSE`) as it is.
 */
export async function startPassthroughServer(options: PassthroughOptions): Promise<PassthroughServer> {
  const upstream = new URL(options.upstream);
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:')
    throw new TypeError(`the upstream must be an http(s) URL, got ${options.upstream}`);
  const upstreamBase = upstream.href.replace(/\/+$/, '');
  const base = options.fetch ?? globalThis.fetch;
  const limited = options.ratePerSecond
    ? new RequestLimiter({ ratePerSecond: options.ratePerSecond }).wrap(base)
    : base;
  const recorder = new CassetteRecorder({ fetch: limited, ...(options.now ? { now: options.now } : {}) });
  const slots = semaphore(options.concurrency ?? 8);
  const clientSecrets = new Set<string>();
  // eslint-disable-next-line no-restricted-properties -- a live recording runs on the wall clock
  const wallClock = options.wallClock ?? (() => Date.now());
  const startedAt = new Date(wallClock()).toISOString();
  let requests = 0;

  const server = createServer((req, res) => {
    const index = requests++;
    void handle(req, res, index).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, `harness-bench pass-through: ${(error as Error).message}`);
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse, index: number): Promise<void> {
    const body = await readBody(req);
    const release = await slots.acquire();
    try {
      await forward(req, res, body, index);
    } finally {
      release();
    }
  }

  async function forward(req: IncomingMessage, res: ServerResponse, body: Buffer, index: number) {
    const method = (req.method ?? 'GET').toUpperCase();
    const incoming = new URL(req.url ?? '/', 'http://127.0.0.1');
    const rest = incoming.pathname.replace(/^\/v1(?=\/|$)/, '');
    const target = `${upstreamBase}${rest}${incoming.search}`;
    const headers = forwardedHeaders(req, options.apiKey, clientSecrets);
    const path = new URL(target).pathname + new URL(target).search;
    const aborted = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) aborted.abort(new Error('the client closed the connection'));
    });
    let response: Response;
    try {
      response = await recorder.fetch(target, {
        method,
        headers,
        signal: aborted.signal,
        ...(body.length > 0 && method !== 'GET' && method !== 'HEAD' ? { body: body.toString('utf8') } : {}),
      });
    } catch (error) {
      if (aborted.signal.aborted) {
        options.onExchange?.({ index, method, path, status: 0, stream: false, end: 'cancelled' });
        return;
      }
      const reason = (error as Error)?.message ?? String(error);
      sendError(
        res,
        502,
        `harness-bench pass-through: the upstream ${upstream.host} could not be reached (${reason})`,
      );
      options.onExchange?.({ index, method, path, status: 502, stream: false, end: 'unreachable' });
      return;
    }
    const relayed: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!DROPPED_RESPONSE_HEADERS.has(name.toLowerCase())) relayed[name] = value;
    });
    res.writeHead(response.status, response.statusText, relayed);
    res.flushHeaders();
    const stream = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    let end: ExchangeSummary['end'] = 'complete';
    if (response.body) {
      const reader = response.body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (!res.write(value)) await drained(res);
          if (res.destroyed) throw new Error('client gone');
        }
      } catch {
        end = aborted.signal.aborted || res.destroyed ? 'cancelled' : 'error';
        await reader.cancel().catch(() => {});
      }
    }
    if (end === 'error') res.destroy();
    else if (!res.destroyed) res.end();
    options.onExchange?.({ index, method, path, status: response.status, stream, end });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    get exchanges() {
      return recorder.exchanges();
    },
    notes: recorder.notes,
    incomplete: () => recorder.incomplete(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    cassette(info) {
      const file = info.file ?? `${info.id}.json`;
      const all = recorder.exchanges();
      const traffic = partitionTraffic(
        all.map(
          (exchange, i): ReadInteraction => ({
            index: i,
            method: exchange.request.method,
            url: `${upstream.origin}${exchange.request.path}`,
            host: upstream.hostname,
            path: exchange.request.path,
            body: exchange.request.body ?? null,
            status: exchange.response.status,
            exchange: () => exchange,
          }),
        ),
      );
      if (traffic.exchanges.length === 0)
        throw new NothingRecordedError(
          all.length === 0
            ? 'no request reached the upstream'
            : `none of the ${all.length} request${all.length === 1 ? '' : 's'} was a chat completion (${traffic.nonModel
                .slice(0, 3)
                .map((t) => `${t.method} ${t.url} → ${t.status}: ${t.note}`)
                .join('; ')})`,
        );
      const meta = deriveMeta(traffic.exchanges, upstream.hostname, 'passthrough', file, {
        id: info.id,
        recordedAt: startedAt,
        ...(info.description ? { description: info.description } : {}),
      });
      // The time the recording was made, never the upstream's `created` (a proxy, a cache or a
      // mock upstream sets it; deriveMeta prefers it for imports that have no time of their own).
      meta.recordedAt = startedAt;
      meta.title =
        info.title ?? `pass-through recording: ${(meta.task ?? '').replace(/\s+/g, ' ').slice(0, 72)}`;
      const raw: Cassette = {
        format: CASSETTE_FORMAT,
        version: CASSETTE_VERSION,
        meta,
        deps: {},
        exchanges: traffic.exchanges,
        ...(traffic.nonModel.length > 0 ? { nonModel: traffic.nonModel } : {}),
      };
      const secrets = [
        ...(options.apiKey ? [options.apiKey] : []),
        ...clientSecrets,
        ...(options.secrets ?? []),
        ...secretValuesFromEnv(options.env ?? process.env),
      ];
      const cassette = redactValues(raw, secrets);
      const findings = scanForSecrets(cassette);
      if (findings.length > 0) throw new RecordRefusedError(findings);
      const problems = validateCassette(cassette, file);
      if (problems.length > 0)
        throw new Error(
          `the recorded cassette does not match the schema (a bug): ${problems.map((p) => `${p.path}: ${p.reason}`).join('; ')}`,
        );
      return cassette;
    },
  };
}

/**
 * The headers sent upstream: the client's, less hop-by-hop ones; its credentials replaced by
 * `apiKey` when one is given, else forwarded (and remembered in `clientSecrets` for redaction).
 */
function forwardedHeaders(
  req: IncomingMessage,
  apiKey: string | undefined,
  clientSecrets: Set<string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || DROPPED_REQUEST_HEADERS.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  for (const name of ['authorization', 'api-key', 'x-api-key']) {
    const value = out[name];
    if (value) clientSecrets.add(value.replace(/^Bearer\s+/i, ''));
  }
  if (apiKey) {
    const azure = out['api-key'] !== undefined;
    delete out.authorization;
    delete out['api-key'];
    delete out['x-api-key'];
    if (azure) out['api-key'] = apiKey;
    else out.authorization = `Bearer ${apiKey}`;
  }
  return out;
}

/** The whole request body. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

/** A JSON error in OpenAI's shape, from the proxy itself. */
function sendError(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type: 'harness_bench_passthrough', code: null } }));
}

/** Resolves when the response can take more (or is gone). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
