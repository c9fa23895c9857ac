/**
 * Which recorded interactions are model exchanges. Only a chat completion is one: `POST` to a
 * path ending in `/chat/completions` (OpenAI's endpoint, and the path every OpenAI-compatible
 * gateway documents: Azure `/openai/deployments/<name>/chat/completions`, OpenRouter
 * `/api/v1/…`, Groq `/openai/v1/…`, Gemini `/v1beta/openai/…`, Ollama `/v1/…`, Mistral,
 * DeepSeek, Together, Perplexity) with a JSON body holding a `messages` array. Everything else a
 * recording holds (telemetry, search APIs, prompt hubs such as LangSmith, embeddings, the
 * Responses or Assistants API, another provider's native API) is *non-model traffic*: kept in
 * the cassette's `nonModel` list with a note, never served to the harness, and never a source
 * of cassette metadata. The bug this prevents: a telemetry reply, a LangSmith `GET /info` and
 * undecoded gzip bytes had been served as the model's final answer.
 *
 * This is the one classifier: the importers split a recording with it ({@link partitionTraffic}),
 * and the replay applies it again to every exchange of a cassette ({@link classifyExchange}), so
 * a cassette written by hand or by an older build cannot serve non-model traffic either.
 */
import type { Cassette, Exchange, NonModelTraffic } from '../cassette/types.ts';

/** What the classifier needs to know about one interaction. */
export interface TrafficFacts {
  method: string;
  host: string;
  /** Path and query. */
  path: string;
  /** The request body when it is a JSON object, else `null`. */
  body: Record<string, unknown> | null;
}

/** A model exchange, or non-model traffic with what it is. */
export type Classification = { model: true } | { model: false; note: string };

/** Path (without query) ends in `/chat/completions`. */
export function isChatCompletionsPath(path: string): boolean {
  return /\/chat\/completions\/?$/.test(path.split('?')[0] ?? '');
}

