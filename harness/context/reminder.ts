/**
 * The late reminder: a short user-role message appended to each request, after the history and
 * never stored in it, with the facts that change while the agent works: the time (injected
 * clock), the git branch, the todo list (with the `activeForm` of the item in progress) and the
 * files changed so far. Appending it last keeps the history a stable, cacheable prefix, and a
 * compaction cannot lose what is re-sent every turn. It is only sent when there is state to show
 * (todos, changed files or a branch), so a run without any sends exactly the history.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { HostFileSandbox } from '../sandbox/host-files.ts';
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
  return branchOfHead(head);
}

function branchOfHead(head: string): string | undefined {
  const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
  if (ref) return ref[1];
  return /^[0-9a-f]{7,64}$/i.test(head) ? `detached at ${head.slice(0, 7)}` : undefined;
}

/**
 * The workspace's branch for the reminder of every turn, read again only when `.git/HEAD`
 * changed. On a host file system one `stat` is the check (inode, size, change and modification
 * times: `git checkout` replaces the file, an edit changes its times), or one access(2) when the
 * workspace is not a checkout; the file is read through the sandbox only when that check says it
 * changed. Other sandboxes read it each time, as {@link gitBranch} does. It looks at every turn,
 * so a checkout by the run's own command or by someone else shows at the next turn.
 */
export class BranchWatch {
  private seen: string | undefined;
  private branch: string | undefined;
  private readonly head: string;

  constructor(
    private readonly sandbox: Sandbox,
    private readonly workspace: string,
  ) {
    this.head = path.join(workspace, '.git', 'HEAD');
  }

  /** The branch now, or undefined (not a git checkout, `.git` a worktree file, unreadable). */
  async current(): Promise<string | undefined> {
    if (!(this.sandbox instanceof HostFileSandbox))
      return (this.branch = await gitBranch(this.sandbox, this.workspace));
    let key: string | undefined;
    try {
      // A workspace that is not a checkout costs one access(2): no exception, no Stats object.
      const st = existsSync(this.head) ? statSync(this.head, { throwIfNoEntry: false }) : undefined;
      if (st) key = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    } catch {
      key = undefined;
    }
    if (key === undefined) {
      this.seen = undefined;
      this.branch = undefined;
      return undefined;
    }
    if (key !== this.seen) {
      this.seen = key;
      this.branch = await gitBranch(this.sandbox, this.workspace);
    }
    return this.branch;
  }
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
