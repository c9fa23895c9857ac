import { describe, expect, it } from 'vitest';
import { folderTable, type ReportMutant } from './mutation-scores.ts';

const mutants = (...statuses: [ReportMutant['status'], string?][]): { mutants: ReportMutant[] } => ({
  mutants: statuses.map(([status, mutatorName = 'ConditionalExpression']) => ({ status, mutatorName })),
});

describe('folderTable', () => {
  it('scores each folder on killed + timeout over the valid mutants, and apart without StringLiteral', () => {
    const table = folderTable({
      'harness/loop/run.ts': mutants(['Killed'], ['Survived'], ['Timeout'], ['NoCoverage'], ['Ignored']),
      'harness/loop/budgets.ts': mutants(['Survived', 'StringLiteral'], ['RuntimeError']),
      'harness/tools/dispatch.ts': mutants(['Killed'], ['Killed', 'StringLiteral']),
    });
    const rows = table.trim().split('\n');
    expect(rows[2]).toBe('| harness/loop | 40.0% | 50.0% | 1 | 2 | 1 | 1 | 1 | 1 |');
    expect(rows[3]).toBe('| harness/tools | 100.0% | 100.0% | 2 | 0 | 0 | 0 | 0 | 0 |');
    expect(rows[4]).toBe('| **all** | 57.1% | 60.0% | 3 | 2 | 1 | 1 | 1 | 1 |');
  });

  it('says n/a for a folder with no valid mutant', () => {
    expect(folderTable({ 'harness/subagent/spawn.ts': mutants(['Ignored']) })).toContain(
      '| harness/subagent | n/a | n/a | 0 | 0 | 0 | 0 | 1 | 0 |',
    );
  });
});
