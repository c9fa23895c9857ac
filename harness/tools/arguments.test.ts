import { describe, expect, it } from 'vitest';
import { canonicalJson, describeJsonError, parseArguments, scanJson } from './arguments.ts';

describe('parseArguments', () => {
  it('takes an object as it is and replays it as its JSON text', () => {
    const result = parseArguments({ path: 'README.md', n: 2 }, false);
    expect(result).toEqual({
      ok: true,
      args: { path: 'README.md', n: 2 },
      normalisations: ['object_to_string'],
      text: '{"path":"README.md","n":2}',
    });
  });

  it('parses a string holding an object without normalising it, replaying the text verbatim', () => {
    const raw = '{ "path" : "src/index.ts" }';
    expect(parseArguments(raw, false)).toEqual({
      ok: true,
      args: { path: 'src/index.ts' },
      normalisations: [],
      text: raw,
    });
  });

  it('unwraps a double-encoded object exactly once', () => {
    const raw = JSON.stringify(JSON.stringify({ path: 'a.txt' }));
    expect(parseArguments(raw, false)).toEqual({
      ok: true,
      args: { path: 'a.txt' },
      normalisations: ['double_encoded_unwrapped'],
      text: '{"path":"a.txt"}',
    });
    const triple = JSON.stringify(raw);
    expect(parseArguments(triple, false)).toMatchObject({
      ok: false,
      errorType: 'invalid_arguments',
      reason: 'arguments must be a JSON object; got string',
    });
  });

  it('a JSON string that holds no object is invalid_arguments naming the type', () => {
    expect(parseArguments('"hello"', true)).toMatchObject({
      ok: false,
      errorType: 'invalid_arguments',
      reason: 'arguments must be a JSON object; got string',
    });
    expect(parseArguments('"[1,2]"', true)).toMatchObject({
      ok: false,
      errorType: 'invalid_arguments',
      reason: 'arguments must be a JSON object; got string',
    });
  });

  it('an empty (or blank) string is {} only for tools without required parameters', () => {
    expect(parseArguments('', true)).toEqual({
      ok: true,
      args: {},
      normalisations: ['empty_string_to_object'],
      text: '{}',
    });
    expect(parseArguments(' \n ', true)).toEqual({
      ok: true,
      args: {},
      normalisations: ['empty_string_to_object'],
      text: '{}',
    });
    expect(parseArguments('', false)).toEqual({
      ok: false,
      errorType: 'invalid_arguments',
      reason: 'arguments are an empty string',
      normalisations: [],
    });
  });

  it('missing arguments (undefined or null) are {} only for tools without required parameters', () => {
    expect(parseArguments(undefined, true)).toEqual({
      ok: true,
      args: {},
      normalisations: ['missing_to_object'],
      text: '{}',
    });
    expect(parseArguments(null, true)).toEqual({
      ok: true,
      args: {},
      normalisations: ['missing_to_object'],
      text: '{}',
    });
    expect(parseArguments(undefined, false)).toEqual({
      ok: false,
      errorType: 'invalid_arguments',
      reason: 'arguments are missing',
      normalisations: [],
    });
  });

  it.each([
    [['README.md'], 'array'],
    [42, 'number'],
    [true, 'boolean'],
    ['[1]', 'array'],
    ['42', 'number'],
    ['null', 'null'],
    ['false', 'boolean'],
  ])('%j is invalid_arguments: must be a JSON object; got %s', (raw, type) => {
    expect(parseArguments(raw, true)).toEqual({
      ok: false,
      errorType: 'invalid_arguments',
      reason: `arguments must be a JSON object; got ${type}`,
      normalisations: [],
    });
  });

  it('never guess-repairs: single quotes are invalid_json with the offset of the quote and a hint', () => {
    const raw = `{"pattern": "TODO", "paths": ['src/a.ts', "src/b.ts"]}`;
    const result = parseArguments(raw, false);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errorType).toBe('invalid_json');
    expect(raw[30]).toBe("'");
    expect(result.reason).toBe(
      `arguments are not valid JSON: unexpected character "'" at character offset 30; single-quoted strings are not JSON; use double quotes`,
    );
  });

  it('a missing colon is invalid_json at the offset where the colon should be', () => {
    expect(parseArguments('{"path" "src/index.ts"}', false)).toMatchObject({
      ok: false,
      errorType: 'invalid_json',
      reason: "arguments are not valid JSON: expected ':' after property name at character offset 8",
    });
  });

  it('takes an object argument as a copy equal to what is replayed, not as the caller-owned object', () => {
    const raw = { path: 'a', nested: { k: [1, 2] } };
    const result = parseArguments(raw, false);
    if (!result.ok) throw new Error('expected ok');
    expect(JSON.parse(result.text)).toEqual(result.args);
    (result.args.nested as { k: number[] }).k.push(3);
    expect(raw.nested.k).toEqual([1, 2]);
  });

  it('object arguments that JSON cannot represent never throw: replayed and executed values agree', () => {
    const withNaN = parseArguments({ a: Number.NaN, b: undefined, c: 1 }, false);
    if (!withNaN.ok) throw new Error('expected ok');
    expect(withNaN.args).toEqual(JSON.parse(withNaN.text));
    expect(withNaN.args).toStrictEqual({ a: null, c: 1 });
    expect(parseArguments({ big: 1n }, false)).toMatchObject({ ok: false, errorType: 'invalid_arguments' });
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(parseArguments(circular, false)).toMatchObject({ ok: false, errorType: 'invalid_arguments' });
    expect(parseArguments(new Date(0), false)).toMatchObject({
      ok: false,
      errorType: 'invalid_arguments',
      reason: 'arguments must be a JSON object; got string',
    });
  });

  it('never throws on deeply nested text, valid or not', () => {
    const deep = '['.repeat(20_000);
    const invalid = parseArguments(deep, false);
    expect(invalid).toMatchObject({ ok: false, errorType: 'invalid_json' });
    const valid = parseArguments(`{"a":${'['.repeat(20_000)}${']'.repeat(20_000)}}`, false);
    expect(valid.ok).toBe(true);
  });
});

