/**
 * The shipped scenarios of the context, session and subagent kinds: they load, each id starts
 * with its folder, every handed case of kinds d, g and h that the memory issue covers (D01, D03,
 * D04, G01, G02, G03, H01, H02) has one tagged with its id and naming its public thread, and each
 * passes under the default configuration.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../harness/config.ts';
import { runScenario } from '../run-scenario.ts';
import { loadScenarios } from './load.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FOLDERS = ['scenarios/context', 'scenarios/session', 'scenarios/subagent'];
/** The handed case list, copied into the repository with its provenance (`cases/README.md`). */
const CASES_FILE = fileURLToPath(new URL('../../cases/handed-cases.json', import.meta.url));
const COVERED = ['D01', 'D03', 'D04', 'G01', 'G02', 'G03', 'H01', 'H02'];

describe('shipped scenarios (context, session, subagent)', async () => {
  const { scenarios } = await loadScenarios(FOLDERS, ROOT);

  it('load, and each id starts with its folder name', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(14);
    for (const { file, scenario } of scenarios)
      expect(file.split('/')[1], file).toBe(scenario.id.split('/')[0]);
  });

  it('cover D01, D03, D04, G01, G02, G03, H01 and H02, tagged with the id and naming the source', () => {
    const cases = (JSON.parse(readFileSync(CASES_FILE, 'utf8')) as { id: string; source: string }[]).filter(
      (c) => COVERED.includes(c.id),
    );
    expect(cases).toHaveLength(COVERED.length);
    for (const c of cases) {
      const matching = scenarios.filter(({ scenario }) => scenario.tags?.includes(c.id));
      expect(matching.length, `no scenario tagged ${c.id}`).toBeGreaterThan(0);
      expect(
        // Variations of the same fault may name another public thread about it (the fault library).
        matching.some(({ scenario }) => scenario.source === c.source),
        `no scenario for ${c.id} names ${c.source}`,
      ).toBe(true);
    }
  });

  it.each(scenarios.map((s) => [s.scenario.id, s] as const))(
    '%s passes under the default configuration',
    async (_id, loaded) => {
      const { result } = await runScenario(loaded, { name: 'default', config: DEFAULT_CONFIG });
      expect(result.firstFailure ?? '').toBe('');
      expect(result.status).toBe('pass');
    },
  );
});
