import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { RESULTS_SCHEMA } from '../eval/results-schema.ts';
import { summarise, type CaseResult, type ResultsFile } from '../eval/results.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
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
  } as CaseResult;
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

describe('skipped cases in every report', () => {
  const skip = {
    requires: ['bwrap'],
    reason: 'bubblewrap is not installed (no "bwrap" found)',
    fix: 'install bubblewrap (Debian/Ubuntu: apt-get install -y bubblewrap)',
    declared: true,
  };
  const data = results([
    caseResult('loop/identical-call', 'pass'),
    caseResult('escape/bash-links-sandbox', 'skipped', { stopReason: null, skip }),
    caseResult('escape/bash-traversal-sandbox', 'skipped', { stopReason: null, skip }),
  ]);

  it('are counted apart in the summary, never as passed', () => {
    expect(data.summary).toMatchObject({ total: 3, passed: 1, failed: 0, errored: 0, skipped: 2 });
    expect(data.summary.byKind.scenario).toMatchObject({ passed: 1, skipped: 2 });
    expect(data.summary.byConfig.default).toMatchObject({ passed: 1, skipped: 2 });
  });

  it('the table says skip, the summary line counts them, and the fix is printed once per reason', () => {
    const text = renderTable(data, { color: false, width: 160 });
    expect(text).toMatch(/│ skip +│/);
    expect(text).toContain('PASSED, 2 SKIPPED: 1 passed, 0 failed, 0 errored, 2 skipped of 3');
    expect(text.split('fix: install bubblewrap (Debian/Ubuntu: apt-get install -y bubblewrap)')).toHaveLength(
      2,
    );
    expect(text).toContain('escape/bash-links-sandbox, escape/bash-traversal-sandbox');
    const none = results([caseResult('escape/bash-links-sandbox', 'skipped', { skip })]);
    expect(renderTable(none, { color: false, width: 160 })).toMatch(/NOTHING RAN: 0 passed/);
  });

  it('markdown lists them with the fix; JUnit marks them <skipped/> with the reason and the fix', () => {
    const md = renderMarkdown(data);
    expect(md).toContain('1 passed, 0 failed, 0 errored, 2 skipped of 3 cases');
    expect(md).toContain('| default | 1 | 0 | 0 | 2 | 100.0% (1/1) |');
    expect(md).toContain('cases: `escape/bash-links-sandbox`, `escape/bash-traversal-sandbox`');
    expect(md).toContain('## Skipped: prerequisites missing on this machine');
    const xml = renderJunit(data);
    expect(xml).toContain('<testsuites name="harness-bench" tests="3" failures="0" errors="0" skipped="2">');
    expect(xml).toContain('tests="3" failures="0" errors="0" skipped="2">');
    expect(xml).toMatch(
      /name="escape\/bash-links-sandbox" time="[0-9.]+"><skipped message="bubblewrap is not installed \(no &quot;bwrap&quot; found\); fix: install bubblewrap/,
    );
  });

  it('the results schema accepts a skipped case and requires the skipped counts', () => {
    const validate = new Ajv({ strict: false }).compile(RESULTS_SCHEMA);
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    const { skipped: _, ...withoutCount } = data.summary;
    expect(validate({ ...data, summary: withoutCount })).toBe(false);
  });
});
