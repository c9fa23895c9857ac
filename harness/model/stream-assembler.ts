/**
 * Assembles `chat.completion.chunk` deltas into one whole turn.
 *
 * Tool-call deltas are keyed by `index` and never by id or name: ids and names may arrive late,
 * only on the first delta, or not at all, and some gateways start at index 1 (vercel/ai PR
 * #18382, "irregular or missing indexes"). A delta without an index continues the call with its
 * id, or the last call when it carries no id, and starts a new call when it carries a new id; a
 * delta whose index holds a call with another id starts a new call (gateways that put every
 * parallel call at index 0).
 */
import type { ModelResponse, RawToolCall } from './types.ts';

interface PartialCall {
  index: number;
  id?: string;
  type?: string;
  name: string;
  arguments: string;
  sawArguments: boolean;
}

/** Incremental assembler; feed it chunks with {@link StreamAssembler.push}, then call `finish()`. */
export class StreamAssembler {
  private content = '';
  private sawContent = false;
  private reasoning = '';
  private readonly calls = new Map<number, PartialCall>();
  private lastIndex: number | undefined;
  /** Wire index → the call that index continues, once a new id moved a call off its wire index. */
  private readonly moved = new Map<number, number>();
  private finishReason: string | null = null;
  private usage: ModelResponse['usage'];
  private modelServed: string | undefined;

  /** Adds one parsed chunk object. Unknown shapes are ignored (a compatible server may add fields). */
  push(chunk: unknown): void {
    if (typeof chunk !== 'object' || chunk === null) return;
    const record = chunk as Record<string, unknown>;
    if (typeof record.model === 'string') this.modelServed = record.model;
    if (isObject(record.usage)) this.usage = record.usage as ModelResponse['usage'];
    const xGroq = record.x_groq;
    if (!this.usage && isObject(xGroq) && isObject(xGroq.usage))
      this.usage = xGroq.usage as ModelResponse['usage'];
    const choices = Array.isArray(record.choices) ? record.choices : [];
    for (const choice of choices) {
      if (!isObject(choice)) continue;
      if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '')
        this.finishReason = choice.finish_reason;
      const delta = isObject(choice.delta) ? choice.delta : undefined;
      if (!delta) continue;
      if (typeof delta.content === 'string') {
        this.content += delta.content;
        this.sawContent = true;
      }
      if (typeof delta.reasoning_content === 'string') this.reasoning += delta.reasoning_content;
      else if (typeof delta.reasoning === 'string') this.reasoning += delta.reasoning;
      if (Array.isArray(delta.tool_calls)) for (const call of delta.tool_calls) this.pushCall(call);
    }
  }

  private pushCall(value: unknown): void {
    if (!isObject(value)) return;
    const fn = isObject(value.function) ? value.function : {};
    const id = typeof value.id === 'string' && value.id !== '' ? value.id : undefined;
    // The latest call with this id: a model may give two calls of one turn the same id, and a
    // delta without an index continues the call that id started last (found by fuzzing).
    const byId = id !== undefined ? [...this.calls.values()].reverse().find((c) => c.id === id) : undefined;
    const nextFree = () => (this.calls.size === 0 ? 0 : Math.max(...this.calls.keys()) + 1);
    let index: number;
    if (typeof value.index === 'number') {
      index = this.moved.get(value.index) ?? value.index;
      // A gateway that puts every parallel call at the same index, each with a new id: a new call,
      // and later deltas of that wire index without an id continue it, not the first call.
      const existing = this.calls.get(index);
      if (id !== undefined && existing?.id !== undefined && existing.id !== id) {
        index = byId?.index ?? nextFree();
        this.moved.set(value.index, index);
      }
    } else if (byId) index = byId.index;
    else if (id !== undefined) index = nextFree();
    else index = this.lastIndex ?? 0;
    let call = this.calls.get(index);
    if (!call) {
      call = { index, name: '', arguments: '', sawArguments: false };
      this.calls.set(index, call);
    }
    this.lastIndex = index;
    if (id !== undefined && call.id === undefined) call.id = id;
    if (typeof value.type === 'string') call.type = value.type;
    if (typeof fn.name === 'string') call.name += fn.name;
    if (typeof fn.arguments === 'string') {
      call.arguments += fn.arguments;
      call.sawArguments = true;
    } else if (fn.arguments !== undefined && fn.arguments !== null) {
      // A server that streams the arguments as an object: keep it whole.
      call.arguments = JSON.stringify(fn.arguments);
      call.sawArguments = true;
    }
  }

  /** The assembled turn. Calls come out in index order. */
  finish(): ModelResponse {
    const toolCalls: RawToolCall[] = [...this.calls.values()]
      .sort((a, b) => a.index - b.index)
      .map((c) => ({
        ...(c.id !== undefined ? { id: c.id } : {}),
        type: c.type ?? 'function',
        function: { name: c.name, arguments: c.sawArguments ? c.arguments : '' },
        index: c.index,
      }));
    return {
      content: this.sawContent ? this.content : null,
      toolCalls,
      finishReason: this.finishReason,
      ...(this.usage ? { usage: this.usage } : {}),
      ...(this.reasoning ? { reasoningContent: this.reasoning } : {}),
      ...(this.modelServed ? { modelServed: this.modelServed } : {}),
    };
  }
}

/** Assembles a whole list of chunk objects. */
export function assembleChunks(chunks: Iterable<unknown>): ModelResponse {
  const assembler = new StreamAssembler();
  for (const chunk of chunks) assembler.push(chunk);
  return assembler.finish();
}

/**
 * Parses SSE text (`data: {...}` lines separated by blank lines, `data: [DONE]` at the end) into
 * the `data` payloads in order. Comments and other fields are skipped; multi-line data is joined
 * with newlines as the SSE spec says (https://html.spec.whatwg.org/multipage/server-sent-events.html).
 */
export function parseSseData(text: string): string[] {
  const out: string[] = [];
  for (const block of text.replace(/\r\n?/g, '\n').split(/\n\n+/)) {
    const lines = block.split('\n').filter((line) => line.startsWith('data:'));
    if (lines.length === 0) continue;
    out.push(lines.map((line) => line.slice(5).replace(/^ /, '')).join('\n'));
  }
  return out;
}

/** Converts a non-streaming chat.completion body to a turn. */
export function responseFromCompletion(body: unknown): ModelResponse {
  const record = isObject(body) ? body : {};
  const choices = Array.isArray(record.choices) ? record.choices : [];
  const choice = isObject(choices[0]) ? choices[0] : {};
  const message = isObject(choice.message) ? choice.message : {};
  const rawCalls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  const reasoning =
    typeof message.reasoning_content === 'string'
      ? message.reasoning_content
      : typeof message.reasoning === 'string'
        ? message.reasoning
        : undefined;
  return {
    content: typeof message.content === 'string' ? message.content : null,
    toolCalls: rawCalls.map((c) => (isObject(c) ? (c as RawToolCall) : {})),
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
    ...(isObject(record.usage) ? { usage: record.usage as ModelResponse['usage'] } : {}),
    ...(reasoning ? { reasoningContent: reasoning } : {}),
    ...(typeof record.model === 'string' ? { modelServed: record.model } : {}),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
