import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CASSETTE_SCHEMA } from './cassette/schema.ts';
import { parseCassette } from './cassette/load.ts';
import { loadConfig } from './config-load.ts';
import { closest, didYouMean, editDistance, knownKeysAt, unknownKeyReason } from './did-you-mean.ts';
import { InputError } from './errors.ts';
import { validateScenario } from './scenario/validate.ts';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from './config-load.ts';

describe('editDistance', () => {
  it('matches worked examples', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('stopReson', 'stopReason')).toBe(1);
    expect(editDistance('flaw', 'lawn')).toBe(2);
    expect(editDistance('meat', 'meta')).toBe(1);
  });

  it('is zero only on equal strings, symmetric, and bounded by the lengths', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 12 }),
        fc.string({ maxLength: 12 }),
        fc.string({ maxLength: 12 }),
        (a, b, c) => {
          const ab = editDistance(a, b);
          expect(ab === 0).toBe(a === b);
          expect(ab).toBe(editDistance(b, a));
          expect(editDistance(a + c, b + c)).toBeLessThanOrEqual(ab);
          expect(ab).toBeLessThanOrEqual(Math.max(a.length, b.length));
          expect(ab).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
        },
      ),
    );
  });
});

describe('closest', () => {
  it('suggests a near key and nothing for a far one', () => {
    expect(closest('stopReson', ['stopReason', 'modelCalls'])).toBe('stopReason');
    expect(closest('maxturns', ['maxTurns', 'maxToolCalls'])).toBe('maxTurns');
    expect(closest('zzzzzz', ['stopReason', 'modelCalls'])).toBeUndefined();
    expect(didYouMean('zzzzzz', ['stopReason'])).toBe('');
  });

  it('a key one edit away from a known key of length ≥ 3 is always suggested', () => {
    const known = ['stopReason', 'executed', 'notExecuted', 'results', 'permissions', 'evidence'];
    fc.assert(
      fc.property(
        fc.constantFrom(...known),
        fc.nat(),
        fc.string({ minLength: 1, maxLength: 1 }),
        (key, at, ch) => {
          const i = at % key.length;
          const typo = key.slice(0, i) + ch + key.slice(i + 1);
          fc.pre(typo !== key && !known.includes(typo));
          const found = closest(typo, known);
          expect(found).toBeDefined();
          expect(editDistance(typo.toLowerCase(), found!.toLowerCase())).toBeLessThanOrEqual(1);
        },
      ),
    );
  });
});

describe('knownKeysAt', () => {
  it('resolves the object beside an additionalProperties keyword', () => {
    expect(knownKeysAt(CASSETTE_SCHEMA, '')).toContain('exchanges');
    expect(knownKeysAt(CASSETTE_SCHEMA, '/meta')).toContain('id');
    expect(knownKeysAt(CASSETTE_SCHEMA, '/no/such')).toEqual([]);
    expect(unknownKeyReason('exchange', ['exchanges', 'meta'])).toBe(
      'unknown key "exchange" (did you mean "exchanges"?)',
    );
  });
});

function reasons(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof InputError) return error.problems.map((p) => `${p.path}: ${p.reason}`).join('\n');
    throw error;
  }
  return '';
}

describe('unknown keys in every input say "did you mean"', () => {
  it('a scenario', () => {
    const problems = validateScenario(
      { id: 'a', task: 't', model: [{ content: 'x' }], expect: { stopReson: 'final_answer' } },
      's.json',
    );
    expect(problems.map((p) => p.reason).join('\n')).toContain(
      'unknown key "stopReson" (did you mean "stopReason"?)',
    );
  });

  it('a configuration', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hb-dym-'));
    const file = path.join(dir, 'c.json');
    writeFileSync(file, JSON.stringify({ limits: { maxTurn: 3 } }));
    expect(reasons(() => loadConfig(file))).toMatch(/unknown key "maxTurn" \(did you mean "maxTurns"\?\)/);
  });

  it('a cassette', () => {
    const cassette = JSON.parse(
      readFileSync(path.join(PACKAGE_ROOT, 'recordings/real/openai-gpt5mini-tool-auto-loop.json'), 'utf8'),
    );
    const { meta, ...rest } = cassette;
    expect(reasons(() => parseCassette(JSON.stringify({ ...rest, meat: meta }), 'c.json'))).toMatch(
      /unknown key "meat" \(did you mean "meta"\?\)/,
    );
  });
});
