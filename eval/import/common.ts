/**
 * Pieces shared by the importers: the response-header allowlist, URL splitting, stream-event
 * extraction, and the metadata every imported cassette derives from its exchanges.
 */
import { parseSseData } from '../../harness/model/stream-assembler.ts';
import { canonicalJson, sha256Hex } from '../cassette/canonical.ts';
import type {
  CassetteMeta,
  CassetteSource,
  Exchange,
  ImportFormat,
  RecordedEvent,
} from '../cassette/types.ts';

/**
 * Options of an import. Provenance (`source`, `title`, `description`) comes from the caller:
 * a foreign recording does not say where it was published.
 */
export interface ImportOptions {
  /** Cassette id; default: the file name without its extensions (`.yaml`, `.chunks.txt`, `.sse`). */
  id?: string;
  /** Default: `<id> (imported <format>)`. */
  title?: string;
  description?: string;
  source?: CassetteSource;
  /**
   * Used when no response carries a usable `created` timestamp (e.g. sanitised to 0) and the
   * recording has no timestamp of its own (Ruby VCR `recorded_at`, HAR `startedDateTime`).
   */
  recordedAt?: string;
  /** Skips format detection. */
  format?: ImportFormat;
  /** Receives each warning (secret-scan findings, oddities). Default: `console.warn`. */
  onWarning?: (message: string) => void;
}

/**
 * Response headers kept in a cassette: harmless ones that change harness behaviour (retry
 * timing, rate limits) or help reading a recording. Everything else is dropped, in particular
 * cookies, `set-cookie`, `openai-organization`, `openai-project`, `authorization`, `api-key`.
 */
export const HEADER_ALLOWLIST: readonly RegExp[] = [
  /^content-type$/,
  /^retry-after(-ms)?$/,
  /^x-should-retry$/,
  /^x-ratelimit-[a-z0-9-]+$/,
  /^openai-processing-ms$/,
  /^openai-version$/,
];

/**
 * Filters headers through {@link HEADER_ALLOWLIST}. Names are lower-cased; a list of values is
 * joined with `, ` into one string (HTTP's own folding rule).
 */
export function allowlistHeaders(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof raw !== 'object' || raw === null) return out;
  for (const [name, value] of Object.entries(raw)) {
    const lower = name.toLowerCase();
    if (!HEADER_ALLOWLIST.some((pattern) => pattern.test(lower))) continue;
    const values = (Array.isArray(value) ? value : [value])
      .filter((v) => v !== null && v !== undefined)
      .map(String);
    out[lower] = out[lower] !== undefined ? [out[lower], ...values].join(', ') : values.join(', ');
  }
  return out;
}

/**
 * Splits a URL into host and path-with-query (Azure keeps `/openai/deployments/<name>/…?api-version=…`).
 * Recordings that replaced the base URL with a placeholder keep it as the host: Ruby VCR's
 * `filter_sensitive_data('<OLLAMA_API_BASE>')` gives `<OLLAMA_API_BASE>/chat/completions`
 * (host `<OLLAMA_API_BASE>`, path `/chat/completions`), `https://<AZURE_HOST>/openai/…` gives
 * host `<AZURE_HOST>`.
 *
 * @throws TypeError when the text is neither a URL nor a placeholder URL.
 */
export function splitUri(uri: string): { host: string; path: string } {
  const placeholder = /^(<[^<>\s]+>)([^#]*)/.exec(uri);
  if (placeholder) {
    const rest = placeholder[2] ?? '';
    return { host: placeholder[1]!, path: rest.startsWith('/') ? rest : `/${rest}` };
  }
  try {
    const url = new URL(uri);
    return { host: url.hostname, path: `${url.pathname}${url.search}` };
  } catch (error) {
    // A scheme with a host URL parsing refuses (`https://<AZURE_HOST>/…`), or no scheme at all
    // (`googleapis.com`, as some VCR filters leave it).
    const loose = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^/?#\s]+)([^#\s]*)$/i.exec(uri);
    if (!loose) throw error;
    const rest = loose[2] ?? '';
    return { host: loose[1]!, path: rest.startsWith('/') ? rest : `/${rest}` };
  }
}

/** True when a text body is a server-sent-events stream (starts with an SSE field or comment). */
export function looksLikeSse(text: string): boolean {
  const first = text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
  return /^(data|event|id|retry):/.test(first) || first.startsWith(':');
}

/** SSE text → events, `[DONE]` kept where the stream had it (nothing is added). */
export function eventsFromSse(text: string): RecordedEvent[] {
  return parseSseData(text).map((data) => ({ data }));
}

/** The text of a message `content`: a string as is, an array of parts joined by their `text`. */
export function contentText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  return content
    .map((part) =>
      typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string'
        ? (part as { text: string }).text
        : '',
    )
    .join('');
}

/** Messages of a request body, or `[]`. */
export function bodyMessages(body: Record<string, unknown> | null | undefined): Record<string, unknown>[] {
  const messages = body?.messages;
  return Array.isArray(messages)
    ? messages.filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null)
    : [];
}

