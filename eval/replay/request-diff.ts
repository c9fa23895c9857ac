import { canonicalJson } from '../cassette/canonical.ts';
import { escapePointer } from '../cassette/secret-scan.ts';
import { splitThink } from './conversations.ts';

/**
 * One difference between the recorded request and the replayed one.
 * - `changed`: both sides have a value at `path` and they differ;
 * - `missing`: the recording has it, the replay does not;
 * - `extra`: the replay has it, the recording does not;
 * - `omitted`: not a difference but the count of further differences in this exchange that were
 *   left out (`omitted` holds the count, `path` is `''`).
 *
 * Values longer than {@link VALUE_CAP} characters of JSON are cut to a string ending in `…`.
 */
export interface Divergence {
  /** Index of the exchange (0-based). */
  exchange: number;
  /** JSON pointer into the (normalised) request body, e.g. `/messages/3/content`. */
  path: string;
  kind: 'changed' | 'missing' | 'extra' | 'omitted';
  recorded?: unknown;
  replayed?: unknown;
  omitted?: number;
  /**
   * Set when the difference comes from a decision of the harness under test rather than from a
   * replay that left the recording: e.g. the harness answered a call itself (validation error,
   * denial) where the recorded client ran it. Explained divergences are findings, never failures.
   */
  explained?: string;
}

/** Characters of JSON text kept per value in a divergence. */
export const VALUE_CAP = 200;

/** Differences kept per exchange before the rest are counted in one `omitted` entry. */
export const DIVERGENCE_CAP = 20;

