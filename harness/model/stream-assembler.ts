/**
 * Assembles `chat.completion.chunk` deltas into one whole turn.
 *
 * Tool-call deltas are keyed by `index` and never by id or name: ids and names may arrive late,
 * only on the first delta, or not at all, and some gateways start at index 1 (vercel/ai PR
 * #18382, "irregular or missing indexes"). A delta without an index continues the call with its
 * id, or the last call when it carries no id, and starts a new call when it carries a new id; a
 * delta whose index holds a call with another id starts a new call (gateways that put every
 * parallel call at index 0).
 *
 * A call's name is *set* by each delta that carries a non-empty one, never concatenated:
 * gateways that repeat the whole name on every chunk stay `get_weather`, not
 * `get_weatherget_weather`. This is what the `openai` SDK's own stream helper does
 * (openai-node `src/lib/ChatCompletionStream.ts`, `#accumulateChatCompletion`:
 * `if (fn?.name) tool_call.function.name = fn.name`); arguments are concatenated.
 *
 * Only choice 0 is assembled (deltas of other choices, from a request with `n > 1`, are
 * skipped); a legacy `delta.function_call` is read as the call at index 0.
 *
 * `content` may arrive as a string or as a list of parts (Mistral); the text of the parts is
 * appended, and when a part other than text arrives the parts are kept too (`contentParts`),
 * each delta part merged into the last part of the same type (`text` appended, a nested list of
 * text parts such as Mistral's `thinking` merged the same way). `refusal` deltas are appended. Reasoning arrives as `reasoning_content` (DeepSeek), `reasoning` (OpenRouter, Groq,
 * Ollama) and OpenRouter's `reasoning_details` blocks, which are merged by their `index`
 * (`text`, `summary` and `data` appended, other fields such as `signature` set when non-empty).
 */
