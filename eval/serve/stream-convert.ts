/**
 * A recorded chat-completions response served in the other mode than it was recorded in, so a
 * replay answers what the harness asked for (`eval/serve/server.ts`, cassette source): a recorded
 * stream of `chat.completion.chunk` events to a request without `"stream": true` becomes one
 * `chat.completion` body ({@link completionFromEvents}); a recorded `chat.completion` body to a
 * request with it becomes server-sent events ({@link eventsFromCompletion}). The shapes are the
 * OpenAI chat completions API's ("The chat completion object", "The chat completion chunk
 * object", and streaming with `stream_options.include_usage`:
 * https://platform.openai.com/docs/api-reference/chat/streaming); the accumulation rules follow
 * the openai SDK's `ChatCompletionStream` (content, refusal and arguments concatenated, a tool
 * call's id, type and name taken from the deltas that carry them, keyed by `index`).
 *
 * Carried: `id`, `model`, `created`, `system_fingerprint`, `service_tier`, `usage`; per choice
 * `index`, `finish_reason`, and the message's `role`, `content`, `refusal`, `reasoning_content`,
 * `reasoning`, OpenRouter's `reasoning_details` (entries merged by their `index`, `text`,
 * `summary` and `data` concatenated, a `signature` kept), `tool_calls` and a legacy
 * `function_call`. Not carried: `logprobs` (served as
 * `null`), `audio`, `annotations` and provider extensions beyond those named. Pure: no I/O.
 */

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Message fields streamed as text pieces and concatenated back, in this order on the wire. */
const TEXT_FIELDS = ['reasoning_content', 'reasoning', 'content', 'refusal'] as const;

/** One tool call while its deltas arrive. */
interface CallDraft {
  id?: string;
  type?: string;
  name?: string;
  /** The argument pieces: strings are concatenated; a lone non-string piece is kept as that value. */
  args: unknown[];
}

/** One choice while its deltas arrive. */
interface ChoiceDraft {
  index: number;
  role?: string;
  text: Partial<Record<(typeof TEXT_FIELDS)[number], string>>;
  calls: Map<number, CallDraft>;
  /** The index the last call delta went to, for a delta without `index`. */
  lastCall?: number;
  functionCall?: { name?: string; args: unknown[] };
  /** OpenRouter's `reasoning_details` entries by their `index`, in order of first appearance. */
  details: Map<number, Record<string, unknown>>;
  finish: unknown;
}

/** Fields of a `reasoning_details` entry streamed in pieces and concatenated back. */
const DETAIL_TEXT = new Set(['text', 'summary', 'data']);

function addDetails(choice: ChoiceDraft, details: readonly unknown[]): void {
  for (const raw of details) {
    if (!isObj(raw)) continue;
    const index = typeof raw.index === 'number' ? raw.index : Math.max(-1, ...choice.details.keys()) + 1;
    let entry = choice.details.get(index);
    if (!entry) {
      entry = {};
      choice.details.set(index, entry);
    }
    for (const [key, value] of Object.entries(raw)) {
      if (value === undefined || value === null) {
        if (!(key in entry)) entry[key] = value;
      } else if (DETAIL_TEXT.has(key) && typeof value === 'string' && typeof entry[key] === 'string')
        entry[key] = entry[key] + value;
      else entry[key] = value;
    }
  }
}

function joinArgs(pieces: readonly unknown[]): unknown {
  if (pieces.length === 1 && typeof pieces[0] !== 'string') return pieces[0];
  return pieces.map((piece) => (typeof piece === 'string' ? piece : JSON.stringify(piece))).join('');
}

function addCallDelta(choice: ChoiceDraft, delta: Record<string, unknown>): void {
  const fn = isObj(delta.function) ? delta.function : undefined;
  let index: number;
  if (typeof delta.index === 'number') index = delta.index;
  else {
    // No index (some compatible servers): a new id opens a call, anything else continues the last one.
    const last = choice.lastCall;
    const opens =
      typeof delta.id === 'string' && delta.id !== '' && choice.calls.get(last ?? -1)?.id !== delta.id;
    index = last === undefined || opens ? Math.max(-1, ...choice.calls.keys()) + 1 : last;
  }
  choice.lastCall = index;
  let call = choice.calls.get(index);
  if (!call) {
    call = { args: [] };
    choice.calls.set(index, call);
  }
  if (typeof delta.id === 'string' && delta.id !== '') call.id = delta.id;
  if (typeof delta.type === 'string' && delta.type !== '') call.type = delta.type;
  if (typeof fn?.name === 'string' && fn.name !== '') call.name = fn.name;
  if (fn && fn.arguments !== undefined && fn.arguments !== null && fn.arguments !== '')
    call.args.push(fn.arguments);
}

