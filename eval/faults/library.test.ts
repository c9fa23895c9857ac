import { describe, expect, it } from 'vitest';
import { inputsForTag, scenariosToJudge, sortOutcomes, type TagInputs } from './library.ts';
import type { CaseOutcome } from './workbench.ts';

const inputs: TagInputs = {
  tag: 'sandbox',
  scenarios: ['/s/a.yaml', '/s/b.yaml', '/s/c.yaml', '/s/d.yaml'],
  scenarioIds: new Map([
    ['/s/a.yaml', 'escape/a'],
    ['/s/b.yaml', 'escape/b'],
    ['/s/c.yaml', 'escape/c'],
    ['/s/d.yaml', 'escape/d'],
  ]),
  recordings: [],
};
const outcome = (id: string, status: CaseOutcome['status'], config = 'default'): CaseOutcome => ({
  id,
  config,
  status,
});

describe('scenariosToJudge', () => {
  it('runs patched only the scenarios that passed on the baseline: a skipped one (sandbox missing) never runs', () => {
    const baseline = [
      outcome('escape/a', 'pass'),
      outcome('escape/b', 'skipped'),
      outcome('escape/c', 'fail'),
      outcome('escape/d', 'error'),
    ];
    expect(scenariosToJudge(inputs, baseline)).toEqual(['/s/a.yaml']);
  });

  it('keeps a scenario that passed in one configuration of several, and keeps the order', () => {
    const baseline = [
      outcome('escape/d', 'pass', 'strict'),
      outcome('escape/d', 'skipped'),
      outcome('escape/b', 'pass'),
    ];
    expect(scenariosToJudge(inputs, baseline)).toEqual(['/s/b.yaml', '/s/d.yaml']);
  });

  it('maps every scenario file of a real tag to its case id', async () => {
    const real = await inputsForTag('sandbox');
    expect(real.scenarios.length).toBeGreaterThan(0);
    for (const file of real.scenarios) expect(real.scenarioIds.get(file)).toMatch(/\S/);
    const all = real.scenarios.map((file) => outcome(real.scenarioIds.get(file)!, 'pass'));
    expect(scenariosToJudge(real, all)).toEqual(real.scenarios);
  });
});

describe('sortOutcomes: only a failed check catches a fault, unless the fault declares more', () => {
  const changed = [
    { ...outcome('escape/a', 'fail'), why: 'files.unchanged: /etc/passwd changed' },
    outcome('escape/b', 'error'),
    outcome('escape/c', 'skipped'),
  ];

  it('counts a failure and leaves an error or a skip out, naming them', () => {
    const sorted = sortOutcomes({}, changed);
    expect(sorted.caughtBy.map((o) => [o.id, o.why])).toEqual([
      ['escape/a', 'files.unchanged: /etc/passwd changed'],
    ]);
    expect(sorted.notCounted?.map((o) => o.id)).toEqual(['escape/b', 'escape/c']);
  });

  it('counts an error or a skip where the fault declares it', () => {
    expect(sortOutcomes({ caughtAs: ['error'] }, changed).caughtBy.map((o) => o.id)).toEqual([
      'escape/a',
      'escape/b',
    ]);
    const all = sortOutcomes({ caughtAs: ['error', 'skipped'] }, changed);
    expect(all.caughtBy).toHaveLength(3);
    expect(all.notCounted).toBeUndefined();
  });

  it('an error alone catches nothing', () => {
    expect(sortOutcomes({}, [outcome('escape/b', 'error')]).caughtBy).toEqual([]);
  });
});
