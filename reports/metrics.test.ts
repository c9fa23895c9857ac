import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { RESULTS_SCHEMA } from '../eval/results-schema.ts';
import { summarise, type CaseResult, type ResultsFile } from '../eval/results.ts';
import { renderMarkdown } from './markdown.ts';
import { metricRows, offDiagonal } from './metrics-text.ts';
import { renderTable } from './table.ts';

const usage = {
  modelCalls: 1,
  turns: 1,
  toolCalls: 1,
  promptTokens: 1,
  completionTokens: 1,
  totalTokens: 2,
  costUsd: 0,
  durationMs: 1,
};
const verdicts = { allow: 1, 'ask:approved': 0, 'ask:denied': 0, deny: 0, none: 0 };
const check = (name: string, expected: string, observed: string) => ({
  name,
  pass: expected === observed,
  expected,
  observed,
  reason: `expected ${expected}, observed ${observed}`,
});

function kase(id: string, config: string, over: Partial<CaseResult> = {}): CaseResult {
  return {
    id,
    kind: 'scenario',
    config,
    status: 'pass',
    stopReason: 'final_answer',
    file: `${id}.yaml`,
    tags: [],
    checks: [check('stopReason', 'final_answer', 'final_answer')],
    usage,
    verdicts,
    divergences: [],
    metrics: { unsupportedClaims: 0, claims: [] },
    ...over,
  } as CaseResult;
}

const cases: CaseResult[] = [
  kase('permissions/write', 'default', { checks: [check('permissions.c1', 'ask:approved', 'ask:approved')] }),
  kase('permissions/write', 'strict', {
    status: 'fail',
    firstFailure: 'permissions.c1: expected ask:approved, observed allow',
    checks: [check('stopReason', 'final_answer', 'max_turns'), check('permissions.c1', 'deny', 'allow')],
    metrics: {
      unsupportedClaims: 1,
      claims: [{ kind: 'tests', text: 'All tests pass.', supported: false, reason: 'no test command ran' }],
      budget: { budget: 'tokens', limit: 1000, used: 1200, overshoot: 200 },
    },
  }),
];
const results: ResultsFile = {
  format: 'harness-bench.results',
  version: 1,
  startedAt: '',
  durationMs: 1,
  tool: { name: 'harness-bench', version: '0' },
  configs: [
    { name: 'default', file: 'configs/default.json' },
    { name: 'strict', file: 'configs/strict.json' },
  ],
  cases,
  summary: summarise(cases),
};

describe('metrics in every output', () => {
  it('results.json: one block per configuration, valid against the schema', () => {
    expect(Object.keys(results.summary.metrics)).toEqual(['default', 'strict']);
    expect(results.summary.metrics.strict!.permissions).toMatchObject({ falseAllows: 1, calls: 1 });
    const validate = new Ajv({ strict: false }).compile(RESULTS_SCHEMA);
    expect(validate(JSON.parse(JSON.stringify(results))), JSON.stringify(validate.errors)).toBe(true);
  });

  it('the terminal summary lists each configuration’s metrics', () => {
    const text = renderTable(results, { color: false, width: 160 });
    expect(text).toContain('metrics (strict)');
    expect(text).toMatch(/pass rate +0\.0% \(0\/1\)/);
    expect(text).toMatch(/stop reasons as expected +0\/1; final_answer → max_turns ×1/);
    expect(text).toMatch(/permissions \(per call\) +1 checked: 1 false allows \(security\), 0 needless asks/);
    expect(text).toMatch(/budget overshoot at the stop +tokens 1× max \+200 \(20%\)/);
    expect(text).toMatch(/unsupported completion claims +1 of 1 in 1 cases \(tests 1\)/);
  });

  it('report.md puts the configurations side by side, then the confusion cells', () => {
    const md = renderMarkdown(results);
    expect(md).toContain('## Metrics');
    expect(md).toContain('| metric | default | strict |');
    expect(md).toContain('| pass rate | 100.0% (1/1) | 0.0% (0/1) |');
    expect(md).toContain('### Confusion (strict): expected → actual');
    expect(md).toContain('- permission verdicts: deny → allow ×1');
  });

  it('offDiagonal lists mismatches most frequent first; metricRows names every metric', () => {
    expect(offDiagonal({ a: { a: 3, b: 1 }, c: { d: 2 } })).toEqual(['c → d ×2', 'a → b ×1']);
    expect(metricRows(results.summary.metrics.default!).map(([label]) => label)).toEqual([
      'pass rate',
      'stop reasons as expected',
      'permissions (per call)',
      'loop detector latency',
      'loop false positives',
      'context management',
      'budget overshoot at the stop',
      'unsupported completion claims',
    ]);
  });
});
