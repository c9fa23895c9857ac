/**
 * A cassette → nock definitions (`nock.define()` input, https://github.com/nock/nock#recording),
 * so a user's own vitest + nock tests can serve our recorded exchanges to their client: one
 * definition per exchange, in order, with the recorded request body (nock matches it), the
 * status, the allowlisted headers, and the body as JSON or the stream as SSE text.
 */
import type { Cassette } from '../cassette/types.ts';

/** One nock definition as `nock.define()` reads it. */
export interface NockExport {
  scope: string;
  method: string;
  path: string;
  /** The recorded request body; absent when the recording has none (nock then matches any body). */
  body?: Record<string, unknown>;
  status: number;
  /** A JSON body, or SSE text (`data: …` blocks) for a stream. */
  response: unknown;
  headers: Record<string, string>;
}

/** Options of {@link cassetteToNock}. */
export interface NockExportOptions {
  /**
   * The scope (origin) nock intercepts, e.g. `http://127.0.0.1:1234`. Default: from
   * `meta.host`, `http://` for loopback hosts and `https://` otherwise (the port is not
   * recorded: give `scope` for a local server on a port).
   */
  scope?: string;
}

/** `https://<host>`, or `http://<host>` for loopback; `https://api.openai.com` when the cassette names no host. */
function defaultScope(host: string | null): string {
  if (!host) return 'https://api.openai.com';
  return /^(127\.\d+\.\d+\.\d+|localhost|::1)$/.test(host) ? `http://${host}` : `https://${host}`;
}

/** The SSE text of recorded events (each `data` line prefixed, events separated by a blank line). */
function sseText(events: readonly { data: string }[]): string {
  return events
    .map(
      (event) =>
        `${event.data
          .split('\n')
          .map((line) => `data: ${line}`)
          .join('\n')}\n\n`,
    )
    .join('');
}

/** Converts every exchange of a cassette into a nock definition, in order. Pure. */
export function cassetteToNock(cassette: Cassette, options: NockExportOptions = {}): NockExport[] {
  const scope = (options.scope ?? defaultScope(cassette.meta.host)).replace(/\/+$/, '');
  return cassette.exchanges.map(({ request, response }) => {
    const headers = { ...response.headers };
    if (response.events && !headers['content-type']) headers['content-type'] = 'text/event-stream';
    return {
      scope,
      method: request.method,
      path: request.path,
      ...(request.body ? { body: request.body } : {}),
      status: response.status,
      response: response.events ? sseText(response.events) : (response.body ?? ''),
      headers,
    };
  });
}