describe('describeJsonError', () => {
  it('several objects back to back: extra data at the end of the first, one call per action', () => {
    expect(describeJsonError('{"query":"alpha"}{"query":"beta"}{"query":"gamma"}')).toBe(
      'arguments are not valid JSON: extra data after the first JSON value at character offset 17; several JSON values back to back; issue one tool call per action',
    );
    expect(describeJsonError('{"a":1} [2]')).toContain('several JSON values back to back');
  });

  it('prose after the object: text after the JSON object, offset after the whitespace', () => {
    expect(describeJsonError('{"query":"delta"}\n\nNow I will look at the results.')).toBe(
      'arguments are not valid JSON: extra data after the first JSON value at character offset 19; text after the JSON object; send only the JSON object',
    );
  });

  it('trailing commas name the bracket', () => {
    expect(describeJsonError('{"a":1,}')).toBe(
      'arguments are not valid JSON: trailing comma before } at character offset 7',
    );
    expect(describeJsonError('{"a":[1, 2 ,]}')).toBe(
      'arguments are not valid JSON: trailing comma before ] at character offset 12',
    );
  });

  it('truncated text says the JSON ends early, at the end offset', () => {
    expect(describeJsonError('{"path": "src/ind')).toBe(
      'arguments are not valid JSON: unterminated string at character offset 17; the JSON ends before it is complete (truncated?)',
    );
    expect(describeJsonError('{"a":1')).toBe(
      'arguments are not valid JSON: unexpected end of input at character offset 6; the JSON ends before it is complete (truncated?)',
    );
    expect(describeJsonError('{"a"')).toMatch(
      /expected ':' after property name at character offset 4; the JSON ends before/,
    );
    expect(describeJsonError('{"a":"\\u00')).toMatch(
      /at character offset 10; the JSON ends before it is complete/,
    );
  });

  it('a single-quoted property name gets the double-quote hint', () => {
    expect(describeJsonError("{'path': 'x'}")).toBe(
      `arguments are not valid JSON: expected a double-quoted property name, found character "'" at character offset 1; single-quoted strings are not JSON; use double quotes`,
    );
  });
});

describe('scanJson', () => {
  it.each([
    '{}',
    '[]',
    '{"a":[1,-2.5e3,true,false,null,"x\\n\\u00e9"]}',
    ' \t\n{"a" : { "b" : [ ] } }\r\n',
    '0',
    '"s"',
  ])('accepts valid JSON %j', (text) => {
    expect(scanJson(text)).toBeUndefined();
  });

  it.each([
    ['', 0, 'unexpected end of input'],
    ['{"a":01}', 6, "expected ',' or '}'"],
    ['{"a":tru}', 5, 'unexpected character "t"'],
    ['{"a":"x\ny"}', 7, 'control character inside a string'],
    ['{"a":"\\q"}', 7, 'invalid escape in a string'],
    ['{"a":"\\u12zz"}', 10, 'invalid \\u escape in a string'],
    ['{"a" 1}', 5, "expected ':' after property name"],
    ['[1 2]', 3, "expected ',' or ']'"],
    ['{a:1}', 1, 'expected a double-quoted property name, found character "a"'],
    ['NaN', 0, 'unexpected character "N"'],
  ])('%j fails at offset %i: %s', (text, offset, reason) => {
    expect(scanJson(text)).toEqual({ offset, reason });
  });

  it('agrees with JSON.parse on which texts are valid', () => {
    const texts = [
      '{"a":"\\u12"}',
      '{"a":"\\uD800"}',
      '1.',
      '-',
      '[1,]',
      '{"a":1}x',
      '"\\/"',
      '1e5',
      '-0',
      '[[]]]',
    ];
    for (const text of texts) {
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      expect(scanJson(text) === undefined, text).toBe(parses);
    }
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson([2, 1])).toBe('[2,1]');
  });

  it('writes scalars as JSON and undefined as null', () => {
    expect(canonicalJson('x"y')).toBe('"x\\"y"');
    expect(canonicalJson(1.5)).toBe('1.5');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson(null)).toBe('null');
  });

  it('tells different values apart', () => {
    expect(canonicalJson({ a: '1' })).not.toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
    expect(canonicalJson({ 'a,b': 1 })).not.toBe(canonicalJson({ a: 1, b: 1 }));
  });

  it('does not overflow the stack on deeply nested values', () => {
    let value: unknown = [];
    for (let i = 0; i < 20_000; i += 1) value = [value];
    const text = canonicalJson({ a: value });
    expect(text.startsWith('{"a":[[[')).toBe(true);
    expect(text.length).toBe(20_001 * 2 + 6);
  });
});
