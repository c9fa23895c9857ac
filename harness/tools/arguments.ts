/**
 * Step 1–2 of the tool-call pipeline for arguments: take what the model sent (a string, an
 * object, double-encoded, empty, missing) and either produce a JSON object or a structured
 * error. Only the unambiguous is normalised, and every normalisation is named so the ledger
 * records it; JSON is never guess-repaired (`docs/architecture.md` §4; handed cases
 * A01–A05: openai-agents-js#723 and #664, qwen-code#288, openai-node#596, llama.cpp#20198).
 */
import { typeName } from './registry.ts';

/** The parsed arguments or why there are none. */
export type ParsedArguments =
  | { ok: true; args: Record<string, unknown>; normalisations: string[]; text: string }
  | { ok: false; errorType: 'invalid_json' | 'invalid_arguments'; reason: string; normalisations: string[] };

/**
 * Parses raw tool-call arguments.
 *
 * - an object is taken as it is (`object_to_string`: it is replayed as its JSON text);
 * - a string holding a JSON object is parsed; a string holding a JSON *string* that holds an
 *   object is unwrapped once (`double_encoded_unwrapped`);
 * - an empty or missing value is `{}` when `emptyMeansObject` (tools without required
 *   parameters: `empty_string_to_object`, `missing_to_object`), else `invalid_arguments`;
 * - arrays, numbers, booleans, `null` are `invalid_arguments` ("must be a JSON object; got array");
 * - unparseable text is `invalid_json`, with the parser's reason and character offset, and
 *   hints for single quotes and for extra data after the first value.
 *
 * Never throws.
 */
export function parseArguments(raw: unknown, emptyMeansObject: boolean): ParsedArguments {
  if (raw === undefined || raw === null) {
    return emptyMeansObject
      ? { ok: true, args: {}, normalisations: ['missing_to_object'], text: '{}' }
      : { ok: false, errorType: 'invalid_arguments', reason: 'arguments are missing', normalisations: [] };
  }
  if (typeof raw === 'object') {
    if (Array.isArray(raw)) return notObject(raw, []);
    // The tool runs with exactly what is replayed: a copy through JSON (NaN → null, undefined
    // dropped), and values JSON cannot hold (BigInt, cycles, too deep) are not an object.
    let text: string;
    try {
      text = JSON.stringify(raw);
    } catch {
      return {
        ok: false,
        errorType: 'invalid_arguments',
        reason: 'arguments must be a JSON object; got a value JSON cannot represent',
        normalisations: [],
      };
    }
    const copy = tryParse(text);
    if (!copy.ok || !isObject(copy.value)) return notObject(copy.ok ? copy.value : raw, []);
    return { ok: true, args: copy.value, normalisations: ['object_to_string'], text };
  }
  if (typeof raw !== 'string') return notObject(raw, []);
  if (raw.trim() === '') {
    return emptyMeansObject
      ? { ok: true, args: {}, normalisations: ['empty_string_to_object'], text: '{}' }
      : {
          ok: false,
          errorType: 'invalid_arguments',
          reason: 'arguments are an empty string',
          normalisations: [],
        };
  }
  const parsed = tryParse(raw);
  if (!parsed.ok)
    return { ok: false, errorType: 'invalid_json', reason: describeJsonError(raw), normalisations: [] };
  if (typeof parsed.value === 'string') {
    const inner = tryParse(parsed.value);
    if (inner.ok && isObject(inner.value))
      return {
        ok: true,
        args: inner.value,
        normalisations: ['double_encoded_unwrapped'],
        text: JSON.stringify(inner.value),
      };
    return notObject(parsed.value, []);
  }
  if (!isObject(parsed.value)) return notObject(parsed.value, []);
  return { ok: true, args: parsed.value, normalisations: [], text: raw };
}