/** Known non-model traffic, first match wins: host and path patterns → note. */
const KNOWN: readonly { host?: RegExp; path?: RegExp; note: string }[] = [
  { host: /(^|\.)telemetry\./, note: 'telemetry (trace export)' },
  { path: /\/v1\/(traces|metrics|logs)$|\/traces\/ingest$/, note: 'telemetry (trace export)' },
  { path: /\/(tracing|telemetry)(\/|$)/, note: 'telemetry (tracing)' },
  {
    host: /posthog\.com$|(^|\.)segment\.(io|com)$|sentry\.io$|mixpanel\.com$|amplitude\.com$|datadoghq\.(com|eu)$/,
    note: 'telemetry (product analytics)',
  },
  { host: /(^|\.)smith\.langchain\.com$/, note: 'LangSmith API (tracing, prompt hub)' },
  { host: /(^|\.)traceloop\.(com|dev)$/, note: 'Traceloop API' },
  { path: /\/embeddings$/, note: 'embeddings API' },
  { path: /\/responses(\/|$)/, note: 'OpenAI Responses API (not chat completions)' },
  { path: /\/(assistants|threads|vector_stores|files)(\/|$)/, note: 'OpenAI Assistants/files API' },
  { path: /\/v1\/messages$/, note: 'Anthropic Messages API (native, not chat completions)' },
  { path: /:(stream)?generateContent$/i, note: 'Gemini generateContent API (native)' },
  { path: /\/api\/(chat|generate|show|tags|pull|embed|embeddings|version)$/, note: 'Ollama native API' },
  { path: /\/completions$/, note: 'text completions API (not chat)' },
  { path: /\/images\/(generations|edits|variations)$/, note: 'image API' },
  { path: /\/audio\//, note: 'audio API' },
  { path: /\/moderations$/, note: 'moderation API' },
  { path: /\/rerank$/, note: 'rerank API' },
  { host: /bedrock(-runtime)?\..*amazonaws\.com$/, note: 'AWS Bedrock API (native)' },
  { host: /(^|\.)cohere\.(ai|com)$/, note: 'Cohere API (native)' },
  {
    host: /tavily|serper\.dev|wikipedia\.org|search\.brave\.com|duckduckgo|exa\.ai|bing\.microsoft/,
    note: 'search API (tool traffic)',
  },
  { host: /pinecone\.io|qdrant|chroma|weaviate/, note: 'vector database API' },
  { path: /\/models(\/[^/]*)?$/, note: 'model listing' },
];

/**
 * Classifies one interaction (see the module comment for the rule). A POST to
 * `…/chat/completions` without a `messages` array is non-model traffic too: it cannot be a
 * turn of a conversation.
 */
export function classifyInteraction(facts: TrafficFacts): Classification {
  const pathOnly = facts.path.split('?')[0] ?? '';
  if (isChatCompletionsPath(pathOnly) && facts.method !== 'POST')
    return {
      model: false,
      note: `a ${facts.method} to chat/completions (stored completions), not a model call`,
    };
  if (isChatCompletionsPath(pathOnly)) {
    if (facts.body && Array.isArray(facts.body.messages)) return { model: true };
    return {
      model: false,
      note: facts.body
        ? 'a chat/completions request without a "messages" array'
        : 'a chat/completions request without a JSON body',
    };
  }
  const host = facts.host.toLowerCase();
  for (const known of KNOWN)
    if ((!known.host || known.host.test(host)) && (!known.path || known.path.test(pathOnly)))
      return { model: false, note: known.note };
  if (facts.method === 'GET' && (pathOnly === '' || pathOnly === '/'))
    return { model: false, note: 'health check' };
  return { model: false, note: 'not a chat completion' };
}

const SECRET_PARAM = /key|token|secret|password|passwd|signature|^sig$|auth|session|credential/i;

/**
 * A URL for the record: user info dropped, values of secret-looking query parameters (`key`,
 * `api_key`, `token`, `sig`, …) replaced by `REDACTED`. Placeholder URLs (`<OLLAMA_API_BASE>/…`)
 * are redacted by pattern.
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    for (const name of [...parsed.searchParams.keys()])
      if (SECRET_PARAM.test(name)) parsed.searchParams.set(name, 'REDACTED');
    return parsed.toString();
  } catch {
    return url.replace(/([?&]([^=&#]+)=)([^&#]*)/g, (whole, prefix: string, name: string) =>
      SECRET_PARAM.test(name) ? `${prefix}REDACTED` : whole,
    );
  }
}

/** One interaction after reading, before classification; `exchange` is built only for model traffic. */
export interface ReadInteraction {
  index: number;
  method: string;
  url: string;
  host: string;
  path: string;
  body: Record<string, unknown> | null;
  status: number;
  /** ISO time the recording gives this interaction (Ruby VCR `recorded_at`, HAR `startedDateTime`). */
  recordedAt?: string;
  /** Builds the exchange (decodes the response); called for model traffic only. */
  exchange(): Exchange;
}

/** Model exchanges in order, the rest as non-model traffic, and the host of the first model exchange. */
export interface PartitionedTraffic {
  exchanges: Exchange[];
  nonModel: NonModelTraffic[];
  host: string | null;
  /** `recordedAt` of the first model exchange that has one. */
  recordedAt?: string;
}

/** Splits read interactions into model exchanges and non-model traffic ({@link classifyInteraction}). */
export function partitionTraffic(interactions: readonly ReadInteraction[]): PartitionedTraffic {
  const exchanges: Exchange[] = [];
  const nonModel: NonModelTraffic[] = [];
  let host: string | null = null;
  let recordedAt: string | undefined;
  for (const item of interactions) {
    let verdict = classifyInteraction(item);
    const exchange = verdict.model ? item.exchange() : undefined;
    if (exchange) verdict = responseVerdict(exchange.response);
    if (verdict.model) {
      host ??= item.host;
      recordedAt ??= item.recordedAt;
      exchanges.push(exchange!);
    } else
      nonModel.push({
        index: item.index,
        method: item.method,
        url: redactUrl(item.url),
        status: item.status,
        note: verdict.note,
      });
  }
  return { exchanges, nonModel, host, ...(recordedAt ? { recordedAt } : {}) };
}

/**
 * The response half of the rule: a chat completion is a model exchange only when a response was
 * recorded (an error status, or a success with a body). A 2xx whose body was not recorded (a
 * browser HAR of a stream, a truncated cassette) holds no model turn: serving it would be a
 * hollow pass.
 */
function responseVerdict(response: Exchange['response'] | undefined): Classification {
  const status = response?.status;
  if (typeof status !== 'number' || !(status >= 100 && status <= 599))
    return { model: false, note: 'a chat completion with no recorded response (aborted)' };
  if (status >= 300) return { model: true };
  const { body, events } = response!;
  const recorded = events ? events.length > 0 : body !== undefined && body !== null && body !== '';
  return recorded
    ? { model: true }
    : { model: false, note: 'a chat completion whose response body was not recorded' };
}

/**
 * Classifies one exchange of a cassette by the same rule as at import (request, then
 * response). The host is the cassette's (`meta.host`: requests keep only path and query). A
 * response-only recording's placeholder request (`body: null`, `meta.responseOnly`) counts as
 * a chat completion: the response is all it recorded.
 */
export function classifyExchange(
  exchange: Exchange,
  meta: Pick<Cassette['meta'], 'host' | 'responseOnly'>,
): Classification {
  const { method, path, body } = exchange.request;
  const json = body && typeof body === 'object' && !Array.isArray(body) ? body : null;
  const unknownRequest = meta.responseOnly === true && (body === null || body === undefined);
  const request = classifyInteraction({
    method: (method ?? '').toUpperCase(),
    host: meta.host ?? '',
    path: path ?? '',
    // Only the body is unknown: method and path must still be a chat completion's.
    body: unknownRequest ? { messages: [] } : json,
  });
  return request.model ? responseVerdict(exchange.response) : request;
}

/** What the replay-side functions read of a cassette. */
export interface CassetteTraffic {
  meta: Pick<Cassette['meta'], 'host' | 'responseOnly'>;
  exchanges: readonly Exchange[];
  nonModel?: readonly NonModelTraffic[];
}

/** Indexes (in `exchanges`) of the exchanges {@link classifyExchange} takes for model exchanges, in order. */
export function modelExchangeIndexes(cassette: CassetteTraffic): number[] {
  return cassette.exchanges.flatMap((exchange, i) =>
    classifyExchange(exchange, cassette.meta).model ? [i] : [],
  );
}

/**
 * Non-model traffic as a replay lists it: the cassette's `nonModel` entries, and any exchange
 * of `exchanges` that {@link classifyExchange} rejects (a hand-written or old cassette), with
 * `exchange` its index there.
 */
export interface ListedNonModel extends NonModelTraffic {
  /** Index in the cassette's `exchanges`, for an entry found there rather than in `nonModel`. */
  exchange?: number;
}

/**
 * Every non-model interaction of a cassette, never served: its `nonModel` list (in recorded
 * order), then the exchanges {@link classifyExchange} rejects. Their `url` is the cassette's
 * host and the recorded path (`https://<host><path>`).
 */
export function nonModelTraffic(cassette: CassetteTraffic): ListedNonModel[] {
  const out: ListedNonModel[] = [...(cassette.nonModel ?? [])];
  cassette.exchanges.forEach((exchange, i) => {
    const verdict = classifyExchange(exchange, cassette.meta);
    if (verdict.model) return;
    const path = exchange.request.path ?? '';
    const host = cassette.meta.host;
    out.push({
      index: i,
      exchange: i,
      method: (exchange.request.method ?? '').toUpperCase(),
      url: redactUrl(/^[a-z]+:\/\//i.test(path) || !host ? path : `https://${host}${path}`),
      status: typeof exchange.response?.status === 'number' ? exchange.response.status : 0,
      note: verdict.note,
    });
  });
  return out;
}

/** One line per entry for reports, query left out: `GET https://api.smith.langchain.com/info (200)`. */
export function describeNonModel(entry: Pick<NonModelTraffic, 'method' | 'url' | 'status'>): string {
  return `${entry.method} ${entry.url.replace(/[?#].*$/, '')}${entry.status > 0 ? ` (${entry.status})` : ''}`;
}

/**
 * The reason an import is refused when nothing in it is a model exchange: how many
 * interactions there were and what the first few are.
 */
export function noModelTrafficReason(nonModel: readonly NonModelTraffic[]): string {
  const shown = nonModel
    .slice(0, 5)
    .map((item) => `${item.method} ${item.url} → ${item.status} (${item.note})`)
    .join('; ');
  const more = nonModel.length > 5 ? `; and ${nonModel.length - 5} more` : '';
  return `no model traffic: none of the ${nonModel.length} interaction${nonModel.length === 1 ? '' : 's'} is a chat completion (POST …/chat/completions with a "messages" array), so nothing could be replayed. Seen: ${shown}${more}`;
}
