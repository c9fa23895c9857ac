/**
 * The handed case list (`cases/handed-cases.json`, provenance in `cases/README.md`) is covered:
 * every case has at least one shipped scenario tagged with its id that names the same public
 * thread in `source`. The per-kind files (`scenarios.test.ts`, `memory-scenarios.test.ts`) check
 * their kinds in more detail; this one keeps a case from being dropped by any kind.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadScenarios } from './load.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CASES_FILE = fileURLToPath(new URL('../../cases/handed-cases.json', import.meta.url));

interface HandedCase {
  id: string;
  kind: string;
  source: string;
  symptom: string;
  input: unknown;
  expected: unknown;
}

describe('handed cases (cases/handed-cases.json)', async () => {
  const cases = JSON.parse(readFileSync(CASES_FILE, 'utf8')) as HandedCase[];
  const { scenarios } = await loadScenarios(['scenarios'], ROOT);

  it('each has an id, a kind, a public source thread, a symptom, an input and an expectation', () => {
    expect(cases.length).toBeGreaterThanOrEqual(28);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    for (const c of cases) {
      expect(c.id, JSON.stringify(c).slice(0, 80)).toMatch(/^[A-Z]\d\d$/);
      expect(c.kind).toBe(c.id[0]!.toLowerCase());
      expect(c.source, c.id).toMatch(/^[\w.-]+\/[\w.-]+#\d+$/);
      expect(c.symptom.length, c.id).toBeGreaterThan(20);
      expect(c.input, c.id).toBeTypeOf('object');
      expect(c.expected, c.id).toBeTypeOf('object');
    }
  });

  it('each is covered by a shipped scenario tagged with its id and naming its source', () => {
    const uncovered = cases
      .filter(
        (c) =>
          !scenarios.some(({ scenario }) => scenario.tags?.includes(c.id) && scenario.source === c.source),
      )
      .map((c) => `${c.id} (${c.source})`);
    expect(uncovered).toEqual([]);
  });
});
