/**
 * The late reminder: a short user-role message appended to each request, after the history and
 * never stored in it, with the facts that change while the agent works: the time (injected
 * clock), the git branch, the todo list (with the `activeForm` of the item in progress) and the
 * files changed so far. Appending it last keeps the history a stable, cacheable prefix, and a
 * compaction cannot lose what is re-sent every turn. It is only sent when there is state to show
 * (todos, changed files or a branch), so a run without any sends exactly the history.
 */
import path from 'node:path';
import type { Sandbox } from '../sandbox/types.ts';
import type { UserMessage } from '../model/types.ts';
import { renderTodos, type Todo } from '../memory/todos.ts';

/** First characters of the reminder. */
export const REMINDER_PREFIX = '[harness reminder]';

/**
 * The current branch from `<workspace>/.git/HEAD` (`ref: refs/heads/<branch>`), or `detached at
 * <sha7>`; undefined when the workspace is not a git checkout (or `.git` is a worktree file).
 */
export async function gitBranch(sandbox: Sandbox, workspace: string): Promise<string | undefined> {
  let head: string;
  try {
    head = (await sandbox.readFile(path.join(workspace, '.git', 'HEAD'))).trim();
  } catch {
    return undefined;
  }
  const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
  if (ref) return ref[1];
  return /^[0-9a-f]{7,64}$/i.test(head) ? `detached at ${head.slice(0, 7)}` : undefined;
}

/** The state a reminder shows. `nowMs`: ms since the epoch. */
export interface ReminderState {
  nowMs: number;
  branch?: string;
  todos: readonly Todo[];
  changedFiles: readonly string[];
}

/** The reminder message, or undefined when there are no todos, changed files or branch to show. */
export function buildReminder(state: ReminderState): UserMessage | undefined {
  if (state.todos.length === 0 && state.changedFiles.length === 0 && state.branch === undefined)
    return undefined;
  const lines = [
    `${REMINDER_PREFIX} Context from the harness, not a message from the user.`,
    `Time: ${new Date(state.nowMs).toISOString()}`,
    ...(state.branch !== undefined ? [`Git branch: ${state.branch}`] : []),
    ...(state.todos.length > 0
      ? [`Todo list (keep it current with write_todos): ${renderTodos(state.todos)}`]
      : []),
    ...(state.changedFiles.length > 0
      ? [
          `Files changed in this session: ${state.changedFiles.slice(-30).join(', ')}${state.changedFiles.length > 30 ? ` (and ${state.changedFiles.length - 30} more)` : ''}`,
        ]
      : []),
  ];
  return { role: 'user', content: lines.join('\n') };
}
