/**
 * The one local OpenAI-compatible stub server every layer's tests use (model client, recorder,
 * CLI), part of the public `harness-bench/harness-testing` entry (`harness/testing.ts`): real
 * HTTP on 127.0.0.1 with a random free port (node:http), a queue of responders, one per request,
 * a log of what was received, and builders for whole completions, streamed chunks (each event
 * optionally waiting on a gate first) and HTTP errors. It lives in `harness/` so harness tests can
 * use it without importing the bench (`docs/architecture.md`, "Layers").
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

/** Answers one request. `body` is the parsed JSON request body. */
export type Responder = (
  req: IncomingMessage,
  res: ServerResponse,
  body: Record<string, unknown>,
) => void | Promise<void>;

/** A running stub. */
export interface StubServer {
  /** `http://127.0.0.1:<port>/v1` */
  baseURL: string;
  /** Responders still to serve, in order. A request with none queued gets a 500. */
  queue: Responder[];
  /** Every request received: path, authorization header, parsed body (`{}` when not JSON). */
  received: { path: string; authorization: string | undefined; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

/** Starts a stub on a free loopback port (127.0.0.1, port chosen by the system). */
export async function startStub(): Promise<StubServer> {
  const queue: Responder[] = [];
  const received: StubServer['received'] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      const body = parseBody(text);
      received.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
      const next =
        queue.shift() ?? json(500, { error: { message: 'no stub response queued', type: 'server_error' } });
      void Promise.resolve(next(req, res, body)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    queue,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function parseBody(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text || '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A whole JSON response. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Responder {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}

/** Options of {@link sse}. */
export interface SseOptions {
  headers?: Record<string, string>;
  /** Awaited before event `i` is written (0-based; the `[DONE]` event is index `chunks.length`). */
  before?: (index: number) => Promise<void>;
  /** Leave out the closing `data: [DONE]`. */
  noDone?: boolean;
}

/** A 200 `text/event-stream` response: one `data:` event per chunk, then `[DONE]`. */
export function sse(chunks: unknown[], options: SseOptions = {}): Responder {
  return async (_req, res) => {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      ...options.headers,
    });
    res.flushHeaders();
    for (let i = 0; i < chunks.length; i++) {
      await options.before?.(i);
      res.write(`data: ${JSON.stringify(chunks[i])}\n\n`);
    }
    if (!options.noDone) {
      await options.before?.(chunks.length);
      res.write('data: [DONE]\n\n');
    }
    res.end();
  };
}

/** A `chat.completion` body. */
export function completion(
  message: Record<string, unknown>,
  finish = 'stop',
  usage = { prompt_tokens: 40, completion_tokens: 8, total_tokens: 48 },
): Record<string, unknown> {
  return {
    id: 'chatcmpl-stub',
    object: 'chat.completion',
    created: 1_764_400_000,
    model: 'stub-model-2025',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
    usage,
  };
}

/** A `chat.completion.chunk`. */
export function chunk(delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> {
  return {
    id: 'chatcmpl-stub',
    object: 'chat.completion.chunk',
    created: 1_764_400_000,
    model: 'stub-model-2025',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

/** The final usage chunk a server sends with `stream_options.include_usage`. */
export function usageChunk(prompt = 40, completionTokens = 8): Record<string, unknown> {
  return {
    id: 'chatcmpl-stub',
    object: 'chat.completion.chunk',
    created: 1_764_400_000,
    model: 'stub-model-2025',
    choices: [],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completionTokens,
      total_tokens: prompt + completionTokens,
    },
  };
}

/** Chunks of one streamed tool call, split over several deltas (id and name on the first only). */
export function toolCallChunks(id: string, name: string, args: string): Record<string, unknown>[] {
  const half = Math.floor(args.length / 2);
  return [
    chunk({
      role: 'assistant',
      content: null,
      tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '' } }],
    }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, half) } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] }),
    chunk({}, 'tool_calls'),
    usageChunk(),
  ];
}

/** Chunks of a streamed text answer. */
export function textChunks(text: string): Record<string, unknown>[] {
  const words = text.split(/(?<= )/);
  return [
    chunk({ role: 'assistant', content: '' }),
    ...words.map((w) => chunk({ content: w })),
    chunk({}, 'stop'),
    usageChunk(),
  ];
}

/** A gate: `wait()` resolves once `open()` was called (or at once if it already was). */
export function gate(): { wait: () => Promise<void>; open: () => void; opened: () => boolean } {
  let release!: () => void;
  let isOpen = false;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return {
    wait: () => promise,
    open: () => {
      isOpen = true;
      release();
    },
    opened: () => isOpen,
  };
}

/**
 * Starts one stub server for a test file (vitest `beforeAll`), clears its queue and log before
 * each test, and closes it after all. Returns a getter for the running server.
 */
export function useStub(): () => StubServer {
  let stub: StubServer | undefined;
  beforeAll(async () => {
    stub = await startStub();
  });
  afterAll(() => stub?.close());
  beforeEach(() => {
    stub!.queue.length = 0;
    stub!.received.length = 0;
  });
  return () => stub!;
}
