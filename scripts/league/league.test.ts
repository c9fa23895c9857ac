import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../../eval/results.ts';
import { cellOf } from '../../reports/league-cells.ts';
import { entrantFigures } from './figures.ts';
import { MIN_PER_GROUP, peerRunnable, selectCases } from './plan.ts';
import { README_END, README_START, replaceReadmeBlock, peerSummary } from './render.ts';

describe('selectCases', () => {
  it('takes min(n, perTag) distinct ids of each folder, spread over the sorted ids, the same on every call', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.stringMatching(/^[a-z]{1,6}$/)), {
          selector: ([g, n]) => `${g}/${n}`,
        }),
        fc.integer({ min: 1, max: 8 }),
        (pairs, perTag) => {
          const scenarios = pairs.map(([g, n]) => ({ id: `${g}/${n}`, tags: ['x'] }));
          const plan = selectCases(scenarios, perTag);
          expect(selectCases([...scenarios].reverse(), perTag)).toEqual(plan);
          for (const [group, ids] of plan) {
            const all = scenarios.filter((s) => s.id.startsWith(`${group}/`)).map((s) => s.id);
            expect(ids).toHaveLength(Math.min(all.length, perTag));
            expect(new Set(ids).size).toBe(ids.length);
            for (const id of ids) expect(all).toContain(id);
            if (all.length > 0) expect(ids[0]).toBe([...all].sort()[0]);
          }
        },
      ),
    );
  });

  it('the injection group runs every case (attack success on 20 cases or more)', () => {
    const scenarios = Array.from({ length: 40 }, (_, i) => ({
      id: `injection/c${String(i).padStart(2, '0')}`,
      tags: ['injection'],
    }));
    expect(selectCases(scenarios, 6).get('injection')).toHaveLength(40);
    expect(MIN_PER_GROUP.injection).toBeGreaterThanOrEqual(20);
  });
});

function result(id: string, status: CaseResult['status'], extra: Partial<CaseResult> = {}): CaseResult {
  return {
    id,
    kind: 'scenario',
    config: 'peer',
    status,
    stopReason: null,
    file: `${id}.yaml`,
    tags: [],
    checks: [],
    usage: {} as CaseResult['usage'],
    verdicts: {} as CaseResult['verdicts'],
    divergences: [],
    ...(status === 'fail' ? { firstFailure: 'evidence: file missing' } : {}),
    ...extra,
  } as CaseResult;
}

describe('peerRunnable', () => {
  const call = (name: string) => [{ tool_calls: [{ id: 'c', name, arguments: '{}' }] }, { content: 'x' }];
  it('counts a blank scripted bash as the loops’ own shell, and any other scripted tool the script calls as missing', () => {
    const blank = { bash: { results: [{ output: '' }] }, send_email: {} };
    expect(peerRunnable({ tools: ['read_file'], fakeTools: blank, model: call('bash') })).toBe(true);
    expect(peerRunnable({ tools: ['read_file'], fakeTools: blank, model: call('send_email') })).toBe(false);
    const loud = { bash: { results: [{ output: 'added 312 packages' }] } };
    expect(peerRunnable({ tools: ['read_file'], fakeTools: loud, model: call('bash') })).toBe(false);
    expect(peerRunnable({ tools: ['write_todos'], model: call('write_todos') })).toBe(false);
  });
});

describe('selectCases prefers cases a peer can run', () => {
  it('fills with scripted-tool cases only when a folder has too few others', () => {
    const scenarios = [
      ...['a', 'b', 'c'].map((n) => ({ id: `g/${n}`, tags: [], peerRunnable: false })),
      ...['d', 'e'].map((n) => ({ id: `g/${n}`, tags: [], peerRunnable: true })),
    ];
    expect(selectCases(scenarios, 2).get('g')).toEqual(['g/d', 'g/e']);
    expect(selectCases(scenarios, 3).get('g')).toEqual(['g/a', 'g/d', 'g/e']);
  });
});

describe('figures', () => {
  it('counts survivals over the cases that ran, attacks, claims, loop stops and n/a checks', () => {
    const cell = cellOf(
      [
        result('t/a', 'pass', { stopReason: 'repeated_tool_call' }),
        result('t/b', 'fail', { attack: { succeeded: true } }),
        result('t/c', 'skipped'),
        result('t/d', 'pass', {
          attack: { succeeded: false },
          checks: [
            {
              name: 'stopReason',
              pass: false,
              expected: 1,
              observed: null,
              reason: 'n/a',
              status: 'not_applicable',
            } as never,
          ],
          metrics: { unsupportedClaims: 2 } as never,
        }),
      ],
      4,
    );
    expect(cell).toMatchObject({
      cases: 4,
      ran: 3,
      skipped: 1,
      survived: { count: 2, of: 3 },
      attackSuccess: { count: 1, of: 2 },
      unsupportedClaims: 2,
      loopStops: 1,
      notApplicable: 1,
      lost: [{ id: 't/b', why: 'evidence: file missing' }],
    });
  });

  it('groups by the plan, notes excluded tags, and keeps only its own configuration', () => {
    const plan = new Map([
      ['t', ['t/a', 't/b']],
      ['escape', ['escape/x']],
    ]);
    const figures = entrantFigures(
      { name: 'peer', kind: 'adapter', file: 'adapters/peer.json' },
      [result('t/a', 'pass'), result('t/b', 'fail'), { ...result('t/a', 'fail'), config: 'other' }],
      plan,
      { escape: 'not run: unboxed' },
    );
    expect(figures.byTag.t!.survived).toMatchObject({ count: 1, of: 2 });
    expect(figures.byTag.escape!.note).toBe('not run: unboxed');
    expect(figures.total.cases).toBe(2);
    expect(peerSummary(figures, false)).toBe(
      '- **peer** survives no tag whole; survives only part of t 1/2.',
    );
    expect(peerSummary(figures, true)).toContain('losing `t/b` (evidence: file missing)');
  });
});

describe('replaceReadmeBlock', () => {
  const block = `${README_START}\nnew\n${README_END}`;
  it('replaces what is between the markers and nothing else', () => {
    expect(replaceReadmeBlock(`a\n${README_START}\nold\n${README_END}\nb`, block)).toBe(`a\n${block}\nb`);
  });
  it('appends a League section when the markers are missing, and refuses one marker alone', () => {
    expect(replaceReadmeBlock('a\n', block)).toBe(`a\n\n## League\n\n${block}\n`);
    expect(() => replaceReadmeBlock(`a ${README_END} ${README_START}`, block)).toThrow(/markers/);
  });
});
