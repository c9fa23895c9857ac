import { describe, expect, it } from 'vitest';
import { compareConfigs } from '../eval/compare/index.ts';
import { failing, result } from '../eval/compare/fixtures.test-helpers.ts';
import { summarise, type CaseResult, type ResultsFile } from '../eval/results.ts';
import { STOP_REASONS } from '../harness/loop/stop-reasons.ts';
import { COMPACT_ABOVE, pText, renderMatrix, signed, STOP_SHORT } from './matrix.ts';

function file(cases: CaseResult[], configs = ['a', 'b']): ResultsFile {
  const summary = summarise(cases);
  const comparisons = compareConfigs(configs, cases, summary.metrics);
  return {
    format: 'harness-bench.results',
    version: 1,
    startedAt: '',
    durationMs: 5,
    tool: { name: 'harness-bench', version: '0' },
    configs: configs.map((name) => ({ name, file: `${name}.json` })),
    cases,
    summary,
    ...(comparisons ? { comparisons } : {}),
  };
}

const cases = [
  result('same', 'a'),
  result('same', 'b'),
  result('worse', 'a'),
  failing('worse', 'b', 'stopReason: expected final_answer, observed max_turns'),
  result('loops', 'a', { stopReason: 'repeated_tool_call' }),
  result('loops', 'b', { stopReason: 'max_turns' }),
];

describe('renderMatrix', () => {
  it('shows cases × configurations with the stop reason and marks the transitions', () => {
    const text = renderMatrix(file(cases), { color: false });
    expect(text).toMatch(/case\s+│ a \(ref\)\s+│ b\s+│/);
    expect(text).toMatch(/same\s+│\s+pass final\s+│\s+pass final\s+│/);
    expect(text).toMatch(/worse\s+│\s+pass final\s+│ ▼ FAIL final\s+│/);
    expect(text).toMatch(/loops\s+│\s+pass loop\s+│ ~ pass turns\s+│/);
    expect(text).toContain('worse (b): stopReason: expected final_answer, observed max_turns');
    expect(text).toMatch(
      /a → b: 3 paired; 1 regression, 0 fixes, 1 behaviour change; McNemar exact p = 1 \(1 vs 0 discordant\)/,
    );
    expect(text).toMatch(/^ {2}b {12}2\/3 passed/m);
  });

  it('compact lists only failures and changes; the default turns compact above the threshold', () => {
    const text = renderMatrix(file(cases), { color: false, compact: true });
    expect(text).not.toMatch(/│ same /);
    expect(text).toMatch(/│ worse /);
    expect(text).toContain('compact: 2 of 3 cases shown');
    const many = Array.from({ length: COMPACT_ABOVE + 1 }, (_, i) => [
      result(`c${i}`, 'a'),
      result(`c${i}`, 'b'),
    ]).flat();
    expect(renderMatrix(file(many), { color: false })).toContain(
      `compact: 0 of ${COMPACT_ABOVE + 1} cases shown`,
    );
    expect(renderMatrix(file(many), { color: false, compact: false })).toMatch(/│ c0 /);
  });

  it('has a short form for every stop reason', () => {
    for (const reason of STOP_REASONS) expect(STOP_SHORT[reason], reason).toBeTruthy();
  });

  it('formats signed numbers and p-values as people read them', () => {
    expect(signed(12)).toBe('+12');
    expect(signed(-0.5)).toBe('-0.5');
    expect(signed(null)).toBe('-');
    expect(pText(0.0703125)).toBe('0.0703');
    expect(pText(1e-9)).toBe('<0.0001');
  });
});
