/**
 * The shipped scenarios of the bad-json, hallucinated-tool, transcript, loop and budget kinds:
 * they load, every handed case of kinds a, b and c has one (tagged with its id, naming its
 * public thread), and every call id an expectation names exists in the script (or is one the
 * harness assigns), so a typo in an id cannot make a check vacuous.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expandScript, isErrorTurn } from '../../harness/model/scripted-model.ts';
import { loadScenarios } from './load.ts';
import { ASSIGNED_ID as ASSIGNED } from './validate.ts';
import type { LoadedScenario } from './types.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FOLDERS = [
  'scenarios/bad-json',
  'scenarios/hallucinated-tool',
  'scenarios/transcript',
  'scenarios/loop',
  'scenarios/budget',
];
/** The handed case list, copied into the repository with its provenance (`cases/README.md`). */
const CASES_FILE = fileURLToPath(new URL('../../cases/handed-cases.json', import.meta.url));

async function load(): Promise<LoadedScenario[]> {
  return (await loadScenarios(FOLDERS, ROOT)).scenarios;
}

describe('shipped scenarios (bad-json, hallucinated-tool, transcript, loop, budget)', () => {
  it('all load, and each id starts with its folder name', async () => {
    const scenarios = await load();
    expect(scenarios.length).toBeGreaterThanOrEqual(30);
    for (const { file, scenario } of scenarios)
      expect(file.split('/')[1], file).toBe(scenario.id.split('/')[0]);
  });

  it('name only call ids that the script sends or the harness assigns', async () => {
    for (const { file, scenario } of await load()) {
      const scripted = new Set(
        expandScript(scenario.model).flatMap((turn) =>
          isErrorTurn(turn) ? [] : (turn.tool_calls ?? []).flatMap((c) => (c.id === undefined ? [] : [c.id])),
        ),
      );
      const e = scenario.expect;
      const named = [
        ...(e.executed ?? []),
        ...(e.notExecuted ?? []),
        ...Object.keys(e.results ?? {}),
        ...Object.keys(e.permissions ?? {}),
        ...(e.attack?.goalCalls ?? []),
      ];
      const unknown = named.filter((id) => !scripted.has(id) && !ASSIGNED.test(id));
      expect(unknown, `${file} names ids the script never sends`).toEqual([]);
    }
  });

  it('cover every handed case of kinds a, b and c, tagged with its id and naming its source', async () => {
    const cases = (
      JSON.parse(readFileSync(CASES_FILE, 'utf8')) as { id: string; kind: string; source: string }[]
    ).filter((c) => ['a', 'b', 'c'].includes(c.kind));
    expect(cases.length).toBeGreaterThan(0);
    const scenarios = await load();
    for (const c of cases) {
      const matching = scenarios.filter(({ scenario }) => scenario.tags?.includes(c.id));
      expect(matching.length, `no scenario tagged ${c.id}`).toBeGreaterThan(0);
      expect(
        matching.some(({ scenario }) => scenario.source === c.source),
        `no scenario for ${c.id} names ${c.source}`,
      ).toBe(true);
    }
  });
});
