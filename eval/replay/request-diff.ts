import { canonicalJson } from '../cassette/canonical.ts';
import { escapePointer } from '../cassette/secret-scan.ts';

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
}

/** Characters of JSON text kept per value in a divergence. */
export const VALUE_CAP = 200;

/** Differences kept per exchange before the rest are counted in one `omitted` entry. */
export const DIVERGENCE_CAP = 20;

/** Top-level body fields that vary from run to run and are never compared. */
export const VOLATILE_FIELDS: readonly string[] = ['stream_options', 'user', 'metadata'];

/** The wire body of a request (one definition, shared with the live client). */
export { wireBody } from '../../harness/model/openai-model.ts';

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Normalises a request body for comparison (the input is not mutated):
 * - {@link VOLATILE_FIELDS} are dropped, and `model` too when `dropModel` (the recording had no
 *   `model`: an Azure deployment URL names it);
 * - members whose value is `null` are dropped at every depth (`null` and absent mean the same to
 *   the API, and clients differ in which they send);
 * - tool-call ids (assistant `tool_calls[].id`, tool `tool_call_id`) become `call#1`, `call#2`, …
 *   in order of first appearance, so client-made ids compare by position;
 * - tool-call `arguments` strings that hold JSON become canonical JSON (key order and
 *   whitespace do not count).
 */
export function normaliseBody(
  body: Record<string, unknown>,
  options: { dropModel?: boolean } = {},
): Record<string, unknown> {
  const out = dropNulls(body) as Record<string, unknown>;
  for (const field of VOLATILE_FIELDS) delete out[field];
  if (options.dropModel) delete out.model;
  if (!Array.isArray(out.messages)) return out;
  const ids = new Map<string, string>();
  const idFor = (id: unknown): unknown => {
    if (typeof id !== 'string') return id;
    if (!ids.has(id)) ids.set(id, `call#${ids.size + 1}`);
    return ids.get(id);
  };
  out.messages = out.messages.map((message: unknown) => {
    if (!isObj(message)) return message;
    const copy = { ...message };
    if ('tool_call_id' in copy) copy.tool_call_id = idFor(copy.tool_call_id);
    if (Array.isArray(copy.tool_calls))
      copy.tool_calls = copy.tool_calls.map((call: unknown) => {
        if (!isObj(call)) return call;
        const next = { ...call };
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
 * Structural diff of two JSON values, key order ignored, arrays compared index by index.
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
  return `${divergence.path || '/'}: recorded ${show(divergence.recorded)}, replayed ${show(divergence.replayed)}`;
}
