/**
 * Which recorded interactions are model traffic. An exchange is a model exchange only when its
 * request is a chat completion: method `POST`, a path ending in `/chat/completions` (OpenAI's
 * `/v1/chat/completions` and every documented OpenAI-compatible form of it: Azure's
 * `/openai/deployments/<name>/chat/completions?api-version=…`, Groq's `/openai/v1/…`,
 * OpenRouter's `/api/v1/…`, Gemini's `/v1beta/openai/…`, Snowflake Cortex `/api/v2/cortex/v1/…`),
 * and, when the body was recorded, a JSON object with a `messages` list. Everything else
 * (telemetry, tracing, embeddings, search APIs, prompt hubs, another provider's native API) is
 * *non-model traffic*: never served to the harness as a model turn, and listed in the case
 * result. An importer may also mark an interaction as non-model, or keep such traffic out of
 * `exchanges` altogether in an optional cassette-level `nonModel` list; both are honoured.
 */
import type { Cassette, Exchange } from '../cassette/types.ts';

/** One recorded interaction that is not model traffic, as the case result lists it. */
export interface NonModelTraffic {
  /** Index in `exchanges` (0-based); absent for an entry of the cassette's own `nonModel` list. */
  exchange?: number;
  method: string;
  /** Path and query (or the whole URL, when the importer kept one). */
  path: string;
  /** Response status; `null` when none was recorded. */
  status: number | null;
  /** Why it is not model traffic, e.g. `GET /info is not a chat-completions request`. */
  note: string;
}

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The path without its query string. */
function pathname(path: string): string {
  const at = path.search(/[?#]/);
  return at < 0 ? path : path.slice(0, at);
}

/** True for a chat-completions endpoint path (any prefix, optional trailing slash, any query). */
export function isChatCompletionsPath(path: string): boolean {
  let name = pathname(path);
  if (/^[a-z]+:\/\//i.test(name)) name = name.replace(/^[a-z]+:\/\/[^/]*/i, '');
  return /\/chat\/completions\/?$/.test(name);
}

/** The mark an importer may put on an exchange it knows is not model traffic, as a note. */
function importerMark(exchange: Exchange): string | undefined {
  const marked = exchange as Exchange & { nonModel?: unknown; kind?: unknown };
  if (marked.kind === 'non-model') return 'marked as non-model traffic at import';
  if (marked.nonModel === true) return 'marked as non-model traffic at import';
  if (typeof marked.nonModel === 'string') return marked.nonModel;
  if (isObj(marked.nonModel) && typeof marked.nonModel.note === 'string') return marked.nonModel.note;
  return undefined;
}

/**
 * Why `exchange` is not a model exchange, or `undefined` when it is one (see the module
 * comment). Response bodies are not judged here: a chat-completions request whose recorded
 * response does not decode is a model exchange with an invalid response, a failure of the replay.
 */
export function nonModelReason(exchange: Exchange): string | undefined {
  const mark = importerMark(exchange);
  if (mark) return mark;
  const { method, path, body } = exchange.request;
  const line = `${(method ?? '').toUpperCase()} ${pathname(path ?? '')}`;
  if (!isChatCompletionsPath(path ?? '')) return `${line} is not a chat-completions endpoint`;
  if ((method ?? '').toUpperCase() !== 'POST')
    return `${line} is not a chat-completions request (not a POST)`;
  if (body !== null && body !== undefined && !(isObj(body) && Array.isArray(body.messages)))
    return `${line}: the request body has no messages list`;
  return undefined;
}

/** Indexes of the model exchanges of a cassette, in order. */
export function modelExchangeIndexes(cassette: Cassette): number[] {
  return cassette.exchanges.flatMap((exchange, i) => (nonModelReason(exchange) === undefined ? [i] : []));
}

/**
 * Every non-model interaction of a cassette: the exchanges {@link nonModelReason} rejects, then
 * the entries of an importer's cassette-level `nonModel` list (`{method, url|path, status,
 * note}`), in recorded order.
 */
export function nonModelTraffic(cassette: Cassette): NonModelTraffic[] {
  const out: NonModelTraffic[] = [];
  cassette.exchanges.forEach((exchange, i) => {
    const note = nonModelReason(exchange);
    if (note !== undefined)
      out.push({
        exchange: i,
        method: (exchange.request.method ?? '').toUpperCase(),
        path: exchange.request.path ?? '',
        status: typeof exchange.response?.status === 'number' ? exchange.response.status : null,
        note,
      });
  });
  const listed = (cassette as Cassette & { nonModel?: unknown }).nonModel;
  if (Array.isArray(listed))
    for (const entry of listed) {
      if (!isObj(entry)) continue;
      const method = typeof entry.method === 'string' ? entry.method.toUpperCase() : '';
      const where =
        typeof entry.url === 'string' ? entry.url : typeof entry.path === 'string' ? entry.path : '';
      out.push({
        method,
        path: where,
        status: typeof entry.status === 'number' ? entry.status : null,
        note: typeof entry.note === 'string' ? entry.note : 'listed as non-model traffic at import',
      });
    }
  return out;
}

/** One line per entry for reports: `GET /info (200): not a chat-completions endpoint`. */
export function describeNonModel(entry: NonModelTraffic): string {
  return `${entry.method} ${pathname(entry.path)}${entry.status === null ? '' : ` (${entry.status})`}`;
}