/** The Azure deployment name in a path (`/openai/deployments/<name>/chat/completions`), if any. */
export function azureDeployment(path: string): string | null {
  const match = /\/deployments\/([^/?]+)\//.exec(path);
  return match ? decodeURIComponent(match[1]!) : null;
}

/** The parsed JSON payloads of a response's events (`[DONE]` and unparsable ones skipped). */
export function eventPayloads(events: readonly RecordedEvent[] | undefined): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const event of events ?? []) {
    if (event.data.trim() === '[DONE]') continue;
    try {
      const value: unknown = JSON.parse(event.data);
      if (typeof value === 'object' && value !== null && !Array.isArray(value))
        out.push(value as Record<string, unknown>);
    } catch {
      // Not JSON: the replay model reports it; metadata just skips it.
    }
  }
  return out;
}

function responseObjects(exchange: Exchange): Record<string, unknown>[] {
  const { body, events } = exchange.response;
  if (events) return eventPayloads(events);
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? [body as Record<string, unknown>]
    : [];
}

/**
 * The id of a cassette from a file name: the base name without `.yaml`, `.yml`, `.json`,
 * `.chunks.txt`, `.txt`, `.sse`, `.har`, `.har.json`, `.har.yaml`, `.httprr` (and a trailing `.gz`).
 */
export function idFromFileName(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.replace(/\.gz$/i, '').replace(/(\.chunks|\.har)?\.(ya?ml|json|txt|sse|har|httprr)$/i, '');
}

/**
 * Derives the metadata of an imported cassette from its exchanges (see {@link CassetteMeta} for
 * each field) and the caller's options.
 */
export function deriveMeta(
  exchanges: readonly Exchange[],
  host: string | null,
  format: ImportFormat,
  file: string,
  options: ImportOptions,
): CassetteMeta {
  const id = options.id ?? idFromFileName(file);
  const firstBody = exchanges[0]?.request.body ?? null;
  const responseOnly = exchanges.every(
    (exchange) => exchange.request.body === null || exchange.request.body === undefined,
  );
  let modelRequested: string | null = null;
  if (firstBody)
    modelRequested =
      typeof firstBody.model === 'string' ? firstBody.model : azureDeployment(exchanges[0]!.request.path);
  let modelServed: string | null = null;
  let created: number | null = null;
  for (const exchange of exchanges) {
    for (const object of responseObjects(exchange)) {
      if (modelServed === null && typeof object.model === 'string' && object.model !== '')
        modelServed = object.model;
      if (created === null && typeof object.created === 'number' && object.created > 0)
        created = object.created;
    }
  }
  const firstUser = bodyMessages(firstBody).find((m) => m.role === 'user');
  const base = file.split(/[\\/]/).pop() ?? file;
  return {
    id,
    title: options.title ?? `${id} (imported ${format})`,
    recordedAt: created !== null ? new Date(created * 1000).toISOString() : (options.recordedAt ?? 'unknown'),
    host,
    modelRequested,
    modelServed,
    task: firstUser ? contentText(firstUser.content) : null,
    toolSchemasHash: firstBody ? sha256Hex(canonicalJson(firstBody.tools ?? [])) : null,
    ...(options.source ? { source: options.source } : {}),
    imported: { format, file: base },
    responseOnly,
    ...(options.description ? { description: options.description } : {}),
  };
}

/**
 * A body's text as a JSON object: `null` for no text (or only spaces), an `Error` (the parser's,
 * or "not an object") when it is not one. Shared by the importers for request bodies.
 */
export function parseJsonObject(text: string | null): Record<string, unknown> | null | Error {
  if (text === null || text.trim() === '') return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : new Error('not an object');
  } catch (error) {
    return error as Error;
  }
}

/** The data of a recorded SSE event as a JSON object, `undefined` when it is not one. */
export function eventObject(event: RecordedEvent): Record<string, unknown> | undefined {
  const value = parseJsonObject(event.data);
  return value instanceof Error || value === null ? undefined : value;
}

/** A JSON object, as the importers read recordings. */
export type Obj = Record<string, unknown>;

/** True for a JSON object (not null, not an array). Pure. */
export const isObj = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
