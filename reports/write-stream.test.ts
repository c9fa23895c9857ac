/** The streamed results.json is resultsJson's text byte for byte, whatever the cases hold. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { summarise, type CaseResult, type ResultsFile } from '../eval/results.ts';
import { resultsJson, writeResultsJson } from './write.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'hb-write-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const caseOf = (id: string, observed: unknown, title?: string): CaseResult => ({
  id,
  kind: 'scenario',
  config: 'default',
  status: 'fail',
  firstFailure: 'x',
  stopReason: 'final_answer',
  file: `${id}.json`,
  ...(title !== undefined ? { title } : {}),
  tags: ['a'],
  checks: [{ name: 'x', pass: false, expected: 1, observed, reason: 'r' }],
  usage: {
    modelCalls: 1,
    turns: 1,
    toolCalls: 0,
    promptTokens: 1,
    completionTokens: 1,
    totalTokens: 2,
    costUsd: 0,
    durationMs: 3,
  },
  verdicts: { allow: 0, 'ask:approved': 0, 'ask:denied': 0, deny: 0, none: 0 },
  divergences: [],
});

const fileOf = (cases: CaseResult[], configName = 'default'): ResultsFile => ({
  format: 'harness-bench.results',
  version: 1,
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 5,
  tool: { name: 'harness-bench', version: '0' },
  configs: [{ name: configName, file: 'configs/default.json' }],
  cases,
  summary: summarise(cases),
});

describe('writeResultsJson', () => {
  it('writes exactly resultsJson(results), for any case content (property)', () => {
    let n = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string(), fc.jsonValue(), fc.option(fc.string(), { nil: undefined })), {
          maxLength: 5,
        }),
        fc.string(),
        (items, configName) => {
          const results = fileOf(
            items.map(([id, observed, title]) => caseOf(id, observed, title)),
            configName,
          );
          const file = path.join(dir, `r${(n += 1)}.json`);
          writeResultsJson(file, results);
          expect(readFileSync(file, 'utf8')).toBe(resultsJson(results));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('with no case, and with a configuration named like the cases key', () => {
    for (const results of [fileOf([]), fileOf([caseOf('a', '"cases": []')], '\n  "cases": []')]) {
      const file = path.join(dir, 'edge.json');
      writeResultsJson(file, results);
      expect(readFileSync(file, 'utf8')).toBe(resultsJson(results));
    }
  });
});