/** Top-level body fields that vary from run to run and are never compared. */
export const VOLATILE_FIELDS: readonly string[] = ['stream_options', 'user', 'metadata'];

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Normalises a request body for comparison (the input is not mutated):
 * - {@link VOLATILE_FIELDS} are dropped, and `model` too when `dropModel` (the recording had no
 *   `model`: an Azure deployment URL names it);
 * - members whose value is `null` are dropped at every depth (`null` and absent mean the same to
 *   the API, and clients differ in which they send);
 * - tool-call ids (assistant `tool_calls[].id`, tool `tool_call_id`) become what they link:
 *   `<name>#<position of the call in its turn>`, so client-made ids compare by the call they
 *   name, and a call one side has and the other not does not shift the ids after it;
 * - tool-call `arguments` strings that hold JSON become canonical JSON (key order and
 *   whitespace do not count);
 * - the ways clients write the same message (client dialects) compare equal: a tool message's
 *   `name` (a legacy field LiteLLM and crewAI send; the API's tool message has none) is dropped;
 *   an assistant message's empty `content` (`""`, `[]`) and any other empty list on it
 *   (`tool_calls: []` from Mistral's clients, `annotations: []` that SDKs echo from the
 *   response) count as absent, like `null`; Mistral's
 *   default `prefix: false` is dropped; the `index` some clients echo inside request
 *   `tool_calls` (a streaming-delta field) is dropped; a `content` list of text parts only, in a
 *   tool or assistant message, compares as its joined text;
 * - `tools` compare as a map by function name (`/tools/<name>/…`): the order in which a client
 *   lists its tools does not count, and a tool one side declares and the other not is one
 *   difference;
 * - an assistant message's reasoning compares as one `reasoning` value whichever way the client
 *   sent it: `reasoning_content`, `reasoning`, or a leading `<think>…</think>` block in
 *   `content` (how pydantic-ai sends Groq's reasoning back).
 */
export function normaliseBody(
  body: Record<string, unknown>,
  options: { dropModel?: boolean } = {},
): Record<string, unknown> {
  const out = dropNulls(body) as Record<string, unknown>;
  for (const field of VOLATILE_FIELDS) delete out[field];
  if (options.dropModel) delete out.model;
  if (
    Array.isArray(out.tools) &&
    out.tools.every((t) => isObj(t) && isObj(t.function) && typeof t.function.name === 'string')
  )
    out.tools = Object.fromEntries(
      (out.tools as { function: { name: string } }[]).map((t) => [t.function.name, t]),
    );
  if (!Array.isArray(out.messages)) return out;
  const ids = new Map<string, string>();
  for (const message of out.messages)
    if (isObj(message) && Array.isArray(message.tool_calls))
      message.tool_calls.forEach((call: unknown, position: number) => {
        if (!isObj(call) || typeof call.id !== 'string' || ids.has(call.id)) return;
        const name =
          isObj(call.function) && typeof call.function.name === 'string' ? call.function.name : '?';
        ids.set(call.id, `${name}#${position}`);
      });
  const idFor = (id: unknown): unknown => (typeof id === 'string' ? (ids.get(id) ?? 'unlinked') : id);
  out.messages = out.messages.map((message: unknown) => {
    if (!isObj(message)) return message;
    const copy = dialect({ ...message });
    if ('tool_call_id' in copy) copy.tool_call_id = idFor(copy.tool_call_id);
    if (Array.isArray(copy.tool_calls))
      copy.tool_calls = copy.tool_calls.map((call: unknown) => {
        if (!isObj(call)) return call;
        const next = { ...call };
        delete next.index;
        if ('id' in next) next.id = idFor(next.id);
        if (isObj(next.function) && typeof next.function.arguments === 'string') {
          const args = next.function.arguments;
          try {
            next.function = { ...next.function, arguments: canonicalJson(JSON.parse(args)) };
          } catch {
            // Not JSON: compared as written.
          }
        }
        return next;
      });
    return copy;
  });
  return out;
}

/** Text-only part lists as their text; `undefined` for anything else. */
function textOfParts(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  let text = '';
  for (const part of content) {
    if (!isObj(part) || part.type !== 'text' || typeof part.text !== 'string') return undefined;
    text += part.text;
  }
  return text;
}

/** One message in the form every client dialect shares (see {@link normaliseBody}). */
function dialect(message: Record<string, unknown>): Record<string, unknown> {
  if (message.role === 'tool') {
    delete message.name;
    const text = textOfParts(message.content);
    if (text !== undefined) message.content = text;
    return message;
  }
  if (message.role !== 'assistant') return message;
  if (message.prefix === false) delete message.prefix;
  for (const [key, value] of Object.entries(message))
    if (Array.isArray(value) && value.length === 0) delete message[key];
  const text = textOfParts(message.content);
  if (text !== undefined) message.content = text;
  let reasoning = typeof message.reasoning_content === 'string' ? message.reasoning_content : undefined;
  if (typeof message.reasoning === 'string') reasoning ??= message.reasoning;
  delete message.reasoning_content;
  delete message.reasoning;
  if (typeof message.content === 'string') {
    const { think, rest } = splitThink(message.content);
    if (think !== undefined) {
      reasoning ??= think;
      message.content = rest;
    }
  }
  if (reasoning !== undefined && reasoning.trim() !== '') message.reasoning = reasoning.trim();
  if (message.content === '') delete message.content;
  return message;
}

function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (!isObj(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value))
    if (member !== null && member !== undefined) out[key] = dropNulls(member);
  return out;
}

/** A value cut to {@link VALUE_CAP} characters of JSON text (kept as it is when short). */
export function capValue(value: unknown): unknown {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  if (text.length <= VALUE_CAP) return value;
  return `${text.slice(0, VALUE_CAP)}…(+${text.length - VALUE_CAP} chars)`;
}

/**
 * Pairs the messages of two requests: equal messages (canonical JSON) are matched along their
 * longest common subsequence; between two matches, the messages left on each side are paired in
 * order and the rest are missing (recording only) or extra (harness only). Pure.
 */
export function alignMessages(
  recorded: readonly unknown[],
  replayed: readonly unknown[],
): { recorded?: number; replayed?: number }[] {
  const a = recorded.map((m) => canonicalJson(m));
  const b = replayed.map((m) => canonicalJson(m));
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const pairs: { recorded?: number; replayed?: number }[] = [];
  let gapA: number[] = [];
  let gapB: number[] = [];
  const flush = () => {
    const n = Math.max(gapA.length, gapB.length);
    for (let k = 0; k < n; k++)
      pairs.push({
        ...(gapA[k] !== undefined ? { recorded: gapA[k] } : {}),
        ...(gapB[k] !== undefined ? { replayed: gapB[k] } : {}),
      });
    gapA = [];
    gapB = [];
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      flush();
      pairs.push({ recorded: i++, replayed: j++ });
    } else if (j >= b.length || (i < a.length && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) gapA.push(i++);
    else gapB.push(j++);
  }
  flush();
  return pairs;
}

/**
 * Structural diff of two JSON values, key order ignored, arrays compared index by index except
 * the top-level `messages`, whose messages are paired by {@link alignMessages} (a message one
 * side has and the other not is one difference, not a shift of every message after it). A
 * difference inside a paired or extra message is named by the harness's index
 * (`/messages/<replayed index>/…`), a missing message by its index in the recording.
 * Returns at most `cap` differences plus one `omitted` entry counting the rest.
 */
export function diffJson(
  recorded: unknown,
  replayed: unknown,
  exchange: number,
  cap = DIVERGENCE_CAP,
): Divergence[] {
  const found: Divergence[] = [];
  let total = 0;
  const add = (path: string, kind: Divergence['kind'], a: unknown, b: unknown): void => {
    total += 1;
    if (found.length >= cap) return;
    const entry: Divergence = { exchange, path, kind };
    if (a !== undefined) entry.recorded = capValue(a);
    if (b !== undefined) entry.replayed = capValue(b);
    found.push(entry);
  };
  const walk = (a: unknown, b: unknown, path: string): void => {
    if (a === undefined && b === undefined) return;
    if (a === undefined) {
      add(path, 'extra', a, b);
      return;
    }
    if (b === undefined) {
      add(path, 'missing', a, b);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b) && path === '/messages') {
      for (const pair of alignMessages(a, b))
        walk(
          pair.recorded === undefined ? undefined : a[pair.recorded],
          pair.replayed === undefined ? undefined : b[pair.replayed],
          `${path}/${pair.replayed ?? pair.recorded}`,
        );
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) walk(a[i], b[i], `${path}/${i}`);
      return;
    }
    if (isObj(a) && isObj(b)) {
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
      for (const key of keys) walk(a[key], b[key], `${path}/${escapePointer(key)}`);
      return;
    }
    if (canonicalJson(a) !== canonicalJson(b)) add(path, 'changed', a, b);
  };
  walk(recorded, replayed, '');
  if (total > found.length)
    found.push({ exchange, path: '', kind: 'omitted', omitted: total - found.length });
  return found;
}

/** One line for messages: `/messages/3/content: recorded "a", replayed "b"`. */
export function formatDivergence(divergence: Divergence): string {
  if (divergence.kind === 'omitted') return `(${divergence.omitted} more differences)`;
  const show = (value: unknown): string => (value === undefined ? '(absent)' : JSON.stringify(value));
  const why = divergence.explained ? ` [explained: ${divergence.explained}]` : '';
  return `${divergence.path || '/'}: recorded ${show(divergence.recorded)}, replayed ${show(divergence.replayed)}${why}`;
}