import { contentText, nonTextParts } from './content.ts';
import type { ContentPart, MessageContent, ModelResponse, RawToolCall } from './types.ts';

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
  private readonly parts: ContentPart[] = [];
  private sawParts = false;
  private refusal = '';
  private reasoning = '';
  private reasoningField: ModelResponse['reasoningField'];
  private readonly details: Record<string, unknown>[] = [];
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
      // One conversation: choice 0 (a request with `n > 1` interleaves other choices' deltas).
      if (!isObject(choice) || (typeof choice.index === 'number' && choice.index !== 0)) continue;
      if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '')
        this.finishReason = choice.finish_reason;
      const delta = isObject(choice.delta) ? choice.delta : undefined;
      if (!delta) continue;
      if (typeof delta.content === 'string' || Array.isArray(delta.content)) {
        this.content += contentText(delta.content as MessageContent);
        this.sawContent = true;
        if (typeof delta.content === 'string')
          mergeParts(this.parts, [{ type: 'text', text: delta.content }]);
        else {
          mergeParts(this.parts, delta.content as ContentPart[]);
          if (nonTextParts(delta.content as ContentPart[]).length > 0) this.sawParts = true;
        }
      }
      if (typeof delta.refusal === 'string') this.refusal += delta.refusal;
      if (typeof delta.reasoning_content === 'string') {
        this.reasoning += delta.reasoning_content;
        this.reasoningField ??= 'reasoning_content';
      } else if (typeof delta.reasoning === 'string') {
        this.reasoning += delta.reasoning;
        this.reasoningField ??= 'reasoning';
      }
      if (Array.isArray(delta.reasoning_details)) for (const d of delta.reasoning_details) this.pushDetail(d);
      if (Array.isArray(delta.tool_calls)) for (const call of delta.tool_calls) this.pushCall(call);
      else if (isObject(delta.function_call))
        this.pushCall({
          index: 0,
          ...(typeof delta.function_call.name === 'string' ? { id: LEGACY_CALL_ID } : {}),
          function: delta.function_call,
        });
    }
  }

  /** One streamed `reasoning_details` entry: merged into the block of the same `index`, else appended. */
  private pushDetail(value: unknown): void {
    if (!isObject(value)) return;
    const at =
      typeof value.index === 'number' ? this.details.find((d) => d.index === value.index) : undefined;
    if (!at) {
      this.details.push({ ...value });
      return;
    }
    for (const [key, piece] of Object.entries(value)) {
      if (['text', 'summary', 'data'].includes(key) && typeof piece === 'string')
        at[key] = `${typeof at[key] === 'string' ? at[key] : ''}${piece}`;
      else if (piece !== null && piece !== undefined && piece !== '') at[key] = piece;
    }
  }

  private pushCall(value: unknown): void {
    if (!isObject(value)) return;
    // A custom tool call streams its free-form input under `custom.input`.
    const fn = isObject(value.function)
      ? value.function
      : isObject(value.custom)
        ? { name: value.custom.name, arguments: value.custom.input }
        : {};
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
    if (typeof fn.name === 'string' && fn.name !== '') call.name = fn.name;
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
      ...(this.sawParts ? { contentParts: structuredClone(this.parts) } : {}),
      ...(this.refusal ? { refusal: this.refusal } : {}),
      toolCalls,
      finishReason: this.finishReason,
      ...(this.usage ? { usage: this.usage } : {}),
      ...(this.reasoning ? { reasoningContent: this.reasoning, reasoningField: this.reasoningField } : {}),
      ...(this.details.length > 0 ? { reasoningDetails: this.details.map((d) => ({ ...d })) } : {}),
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

/**
 * Merges streamed content parts into `into`: a part continues the last part when both have the
 * same `type` and the part is text (`text` appended) or holds a nested list of text parts under
 * its type's name (Mistral's `{type: 'thinking', thinking: [{type: 'text', text}]}`), else it
 * is appended as a copy. Empty text parts are dropped.
 */
function mergeParts(into: ContentPart[], parts: readonly ContentPart[]): void {
  for (const part of parts) {
    if (!isObject(part)) continue;
    const last = into.at(-1) as Record<string, unknown> | undefined;
    const type = typeof part.type === 'string' ? part.type : '';
    if (type === 'text' && typeof part.text === 'string') {
      if (part.text === '') continue;
      if (last?.type === 'text' && typeof last.text === 'string') last.text += part.text;
      else into.push({ ...part, text: part.text } as ContentPart);
      continue;
    }
    const nested = (part as Record<string, unknown>)[type];
    if (last?.type === type && Array.isArray(nested) && Array.isArray(last[type])) {
      mergeParts(last[type] as ContentPart[], nested as ContentPart[]);
      for (const [key, value] of Object.entries(part)) if (key !== type && key !== 'type') last[key] = value;
      continue;
    }
    into.push(structuredClone(part));
  }
}

/**
 * The id given to a legacy `function_call` (the API before `tool_calls`, which has no id):
 * read as one tool call so that a turn that calls a function is never an empty final answer.
 */
export const LEGACY_CALL_ID = 'call_legacy_function_call';

/**
 * Converts a non-streaming chat.completion body to a turn (choice 0). A legacy
 * `message.function_call` is one tool call with the id {@link LEGACY_CALL_ID}. `content` given as a list of parts
 * becomes its text, and the list itself is kept (`contentParts`) when it holds more than text;
 * `reasoning_content` wins over `reasoning` when both are there; a non-empty `refusal` is kept.
 */
export function responseFromCompletion(body: unknown): ModelResponse {
  const record = isObject(body) ? body : {};
  const choices = Array.isArray(record.choices) ? record.choices : [];
  const choice = isObject(choices[0]) ? choices[0] : {};
  const message = isObject(choice.message) ? choice.message : {};
  const rawCalls = Array.isArray(message.tool_calls)
    ? message.tool_calls
    : isObject(message.function_call)
      ? [{ id: LEGACY_CALL_ID, type: 'function', function: message.function_call }]
      : [];
  const reasoningField =
    typeof message.reasoning_content === 'string' && message.reasoning_content !== ''
      ? ('reasoning_content' as const)
      : typeof message.reasoning === 'string' && message.reasoning !== ''
        ? ('reasoning' as const)
        : undefined;
  const details = Array.isArray(message.reasoning_details) ? message.reasoning_details : [];
  const parts =
    Array.isArray(message.content) && nonTextParts(message.content as ContentPart[]).length > 0
      ? (structuredClone(message.content) as ContentPart[])
      : undefined;
  return {
    content:
      typeof message.content === 'string' || Array.isArray(message.content)
        ? contentText(message.content as MessageContent)
        : null,
    ...(parts ? { contentParts: parts } : {}),
    ...(typeof message.refusal === 'string' && message.refusal !== '' ? { refusal: message.refusal } : {}),
    toolCalls: rawCalls.map((c) => (isObject(c) ? (c as RawToolCall) : {})),
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
    ...(isObject(record.usage) ? { usage: record.usage as ModelResponse['usage'] } : {}),
    ...(reasoningField ? { reasoningContent: message[reasoningField] as string, reasoningField } : {}),
    ...(details.length > 0 ? { reasoningDetails: details } : {}),
    ...(typeof record.model === 'string' ? { modelServed: record.model } : {}),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
