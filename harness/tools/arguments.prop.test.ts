import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, parseArguments, scanJson } from './arguments.ts';

/** Reorders the keys of every object in a JSON value, using `seed` to pick the order. */
function shuffleKeys(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v, i) => shuffleKeys(v, seed + i));
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value);
    const rotated = keys.map((_, i) => keys[(i + seed) % keys.length]!).reverse();
    const out: Record<string, unknown> = {};
    // defineProperty, not assignment: a `__proto__` key (JSON.parse makes it an own property) must stay a key.
    for (const key of rotated)
      Object.defineProperty(out, key, {
        value: shuffleKeys((value as Record<string, unknown>)[key], seed * 31 + key.length),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  return value;
}

/** Raw arguments as they come off the wire or out of a scripted model. */
const rawArguments = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.json(),
  fc.jsonValue().map((v) => JSON.stringify(JSON.stringify(v))),
  fc.jsonValue().map((v) => JSON.stringify(v).slice(0, -1)),
  fc.jsonValue().map((v) => `${JSON.stringify(v)}${JSON.stringify(v)}`),
  fc.jsonValue().map((v) => JSON.stringify(v).replace(/"/g, "'")),
  fc.object(),
  fc.anything(),
  fc.constantFrom(undefined, null, '', '  ', [], 0, true),
);

describe('canonicalJson (property)', () => {
  it('is stable under key reordering at any depth', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), (value, seed) => {
        expect(canonicalJson(shuffleKeys(value, seed))).toBe(canonicalJson(value));
      }),
    );
    // The case fast-check once found: a `__proto__` key must survive.
    const tricky = JSON.parse('{"":{"__proto__":false,"a":1}}') as unknown;
    expect(canonicalJson(shuffleKeys(tricky, 3))).toBe('{"":{"__proto__":false,"a":1}}');
  });

  it('is valid JSON that parses back to the same value (for JSON values)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(scanJson(text)).toBeUndefined();
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('different JSON values never share a canonical text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        const same =
          JSON.stringify(JSON.parse(canonicalJson(a))) === JSON.stringify(JSON.parse(canonicalJson(b)));
        expect(canonicalJson(a) === canonicalJson(b)).toBe(same);
      }),
    );
  });
});

describe('canonicalJson fast path (property)', () => {
  const isPlain = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  /** Canonical JSON by its definition: keys sorted with Array.prototype.sort, every leaf through JSON.stringify. */
  const reference = (v: unknown): string =>
    Array.isArray(v)
      ? `[${v.map(reference).join(',')}]`
      : isPlain(v)
        ? `{${Object.keys(v)
            .sort()
            .map((k) => `${JSON.stringify(k)}:${reference(v[k])}`)
            .join(',')}}`
        : (JSON.stringify(v) ?? 'null');
  const text = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.constantFrom(
      '\ud800',
      '\udfff',
      '\ud83d\ude00',
      'a"b',
      '\\',
      '\u2028',
      '\u007f',
      '\u001f',
      '__proto__',
      '10',
      '2',
    ),
  );
  const leaf = fc.oneof(
    text,
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constantFrom(null, undefined, -0, Number.NaN, Number.POSITIVE_INFINITY, 1e21, 5e-7),
    fc.constant(() => 1),
    fc.constant(Symbol('s')),
  );
  const flat = fc.oneof(
    fc.dictionary(text, leaf, { maxKeys: 8 }),
    fc.dictionary(text, leaf, { minKeys: 17, maxKeys: 40 }),
  );

  it('equals the definition on flat objects of odd keys and values, and on nested ones', () => {
    fc.assert(
      fc.property(fc.oneof(flat, fc.dictionary(text, fc.oneof(leaf, flat, fc.array(leaf)))), (value) => {
        expect(canonicalJson(value)).toBe(reference(value));
      }),
      { numRuns: 3000 },
    );
    expect(canonicalJson(JSON.parse('{"b":1,"__proto__":2,"10":3,"2":4}'))).toBe(
      '{"10":3,"2":4,"__proto__":2,"b":1}',
    );
  });

  it('throws on a BigInt as JSON.stringify does', () => {
    expect(() => canonicalJson({ a: 1n })).toThrow(TypeError);
  });
});

describe('parseArguments (property)', () => {
  it('never throws; ok results hold text that JSON.parses to an object deep-equal to args', () => {
    fc.assert(
      fc.property(rawArguments, fc.boolean(), (raw, emptyMeansObject) => {
        const result = parseArguments(raw, emptyMeansObject);
        if (!result.ok) {
          expect(['invalid_json', 'invalid_arguments']).toContain(result.errorType);
          expect(result.reason.length).toBeGreaterThan(0);
          return;
        }
        expect(typeof result.text).toBe('string');
        const parsed: unknown = JSON.parse(result.text);
        expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)).toBe(true);
        expect(parsed).toStrictEqual(result.args);
      }),
      { numRuns: 500 },
    );
  });

  it('a string is ok exactly when it is a JSON object, a JSON string holding one, or blank with emptyMeansObject', () => {
    fc.assert(
      fc.property(
        rawArguments.filter((r): r is string => typeof r === 'string'),
        fc.boolean(),
        (raw, emptyMeansObject) => {
          const isObj = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
          let expected: boolean;
          if (raw.trim() === '') expected = emptyMeansObject;
          else {
            try {
              const value: unknown = JSON.parse(raw);
              if (typeof value === 'string') {
                try {
                  expected = isObj(JSON.parse(value));
                } catch {
                  expected = false;
                }
              } else expected = isObj(value);
            } catch {
              expected = false;
            }
          }
          const result = parseArguments(raw, emptyMeansObject);
          expect(result.ok).toBe(expected);
          if (!result.ok && raw.trim() !== '') {
            let parses = true;
            try {
              JSON.parse(raw);
            } catch {
              parses = false;
            }
            expect(result.errorType).toBe(parses ? 'invalid_arguments' : 'invalid_json');
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('invalid_json reasons carry an offset inside the text (or at its end)', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const result = parseArguments(raw, true);
        if (result.ok || result.errorType !== 'invalid_json') return;
        const match = /at character offset (\d+)/.exec(result.reason);
        expect(match).not.toBeNull();
        expect(Number(match![1])).toBeLessThanOrEqual(raw.length);
      }),
    );
  });
});
