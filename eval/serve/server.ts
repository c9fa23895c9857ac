/**
 * The model side as a server: a scenario's scripted model or a cassette's
 * recorded responses served as an OpenAI-compatible chat-completions endpoint on 127.0.0.1, so
 * any harness, in any language, can be benched. `harness-bench serve` (`cli/serve-command.ts`)
 * and the adapter runner (`eval/adapters/`) both start it here.
 *
 * Routes: `POST /v1/chat/completions` (also `/chat/completions`), `GET /v1/models` (also
 * `/models`). A request with `"stream": true` gets server-sent `chat.completion.chunk` events
 * ending in `data: [DONE]`; any other gets one `chat.completion` body: a cassette's response
 * recorded in the other mode is converted (`stream-convert.ts`; error statuses and text bodies go
 * as recorded) and the request says so (`converted`). A scripted
 * `{error: {status, body}}` turn is answered with that status and body (a Groq
 * `tool_use_failed` body included). A request after the last turn is answered HTTP 400 with
 * `error.code: "script_exhausted"` and counts as "the harness asked for more turns than
 * scripted". Every request is recorded, in arrival order, with what it was answered.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expandScript, isErrorTurn, type ScriptedTurn } from '../../harness/model/scripted-model.ts';
import type { Cassette, RecordedResponse } from '../cassette/types.ts';
import { modelExchangeIndexes } from '../import/classify.ts';
import { replaceInStrings, WORKSPACE_PLACEHOLDER } from '../record/redact.ts';
import { mapRecordedToolCalls } from './recorded-map.ts';
import type { ToolMap } from './tool-map.ts';
import { completionFromEvents, eventsFromCompletion, includeUsageOf } from './stream-convert.ts';
import { completionBody, errorBody, mapTurn, streamEvents } from './wire.ts';

/** The API key the endpoint tells harnesses to send; any key (or none) is accepted. */
export const SERVE_API_KEY = 'harness-bench-serve';

/** How one request was answered. */
export type ServedOutcome =
  | 'turn' // a scripted response turn or a recorded exchange
  | 'error_turn' // a scripted `{error}` turn: its status and body
  | 'exhausted' // no turn left: HTTP 400, `script_exhausted`
  | 'bad_request' // the body is not a JSON object: HTTP 400, no turn used
  | 'models' // GET /v1/models
  | 'not_found'; // any other method or path: HTTP 404

/** One request the harness under test sent, as received, with what the server answered. */
export interface RecordedRequest {
  /** HTTP method, upper case. */
  method: string;
  /** Path and query as sent, e.g. `/v1/chat/completions`. */
  path: string;
  /** The parsed JSON body; the raw text when it is not JSON; `null` when empty. */
  body: unknown;
  /** 0-based index of the turn (scripted, after `repeat`) or model exchange served; `null` when none was. */
  turn: number | null;
  /** True when the request asked for a stream (`"stream": true`). */
  stream: boolean;
  /** HTTP status of the answer. */
  status: number;
  outcome: ServedOutcome;
  /**
   * True when the request retried a provider error that outlasts the script: the script's last
   * turn is a retryable error (429 or 5xx) and the harness asked again, so it got the same error
   * again (`turn` is that last turn) instead of `script_exhausted`. A legitimate retry, not a
   * turn of its own.
   */
  retry?: true;
  /**
   * Set when a recorded response was served in the other mode than recorded, because the request
   * asked for that mode (`stream-convert.ts`): `stream_to_body`, a recorded stream sent as one
   * JSON body; `body_to_stream`, a recorded JSON body sent as server-sent events.
   */
  converted?: Conversion;
}

/** How a recorded response was converted to the mode the request asked for (see {@link RecordedRequest.converted}). */
export type Conversion = 'stream_to_body' | 'body_to_stream';

/** What to serve: a scripted model (a scenario's `model` list) or a cassette. */
export type ModelSource =
  | { scenario: { model: readonly ScriptedTurn[] }; cassette?: undefined }
  | { cassette: Cassette; scenario?: undefined };