function addDelta(choice: ChoiceDraft, delta: Record<string, unknown>): void {
  if (typeof delta.role === 'string' && delta.role !== '') choice.role = delta.role;
  for (const field of TEXT_FIELDS) {
    const piece = delta[field];
    if (typeof piece === 'string' && piece !== '') choice.text[field] = (choice.text[field] ?? '') + piece;
  }
  if (Array.isArray(delta.reasoning_details)) addDetails(choice, delta.reasoning_details);
  if (Array.isArray(delta.tool_calls))
    for (const call of delta.tool_calls) if (isObj(call)) addCallDelta(choice, call);
  if (isObj(delta.function_call)) {
    const fc = (choice.functionCall ??= { args: [] });
    if (typeof delta.function_call.name === 'string' && delta.function_call.name !== '')
      fc.name = delta.function_call.name;
    const args = delta.function_call.arguments;
    if (args !== undefined && args !== null && args !== '') fc.args.push(args);
  }
}

function messageOf(choice: ChoiceDraft): Record<string, unknown> {
  const message: Record<string, unknown> = {
    role: choice.role ?? 'assistant',
    content: choice.text.content ?? null,
  };
  for (const field of ['reasoning_content', 'reasoning', 'refusal'] as const)
    if (choice.text[field] !== undefined) message[field] = choice.text[field];
  if (choice.details.size > 0) message.reasoning_details = [...choice.details.values()];
  if (choice.calls.size > 0)
    message.tool_calls = [...choice.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => ({
        ...(call.id !== undefined ? { id: call.id } : {}),
        type: call.type ?? 'function',
        function: { name: call.name ?? '', arguments: joinArgs(call.args) },
      }));
  if (choice.functionCall)
    message.function_call = {
      name: choice.functionCall.name ?? '',
      arguments: joinArgs(choice.functionCall.args),
    };
  return message;
}

/**
 * One `chat.completion` body from the `data:` payloads of a recorded stream, as the openai SDK's
 * stream accumulation gives it (see the module comment): `id`, `model`, `created`,
 * `system_fingerprint` and `service_tier` from the last chunk that has them; per choice `index`
 * (choices sorted by it), the message (`content` `null` when no piece had text), tool calls
 * assembled by their delta `index` (sorted and made dense, so a stream whose calls start at index
 * 1 gives one call at position 0; a delta without `index` continues the last call unless it
 * brings a new id), `finish_reason` the last non-null one (`null` when none came), `logprobs`
 * `null`; `usage` the last non-null one of any chunk (also a usage chunk with `choices: []`, or
 * Groq's `x_groq.usage`). `[DONE]`, comments and payloads that are not JSON objects are passed
 * over. Where the SDK's accumulation loses data this one keeps it, as the provider's own body
 * would: a delta without `index` (Azure AI Inference's Mistral), a first call at index 1 (an
 * Anthropic-compatible endpoint: the SDK fails on the hole), a call without `type` (`function`),
 * Groq's usage; and reasoning text is concatenated where the SDK keeps the last piece.
 *
 * An error event (a payload with a non-null `error`, as OpenRouter sends a failure after the
 * response began) makes the body `{error}` with that error as recorded, whatever came before it:
 * the openai SDK raises on such an event mid-stream, and a provider that fails after accepting a
 * request answers a plain one with HTTP 200 and the error in the body (OpenRouter's error
 * documentation), which is what the caller serves. Never throws.
 */
export function completionFromEvents(events: readonly string[]): Record<string, unknown> {
  const top: Record<string, unknown> = {};
  const choices = new Map<number, ChoiceDraft>();
  let usage: unknown = null;
  for (const data of events) {
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      continue;
    }
    if (!isObj(chunk)) continue;
    if (chunk.error !== undefined && chunk.error !== null) return { error: chunk.error };
    for (const key of ['id', 'model'] as const)
      if (typeof chunk[key] === 'string' && chunk[key] !== '') top[key] = chunk[key];
    if (typeof chunk.created === 'number') top.created = chunk.created;
    for (const key of ['system_fingerprint', 'service_tier'] as const)
      if (chunk[key] !== undefined && chunk[key] !== null) top[key] = chunk[key];
    const chunkUsage = chunk.usage ?? (isObj(chunk.x_groq) ? chunk.x_groq.usage : undefined);
    if (chunkUsage !== undefined && chunkUsage !== null) usage = chunkUsage;
    if (!Array.isArray(chunk.choices)) continue;
    for (const raw of chunk.choices) {
      if (!isObj(raw)) continue;
      const index = typeof raw.index === 'number' ? raw.index : 0;
      let choice = choices.get(index);
      if (!choice) {
        choice = { index, text: {}, calls: new Map(), details: new Map(), finish: null };
        choices.set(index, choice);
      }
      if (raw.finish_reason !== undefined && raw.finish_reason !== null) choice.finish = raw.finish_reason;
      if (isObj(raw.delta)) addDelta(choice, raw.delta);
    }
  }
  const body = headerOf(top, 'chat.completion');
  body.choices = [...choices.values()]
    .sort((a, b) => a.index - b.index)
    .map((choice) => ({
      index: choice.index,
      message: messageOf(choice),
      finish_reason: choice.finish,
      logprobs: null,
    }));
  if (usage !== null) body.usage = usage;
  return body;
}