function notObject(value: unknown, normalisations: string[]): ParsedArguments {
  return {
    ok: false,
    errorType: 'invalid_arguments',
    reason: `arguments must be a JSON object; got ${typeName(value)}`,
    normalisations,
  };
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A model-readable reason for a JSON parse failure: what is wrong, the character offset, and a
 * hint for the common causes (single quotes, several values back to back, trailing text,
 * truncation). The offset comes from our own scanner, since engines word their errors differently.
 */
export function describeJsonError(text: string): string {
  const problem = scanJson(text) ?? { offset: 0, reason: 'not valid JSON' };
  const parts = [`arguments are not valid JSON: ${problem.reason} at character offset ${problem.offset}`];
  if (problem.reason === 'extra data after the first JSON value') {
    const rest = text.slice(problem.offset).trimStart();
    parts.push(
      rest.startsWith('{') || rest.startsWith('[')
        ? 'several JSON values back to back; issue one tool call per action'
        : 'text after the JSON object; send only the JSON object',
    );
  } else if (text[problem.offset] === "'") {
    parts.push('single-quoted strings are not JSON; use double quotes');
  } else if (problem.offset >= text.length) {
    parts.push('the JSON ends before it is complete (truncated?)');
  }
  return parts.join('; ');
}

/** Finds the first JSON syntax error: its offset and a short reason; `undefined` when the text parses. */
export function scanJson(text: string): { offset: number; reason: string } | undefined {
  let i = 0;
  const fail = (reason: string): never => {
    throw new JsonScanError(i, reason);
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i += 1;
  };
  const describe = () =>
    i >= text.length ? 'unexpected end of input' : `unexpected character ${JSON.stringify(text[i])}`;
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(describe());
  };
  const string = () => {
    i += 1;
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail('control character inside a string');
      if (text[i] === '\\') {
        i += 1;
        if (i < text.length && !'"\\/bfnrtu'.includes(text[i]!)) fail('invalid escape in a string');
        if (text[i] === 'u') {
          const hex = /^[0-9a-fA-F]{0,4}/.exec(text.slice(i + 1, i + 5))![0];
          i += 1 + hex.length;
          if (hex.length < 4)
            fail(i >= text.length ? 'unterminated string' : 'invalid \\u escape in a string');
          continue;
        }
      }
      i += 1;
    }
    if (i >= text.length) fail('unterminated string');
    i += 1;
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!match) fail(describe());
    else i += match[0].length;
  };
  const members = (close: '}' | ']') => {
    i += 1;
    ws();
    if (text[i] === close) {
      i += 1;
      return;
    }
    for (;;) {
      ws();
      if (close === '}') {
        if (text[i] !== '"')
          fail(
            text[i] === '}'
              ? 'trailing comma before }'
              : `expected a double-quoted property name, found ${describe().replace('unexpected ', '')}`,
          );
        string();
        ws();
        if (text[i] !== ':') fail("expected ':' after property name");
        i += 1;
      }
      value();
      ws();
      if (text[i] === ',') {
        i += 1;
        ws();
        if (close === ']' && text[i] === ']') fail('trailing comma before ]');
        continue;
      }
      if (text[i] === close) {
        i += 1;
        return;
      }
      fail(i >= text.length ? 'unexpected end of input' : `expected ',' or '${close}'`);
    }
  };
  const value = (): void => {
    ws();
    const char = text[i];
    if (char === '{') members('}');
    else if (char === '[') members(']');
    else if (char === '"') string();
    else if (char === 't') literal('true');
    else if (char === 'f') literal('false');
    else if (char === 'n') literal('null');
    else if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) number();
    else fail(describe());
  };
  try {
    value();
    ws();
    if (i < text.length) fail('extra data after the first JSON value');
    return undefined;
  } catch (error) {
    if (error instanceof JsonScanError) return { offset: error.offset, reason: error.reason };
    // The scanner recurses per nesting level; text nested too deeply for the stack is still a result.
    if (error instanceof RangeError) return { offset: i, reason: 'nested too deeply' };
    throw error;
  }
}

class JsonScanError {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {}
}

/** A piece of output text on the work stack of {@link canonicalJson}, as opposed to a value. */
class Literal {
  constructor(readonly text: string) {}
}

/** Characters JSON.stringify escapes in a string (any surrogate, so a lone one is never missed). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `JSON.stringify(text)`, without the call for text that needs no escape (most keys and values). */
function jsonString(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/** Keys at most this many are sorted in place by insertion (no comparator call per pair). */
const INSERTION_SORT_MAX = 16;

/** `keys` sorted as `Array.prototype.sort` sorts strings: by UTF-16 code units. */
function sortKeys(keys: string[]): string[] {
  if (keys.length > INSERTION_SORT_MAX) return keys.sort();
  for (let i = 1; i < keys.length; i += 1) {
    const key = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > key; j -= 1) keys[j + 1] = keys[j]!;
    keys[j + 1] = key;
  }
  return keys;
}

/**
 * The canonical JSON of an object whose values are all primitives (most tool arguments), else
 * undefined. Each value is written as JSON.stringify writes it (a value JSON cannot hold as
 * `null`, a BigInt throws), with the calls saved for plain strings, finite numbers, booleans
 * and null.
 */
function flatObjectJson(value: unknown): string | undefined {
  if (!isObject(value)) return undefined;
  const keys = sortKeys(Object.keys(value));
  let out = '{';
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i]!;
    const item = value[key];
    let text: string;
    if (typeof item === 'string') text = jsonString(item);
    else if (typeof item === 'number') text = Number.isFinite(item) ? String(item) : 'null';
    else if (typeof item === 'boolean') text = item ? 'true' : 'false';
    else if (item === null) text = 'null';
    else if (typeof item === 'object') return undefined;
    else text = JSON.stringify(item) ?? 'null';
    out += i > 0 ? `,${jsonString(key)}:${text}` : `${jsonString(key)}:${text}`;
  }
  return `${out}}`;
}

/**
 * Canonical JSON: object keys sorted at every depth. Used for loop identity and diffs.
 * Iterative, so arguments nested deeper than the call stack (JSON.parse accepts them) never throw.
 */
export function canonicalJson(value: unknown): string {
  const flat = flatObjectJson(value);
  if (flat !== undefined) return flat;
  let out = '';
  const work: unknown[] = [value];
  while (work.length > 0) {
    const item = work.pop();
    if (item instanceof Literal) out += item.text;
    else if (Array.isArray(item)) {
      const parts: unknown[] = [new Literal('[')];
      for (const [index, element] of item.entries()) {
        if (index > 0) parts.push(new Literal(','));
        parts.push(element);
      }
      parts.push(new Literal(']'));
      for (let k = parts.length - 1; k >= 0; k -= 1) work.push(parts[k]);
    } else if (isObject(item)) {
      const parts: unknown[] = [new Literal('{')];
      for (const [index, key] of Object.keys(item).sort().entries())
        parts.push(new Literal(`${index > 0 ? ',' : ''}${JSON.stringify(key)}:`), item[key]);
      parts.push(new Literal('}'));
      for (let k = parts.length - 1; k >= 0; k -= 1) work.push(parts[k]);
    } else out += JSON.stringify(item) ?? 'null';
  }
  return out;
}
