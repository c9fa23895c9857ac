/**
 * The live model: any OpenAI-compatible chat-completions endpoint through the `openai` SDK
 * (OpenAI, OpenRouter, LM Studio, Ollama, vLLM, …). The SDK's own retries are off; transient
 * failures (429, 5xx, connection resets) are retried here with exponential backoff, waiting on
 * the injected clock and honouring `retry-after`, and each attempt is one HTTP exchange.
 * Streams are assembled by index with {@link StreamAssembler}.
 */
import OpenAI, { APIError, APIConnectionError, APIUserAbortError } from 'openai';
import type { HarnessDeps } from '../deps.ts';
import { errorInSuccessBody, providerErrorTurn } from './provider-errors.ts';
import { wireMessages } from './reasoning.ts';
import { responseFromCompletion, StreamAssembler } from './stream-assembler.ts';
import { ModelError, type Model, type ModelRequest, type ModelResponse } from './types.ts';

/** Options of {@link OpenAIModel}. */
export interface OpenAIModelOptions {
  /** Base URL, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:1234/v1`. */
  baseURL?: string;
  apiKey: string;
  /** Injected fetch (the recorder tees responses through it). */
  fetch?: typeof globalThis.fetch;
  deps: Pick<HarnessDeps, 'sleep' | 'random'>;
  /** Attempts per model call, first included. @default 4 */
  maxAttempts?: number;
  /** First backoff in ms, doubled per attempt, with jitter from the injected random source. @default 500 */
  backoffMs?: number;
  /** Per-request timeout in ms. @default 600000 */
  timeoutMs?: number;
}

/**
 * Where the live model comes from: flags win, then `HARNESS_BASE_URL`, `HARNESS_API_KEY`
 * (falling back to `OPENAI_API_KEY`) and `HARNESS_MODEL`.
 */
export function liveModelSettings(
  flags: { baseUrl?: string; model?: string; apiKey?: string },
  env: NodeJS.ProcessEnv = process.env,
): { baseURL: string | undefined; apiKey: string | undefined; model: string | undefined } {
  return {
    baseURL: flags.baseUrl ?? env.HARNESS_BASE_URL,
    apiKey: flags.apiKey ?? env.HARNESS_API_KEY ?? env.OPENAI_API_KEY,
    model: flags.model ?? env.HARNESS_MODEL,
  };
}

/**
 * The chat-completions wire body of a request: `{model, messages, tools, tool_choice, stream,
 * ...settings}`. Undefined fields and an empty `tools` list (the API rejects it) are left out;
 * `settings` win over the named fields; reasoning goes back as each provider expects
 * (`wireMessages`, `model/reasoning.ts`).
 */
export function wireBody(request: ModelRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { model: request.model, messages: wireMessages(request.messages) };
  if (request.tools && request.tools.length > 0) body.tools = request.tools;
  if (request.tool_choice !== undefined) body.tool_choice = request.tool_choice;
  if (request.stream !== undefined) body.stream = request.stream;
  for (const [key, value] of Object.entries(request.settings ?? {}))
    if (value !== undefined) body[key] = value;
  return body;
}

/** The live OpenAI-compatible model. */
export class OpenAIModel implements Model {
  readonly name: string;
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAIModelOptions) {
    this.client = new OpenAI({
      apiKey: options.apiKey,
      ...(options.baseURL ? { baseURL: options.baseURL } : {}),
      maxRetries: 0,
      timeout: options.timeoutMs ?? 600_000,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    this.name = `openai:${options.baseURL ?? 'api.openai.com'}`;
  }

  async generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    const attempts = this.options.maxAttempts ?? 4;
    const base = this.options.backoffMs ?? 500;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.once(request, signal);
      } catch (error) {
        const modelError = toModelError(error, signal);
        const rejected = providerErrorTurn(modelError.data.body);
        if (rejected) return rejected;
        if (!modelError.retryable || attempt >= attempts || signal?.aborted) throw modelError;
        const backoff =
          modelError.data.retryAfterMs ?? base * 2 ** (attempt - 1) * (0.5 + this.options.deps.random());
        await this.options.deps.sleep(Math.min(backoff, 60_000), signal);
      }
    }
  }

  /**
   * One request under its own signal, linked to the run's: the SDK adds an `abort` listener to
   * the signal it is given and never removes it, so handing it the run's signal left one listener
   * per request on it (Node's MaxListenersExceededWarning after ten). The link is undone when the
   * request settles, a streamed one when its last chunk is read.
   */
  private async once(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    if (!signal) return this.request(request);
    const controller = new AbortController();
    const abort = () => controller.abort(signal.reason);
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
    try {
      return await this.request(request, controller.signal);
    } finally {
      signal.removeEventListener('abort', abort);
    }
  }

  private async request(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    const body = wireBody(request) as unknown as OpenAI.Chat.Completions.ChatCompletionCreateParams;
    if (request.stream) {
      const stream = await this.client.chat.completions.create(
        { ...body, stream: true },
        { signal: signal ?? null },
      );
      const assembler = new StreamAssembler();
      try {
        for await (const chunk of stream) assembler.push(chunk);
      } catch (error) {
        // An `error` event after a 200 stream (the SDK throws it): a rejected generation is the
        // same turn as in a 400 body, with what the stream had sent before it.
        const turn = signal?.aborted
          ? undefined
          : providerErrorTurn(toModelError(error).data.body, assembler.finish());
        if (turn) return turn;
        throw error;
      }
      // The SDK ends a stream quietly when it is aborted: a cut-off turn is not a turn.
      if (signal?.aborted) throw new ModelError('aborted', 'the model call was cancelled while streaming');
      return assembler.finish();
    }
    const completion = await this.client.chat.completions.create(
      { ...body, stream: false },
      { signal: signal ?? null },
    );
    // An error body under a 2xx (Azure's filtered prompt): the same turn or error as in a replay.
    const failed = errorInSuccessBody(completion);
    if (failed instanceof ModelError) throw failed;
    return failed ?? responseFromCompletion(completion);
  }
}

/** Maps SDK and network errors to {@link ModelError}; 429, 5xx and connection failures are retryable. */
export function toModelError(error: unknown, signal?: AbortSignal): ModelError {
  if (error instanceof ModelError) return error;
  if (error instanceof APIUserAbortError || signal?.aborted)
    return new ModelError('aborted', 'the model call was cancelled');
  if (error instanceof APIConnectionError) return new ModelError('network_error', error.message, {}, true);
  if (error instanceof APIError) {
    const status = error.status ?? 0;
    const retryAfter = error.headers?.get?.('retry-after');
    const seconds = retryAfter ? Number(retryAfter) : NaN;
    return new ModelError(
      'http_error',
      `HTTP ${status}: ${error.message}`,
      {
        status,
        body: error.error === undefined ? undefined : { error: error.error },
        ...(Number.isFinite(seconds) ? { retryAfterMs: seconds * 1000 } : {}),
      },
      status === 429 || status >= 500,
    );
  }
  return new ModelError('network_error', (error as Error)?.message ?? String(error), {}, true);
}