/** Options of {@link eventsFromCompletion}. */
export interface StreamOptions {
  /** The request's `stream_options.include_usage`: a last chunk with `choices: []` and the body's `usage`. */
  includeUsage: boolean;
}

/** True when a request body asks for the usage chunk (`stream_options.include_usage: true`). Pure. */
export function includeUsageOf(request: unknown): boolean {
  return isObj(request) && isObj(request.stream_options) && request.stream_options.include_usage === true;
}

function callHead(call: unknown, index: number): { head: Record<string, unknown>; args: unknown } {
  const c = isObj(call) ? call : {};
  const fn = isObj(c.function) ? c.function : {};
  const head: Record<string, unknown> = { index };
  if (c.id !== undefined) head.id = c.id;
  head.type = c.type ?? 'function';
  head.function = { name: fn.name ?? '', arguments: '' };
  return { head, args: fn.arguments };
}

/**
 * The `data:` payloads of a stream that says what a recorded `chat.completion` body says, in
 * the order an OpenAI stream sends them, each a `chat.completion.chunk` with the body's `id`,
 * `created`, `model` (and `system_fingerprint`, `service_tier` when present). Per choice, in
 * `index` order: a role chunk (`{role}`), one chunk each for `reasoning_content`, `reasoning`,
 * `content` and `refusal` when they are non-empty strings, one with `reasoning_details` as
 * recorded when it is a non-empty list, per tool call a head chunk
 * (`index` = its position, `id`, `type`, `function.name`, `arguments: ""`) then one chunk with
 * its arguments when they are not empty (a string verbatim, another value as that value), a
 * legacy `function_call` likewise, then the finish chunk (`delta: {}` and the choice's
 * `finish_reason`). Then, with `includeUsage` and a `usage` in the body, a chunk with
 * `choices: []` and that usage; last `[DONE]`.
 *
 * A body with a non-null `error` and no `choices` (a provider error in a 200) becomes one event
 * carrying the body as recorded, then `[DONE]`: an error event, on which the openai SDK raises as
 * it would on the body. Returns `undefined` for a value that is not a JSON object (a text body
 * stays as recorded). Never throws.
 */
export function eventsFromCompletion(body: unknown, options: StreamOptions): string[] | undefined {
  if (!isObj(body)) return undefined;
  if (body.error !== undefined && body.error !== null && !Array.isArray(body.choices))
    return [JSON.stringify(body), '[DONE]'];
  const top = headerOf(body, 'chat.completion.chunk');
  const out: string[] = [];
  const emit = (index: unknown, delta: Record<string, unknown>, finish: unknown = null) =>
    out.push(JSON.stringify({ ...top, choices: [{ index, delta, finish_reason: finish, logprobs: null }] }));
  const choices = (Array.isArray(body.choices) ? body.choices : [])
    .filter(isObj)
    .map((choice, position) => ({
      choice,
      index: typeof choice.index === 'number' ? choice.index : position,
    }))
    .sort((a, b) => a.index - b.index);
  for (const { choice, index } of choices) {
    const message = isObj(choice.message) ? choice.message : {};
    emit(index, { role: typeof message.role === 'string' ? message.role : 'assistant' });
    for (const field of TEXT_FIELDS) {
      const text = message[field];
      if (typeof text === 'string' && text !== '') emit(index, { [field]: text });
    }
    if (Array.isArray(message.reasoning_details) && message.reasoning_details.length > 0)
      emit(index, { reasoning_details: message.reasoning_details });
    (Array.isArray(message.tool_calls) ? message.tool_calls : []).forEach((call, position) => {
      const { head, args } = callHead(call, position);
      emit(index, { tool_calls: [head] });
      if (args !== undefined && args !== null && args !== '')
        emit(index, { tool_calls: [{ index: position, function: { arguments: args } }] });
    });
    if (isObj(message.function_call)) {
      const { name, arguments: args } = message.function_call;
      emit(index, { function_call: { name: name ?? '', arguments: '' } });
      if (args !== undefined && args !== null && args !== '')
        emit(index, { function_call: { arguments: args } });
    }
    emit(index, {}, choice.finish_reason ?? null);
  }
  if (options.includeUsage && body.usage !== undefined && body.usage !== null)
    out.push(JSON.stringify({ ...top, choices: [], usage: body.usage }));
  out.push('[DONE]');
  return out;
}

/** The fields a completion and its chunks share (id, created, model, fingerprint, tier), as `object`. */
function headerOf(source: Record<string, unknown>, object: string): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: source.id ?? 'chatcmpl-converted',
    object,
    created: source.created ?? 0,
    model: source.model ?? '',
  };
  if (source.system_fingerprint !== undefined) out.system_fingerprint = source.system_fingerprint;
  if (source.service_tier !== undefined) out.service_tier = source.service_tier;
  return out;
}
