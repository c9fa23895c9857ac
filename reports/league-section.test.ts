import { describe, expect, it } from 'vitest';
import type { CaseResult, ResultsFile } from '../eval/results.ts';
import { fixture } from './fixture.test-helpers.ts';
import { leagueRows, leagueSection } from './league-section.ts';

const { results } = fixture();

function withCases(cases: CaseResult[], names: string[]): ResultsFile {
  return { ...results, configs: names.map((name) => ({ name, file: `${name}.json` })), cases };
}

describe('the league section', () => {
  it('scores every column on the cases all columns ran, and lists each column’s skips by reason', () => {
    const base = results.cases.find((c) => c.status === 'pass')!;
    const as = (id: string, config: string, status: 'pass' | 'fail' | 'skipped'): CaseResult =>
      status === 'skipped'
        ? ({
            ...base,
            id,
            config,
            status,
            skip: { requires: ['loop'], reason: 'does not honour loop', fix: 'f', declared: false },
          } as CaseResult)
        : status === 'fail'
          ? ({ ...base, id, config, status, firstFailure: 'x' } as CaseResult)
          : ({ ...base, id, config, status } as CaseResult);
    const file = withCases(
      [
        as('a', 'ours', 'pass'),
        as('a', 'theirs', 'fail'),
        as('b', 'ours', 'pass'),
        as('b', 'theirs', 'skipped'),
        as('c', 'ours', 'pass'),
        as('c', 'theirs', 'pass'),
      ],
      ['ours', 'theirs'],
    );
    const league = leagueRows(file)!;
    expect(league.common).toBe(2);
    expect(league.rows.map((r) => [r.column, r.cell.survived.count, r.cell.survived.of])).toEqual([
      ['ours', 2, 2],
      ['theirs', 1, 2],
    ]);
    expect(league.rows[1]!.skipped).toEqual([{ reason: 'does not honour loop', count: 1 }]);
    expect(leagueSection(file, (t) => t)).toContain('League: every column on the 2 cases all of them ran');
  });

  it('is absent with one column', () => {
    expect(
      leagueSection(
        withCases(
          results.cases.filter((c) => c.config === results.configs[0]!.name),
          [results.configs[0]!.name],
        ),
        (t) => t,
      ),
    ).toBe('');
  });
});