/** Options of {@link startModelServer}. */
export type ModelServerOptions = ModelSource & {
  /** Our tool names/argument keys → the harness's, applied to every call served. */
  toolMap?: ToolMap;
  /** TCP port on 127.0.0.1; `0` (default) picks a free one. */
  port?: number;
  /** Model name `GET /v1/models` lists and bodies echo when the request names none. @default 'scripted' */
  model?: string;
  /** Cassettes: `$WORKSPACE` in recorded responses becomes this absolute path. */
  workspace?: string;
  /**
   * Scenarios: send a call's object `arguments` as their JSON string, as the OpenAI wire format
   * has them, instead of as the object itself (the scripted model's literal meaning). Scenarios
   * write arguments as YAML objects for readability; served to a foreign harness, an object on the
   * wire would test object-shaped arguments in every such case. `run --harness` sets it unless the
   * scenario is tagged `object-arguments` (the object is the fault). @default false
   */
  stringifyObjectArguments?: boolean;
  /** Called with each request as it is recorded (the `serve` command prints a line per request). */
  onRequest?: (request: RecordedRequest) => void;
};

/** A running endpoint. */
export interface ModelServer {
  /** `http://127.0.0.1:PORT/v1`, the OpenAI client's `baseURL`. */
  baseURL: string;
  port: number;
  /** Every request received so far, in arrival order (the same array grows). */
  requests: RecordedRequest[];
  /** Turns (or model exchanges) the source holds. */
  turns: number;
  /** Turns served so far. */
  served(): number;
  /** Stops listening and ends open connections. Idempotent. */
  close(): Promise<void>;
}

/** One answer: a JSON body or a list of SSE `data:` payloads; `converted` when a recording's mode was changed. */
type Answer = (
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: number; events: string[]; headers?: Record<string, string> }
  | { status: number; text: string; headers?: Record<string, string> }
) & { converted?: Conversion };

interface Source {
  turns: number;
  /** The `error.message` of a request past the last turn; `asked` is its 1-based turn number. */
  exhausted(asked: number): string;
  /** Answers the next chat-completions request, or `undefined` when no turn is left. */
  next(body: Record<string, unknown>, stream: boolean, cursor: number): Answer | undefined;
  /** True when the last turn is a retryable provider error (429, 5xx) that a retry meets again. */
  persistentError?: boolean;
}

/** HTTP statuses a client retries by convention (rate limit, server errors). */
function retryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

function scriptedSource(
  turns: readonly ScriptedTurn[],
  map: ToolMap | undefined,
  model: string,
  stringifyObjects: boolean,
): Source {
  const script = expandScript(turns);
  const last = script.at(-1);
  return {
    turns: script.length,
    persistentError: last !== undefined && isErrorTurn(last) && retryableStatus(last.error.status),
    exhausted: (asked) =>
      `the scenario script has ${script.length} turns and the harness asked for turn ${asked}`,
    next(body, stream, cursor) {
      const turn = script[cursor];
      if (!turn) return undefined;
      if (isErrorTurn(turn)) {
        const status = turn.error.status;
        const json = turn.error.body ?? errorBody(`HTTP ${status} (scripted)`, 'scripted_error');
        return typeof json === 'string' ? { status, text: json } : { status, json };
      }
      const name = typeof body.model === 'string' ? body.model : model;
      const mapped = mapTurn(turn, map, stringifyObjects);
      return stream
        ? { status: 200, events: streamEvents(mapped, cursor + 1, name) }
        : { status: 200, json: completionBody(mapped, cursor + 1, name) };
    },
  };
}

function cassetteSource(cassette: Cassette, map: ToolMap | undefined, workspace: string | undefined): Source {
  const indexes = modelExchangeIndexes(cassette);
  return {
    turns: indexes.length,
    exhausted: (asked) =>
      `the recording has ${indexes.length} model exchanges and the harness asked for exchange ${asked}`,
    next(body, stream, cursor) {
      const index = indexes[cursor];
      if (index === undefined) return undefined;
      let response: RecordedResponse = cassette.exchanges[index]!.response;
      if (workspace) response = replaceInStrings(response, [[WORKSPACE_PLACEHOLDER, workspace]]);
      const headers = { ...response.headers };
      delete headers['content-length'];
      delete headers['content-encoding'];
      delete headers['transfer-encoding'];
      // An error status goes as recorded in either mode; a success in the other mode is converted.
      const convert = response.status < 400;
      if (response.events) {
        if (!stream && convert) {
          const json = completionFromEvents(response.events.map((e) => e.data));
          delete headers['content-type'];
          return {
            status: response.status,
            headers,
            json: mapRecordedToolCalls(json, map),
            converted: 'stream_to_body',
          };
        }
        return {
          status: response.status,
          headers,
          events: response.events.map((e) => mapEvent(e.data, map)),
        };
      }
      if (typeof response.body === 'string') return { status: response.status, headers, text: response.body };
      const json = mapRecordedToolCalls(response.body ?? null, map);
      if (stream && convert) {
        const events = eventsFromCompletion(json, { includeUsage: includeUsageOf(body) });
        if (events) {
          delete headers['content-type'];
          return { status: response.status, headers, events, converted: 'body_to_stream' };
        }
      }
      return { status: response.status, headers, json };
    },
  };
}

