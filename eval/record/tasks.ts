/**
 * The tasks file of `record --tasks FILE` (JSON or YAML): a list whose items are a task text or
 * `{ id, task, title?, workspace? }`. Each task is recorded to `<out>/<id>.json`; a plain string
 * gets the id `task-<n>` (1-based). `workspace` is relative to the tasks file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { InputError, jsonSyntaxProblem, type InputProblem } from '../errors.ts';

/** One task to record. */
export interface RecordTask {
  /** File-name-safe id: the cassette is `<out>/<id>.json`. */
  id: string;
  task: string;
  title?: string;
  /** Absolute folder the task's tools work in (a copy of it); absent: the command's `--workspace`. */
  workspace?: string;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Reads and checks a tasks file.
 * @throws InputError listing every problem (unreadable, syntax with line and column, an item
 *   that is not a task, a bad or repeated id, an empty task).
 */
export function loadTasks(file: string, shown = file): RecordTask[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    throw new InputError([
      {
        file: shown,
        path: '',
        reason: `cannot read the tasks file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      },
    ]);
  }
  let value: unknown;
  if (file.endsWith('.json')) {
    try {
      value = JSON.parse(text);
    } catch {
      throw new InputError([jsonSyntaxProblem(text, shown)]);
    }
  } else {
    const doc = parseDocument(text);
    if (doc.errors.length > 0)
      throw new InputError(
        doc.errors.map((e) => ({
          file: shown,
          path: '',
          reason: `YAML syntax error${e.linePos?.[0] ? ` at line ${e.linePos[0].line}, column ${e.linePos[0].col}` : ''}: ${e.message.split('\n')[0]}`,
        })),
      );
    value = doc.toJS();
  }
  if (!Array.isArray(value) || value.length === 0)
    throw new InputError([{ file: shown, path: '', reason: 'expected a non-empty list of tasks' }]);
  const problems: InputProblem[] = [];
  const tasks: RecordTask[] = [];
  const seen = new Map<string, number>();
  for (const [i, item] of value.entries()) {
    const at = `/${i}`;
    const entry = typeof item === 'string' ? { id: `task-${i + 1}`, task: item } : item;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
      problems.push({
        file: shown,
        path: at,
        reason: 'a task is a string or an object { id, task, title?, workspace? }',
      });
      continue;
    }
    const { id, task, title, workspace, ...rest } = entry as Record<string, unknown>;
    for (const key of Object.keys(rest))
      problems.push({ file: shown, path: `${at}/${key}`, reason: 'unknown key' });
    if (typeof id !== 'string' || !ID.test(id))
      problems.push({
        file: shown,
        path: `${at}/id`,
        reason: 'an id of letters, digits, ".", "_" and "-" (it names the cassette file)',
      });
    else if (seen.has(id))
      problems.push({
        file: shown,
        path: `${at}/id`,
        reason: `duplicate id "${id}" (also item ${seen.get(id)})`,
      });
    else seen.set(id, i);
    if (typeof task !== 'string' || task.trim() === '')
      problems.push({ file: shown, path: `${at}/task`, reason: 'a non-empty task text' });
    if (title !== undefined && typeof title !== 'string')
      problems.push({ file: shown, path: `${at}/title`, reason: 'a string' });
    if (workspace !== undefined && typeof workspace !== 'string')
      problems.push({
        file: shown,
        path: `${at}/workspace`,
        reason: 'a folder path (relative to the tasks file)',
      });
    if (typeof id === 'string' && typeof task === 'string')
      tasks.push({
        id,
        task,
        ...(typeof title === 'string' ? { title } : {}),
        ...(typeof workspace === 'string' ? { workspace: path.resolve(path.dirname(file), workspace) } : {}),
      });
  }
  if (problems.length > 0) throw new InputError(problems);
  return tasks;
}
