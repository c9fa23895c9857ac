/**
 * A custom scorer (docs/scenario-format.md, "Custom scorers"): no file the run wrote still holds
 * a TODO marker. It reads the workspace while it still exists and names each offending file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Check, ScorerInput } from '../../../eval/testing.ts';

/** One check: every file the run added or modified is free of `TODO`. */
export default function noTodoLeft(input: ScorerInput): Check {
  const touched = (input.workspaceChanges ?? [])
    .filter((line) => line.startsWith('added ') || line.startsWith('modified '))
    .map((line) => line.slice(line.indexOf(' ') + 1));
  const offending = touched.filter((file) => {
    try {
      return readFileSync(path.join(input.workspace, file), 'utf8').includes('TODO');
    } catch {
      return false;
    }
  });
  return {
    name: 'no-todo-left',
    pass: offending.length === 0,
    expected: 'no TODO in the files the run wrote',
    observed: offending,
    reason:
      offending.length === 0
        ? `${touched.length} files written, none holds a TODO`
        : `TODO left in ${offending.join(', ')}`,
  };
}