function mapEvent(data: string, map: ToolMap | undefined): string {
  if (!map || data === '[DONE]') return data;
  try {
    return JSON.stringify(mapRecordedToolCalls(JSON.parse(data), map));
  } catch {
    return data;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function send(res: ServerResponse, answer: Answer): void {
  const headers = { ...(answer.headers ?? {}) };
  if ('events' in answer) {
    res.writeHead(answer.status, {
      ...headers,
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    for (const data of answer.events)
      res.write(
        `${data
          .split('\n')
          .map((line) => `data: ${line}`)
          .join('\n')}\n\n`,
      );
    res.end();
    return;
  }
  const text = 'json' in answer ? JSON.stringify(answer.json) : answer.text;
  const type = 'json' in answer ? 'application/json' : 'text/plain; charset=utf-8';
  res.writeHead(answer.status, { 'content-type': type, ...headers });
  res.end(text);
}

const CHAT_PATHS = new Set(['/v1/chat/completions', '/chat/completions']);
const MODEL_PATHS = new Set(['/v1/models', '/models']);

/**
 * Starts the endpoint on 127.0.0.1 and resolves once it listens.
 *
 * @throws Error when the port is taken (`listen EADDRINUSE`), with Node's message.
 */
export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const model = options.model ?? 'scripted';
  const source = options.cassette
    ? cassetteSource(options.cassette, options.toolMap, options.workspace)
    : scriptedSource(
        options.scenario.model,
        options.toolMap,
        model,
        options.stringifyObjectArguments === true,
      );
  const requests: RecordedRequest[] = [];
  let cursor = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase();
    const path = req.url ?? '/';
    const route = path.split('?')[0]!.replace(/\/+$/, '');
    const text = await readBody(req);
    let body: unknown = null;
    if (text !== '')
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    const record = (
      status: number,
      outcome: ServedOutcome,
      turn: number | null,
      stream = false,
      converted?: Conversion,
    ) => {
      const entry: RecordedRequest = {
        method,
        path,
        body,
        turn,
        stream,
        status,
        outcome,
        ...(converted ? { converted } : {}),
      };
      requests.push(entry);
      options.onRequest?.(entry);
    };

    if (method === 'GET' && MODEL_PATHS.has(route)) {
      record(200, 'models', null);
      send(res, {
        status: 200,
        json: {
          object: 'list',
          data: [{ id: model, object: 'model', created: 0, owned_by: 'harness-bench' }],
        },
      });
      return;
    }
    if (method !== 'POST' || !CHAT_PATHS.has(route)) {
      record(404, 'not_found', null);
      send(res, { status: 404, json: errorBody(`no route ${method} ${route}`, 'not_found') });
      return;
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      record(400, 'bad_request', null);
      send(res, { status: 400, json: errorBody('the request body is not a JSON object', 'invalid_request') });
      return;
    }
    const stream = (body as { stream?: unknown }).stream === true;
    if (cursor >= source.turns && source.persistentError && source.turns > 0) {
      const again = source.next(body as Record<string, unknown>, stream, source.turns - 1)!;
      requests.push({
        method,
        path,
        body,
        turn: source.turns - 1,
        stream,
        status: again.status,
        outcome: 'error_turn',
        retry: true,
      });
      options.onRequest?.(requests.at(-1)!);
      send(res, again);
      return;
    }
    const answer = source.next(body as Record<string, unknown>, stream, cursor);
    if (!answer) {
      record(400, 'exhausted', null, stream);
      send(res, { status: 400, json: errorBody(source.exhausted(cursor + 1), 'script_exhausted') });
      cursor += 1;
      return;
    }
    const turn = cursor;
    cursor += 1;
    const scriptedError = !options.cassette && answer.status >= 400;
    record(answer.status, scriptedError ? 'error_turn' : 'turn', turn, stream, answer.converted);
    send(res, answer);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, { status: 500, json: errorBody(String(error), 'server_error') });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    turns: source.turns,
    served: () => Math.min(cursor, source.turns),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
