import { describe, expect, it } from 'vitest';
import { summarise, type CaseResult, type ResultsFile } from '../eval/results.ts';
import { hardWrap, renderTable } from './table.ts';

function caseResult(id: string, status: CaseResult['status'], extra: Partial<CaseResult> = {}): CaseResult {
  return {
    id,
    kind: 'scenario',
    config: 'default',
    status,
    stopReason: 'final_answer',
    file: `${id}.json`,
    tags: [],
    checks: [],
    usage: {
      modelCalls: 2,
      turns: 2,
      toolCalls: 1,
      promptTokens: 10,
      completionTokens: 2,
      totalTokens: 12,
      costUsd: 0,
      durationMs: 1,
    },
    verdicts: { allow: 1, 'ask:approved': 0, 'ask:denied': 0, deny: 0, none: 0 },
    divergences: [],
    ...extra,
  };
}

function results(cases: CaseResult[]): ResultsFile {
  return {
    format: 'harness-bench.results',
    version: 1,
    startedAt: '',
    durationMs: 5,
    tool: { name: 'harness-bench', version: '0' },
    configs: [{ name: 'default', file: 'configs/default.json' }],
    cases,
    summary: summarise(cases),
  };
}

const widest = (text: string) => Math.max(...text.split('\n').map((line) => [...line].length));

describe('renderTable', () => {
  const data = results([
    caseResult('bad-json/a-rather-long-scenario-identifier-that-wraps', 'pass'),
    caseResult('loop/identical-call', 'fail', { firstFailure: 'modelCalls: expected 5, observed 6' }),
  ]);

  for (const width of [80, 100, 160, 200])
    it(`fits a ${width}-column terminal and keeps every case id and the failed check`, () => {
      const text = renderTable(data, { color: false, width });
      expect(widest(text.split('\n\n')[0]!)).toBeLessThanOrEqual(width);
      expect(text.replace(/[│\s]/g, '')).toContain('loop/identical-call');
      expect(text.replace(/[│\s]/g, '')).toContain('modelCalls:expected5,observed6');
      expect(text).toMatch(/1 FAILED, 0 ERRORED: 1 passed, 1 failed, 0 errored of 2/);
    });

  it('shows kind and verdict columns on a wide terminal only', () => {
    expect(renderTable(data, { color: false, width: 160 })).toMatch(/verdicts/);
    expect(renderTable(data, { color: false, width: 80 })).not.toMatch(/verdicts/);
  });

  it('colours only when asked', () => {
    expect(renderTable(data, { color: false, width: 160 })).not.toMatch(/\u001b\[/);
    expect(renderTable(data, { color: true, width: 160 })).toMatch(/\u001b\[31mFAIL/);
  });
});

describe('hardWrap', () => {
  it('breaks after / or - when it can, never drops characters', () => {
    expect(hardWrap('recording/groq-gptoss120b-tool-use-failed', 28)).toBe(
      'recording/groq-gptoss120b-\ntool-use-failed',
    );
    expect(hardWrap('abcdefghij', 4)).toBe('abcd\nefgh\nij');
    expect(hardWrap('short', 10)).toBe('short');
  });
});
