/**
 * The todo list of a run (`write_todos {todos}`): the whole list is replaced on every write;
 * while anything is left to do exactly one item is `in_progress`, otherwise the write is an
 * error result and the list stays as it was (`docs/architecture.md` §8). The list is
 * re-injected into every request by the late reminder and pinned at compaction, so neither a
 * long session nor a summary can lose it (handed case D01, openai/codex#18720: "the task tracker
 * was abandoned after condensation"). Item shape as Claude Code's TodoWrite: `content`
 * (imperative), `activeForm` (present continuous, shown while the item runs), `status`.
 */

import type { Todo, TodoList, TodoStatus } from './types.ts';

export type { Todo } from './types.ts';

/**
 * Why a list cannot be accepted, or `undefined` when it can: more than one item in progress,
 * or items left to do with none in progress. An empty list and a list where every item is
 * completed need no item in progress. Pure.
 */
export function todoListProblem(todos: readonly Todo[]): string | undefined {
  const active = todos.filter((t) => t.status === 'in_progress');
  if (active.length > 1)
    return `${active.length} items are in_progress (${active.map((t) => JSON.stringify(t.content)).join(', ')}); exactly one may be in_progress at a time: keep the one you are working on and set the others to pending or completed`;
  const pending = todos.filter((t) => t.status === 'pending');
  if (active.length === 0 && pending.length > 0)
    return `${pending.length} items are pending but none is in_progress; mark exactly one item (the one you work on now) in_progress`;
  return undefined;
}

const MARK: Record<TodoStatus, string> = { pending: '[ ]', in_progress: '[>]', completed: '[x]' };

/**
 * The list as text, one line per item: `[x] done`, `[>] doing (now: Doing it)`, `[ ] to do`,
 * after a count line. Returns `(empty)` for an empty list.
 */
export function renderTodos(todos: readonly Todo[]): string {
  if (todos.length === 0) return '(empty)';
  const count = (status: TodoStatus) => todos.filter((t) => t.status === status).length;
  const head = `${count('completed')} completed, ${count('in_progress')} in progress, ${count('pending')} pending`;
  const lines = todos.map(
    (t) => `${MARK[t.status]} ${t.content}${t.status === 'in_progress' ? ` (now: ${t.activeForm})` : ''}`,
  );
  return [head, ...lines].join('\n');
}

/** The `activeForm` of the item in progress: what the agent is doing right now, for status lines. */
export function activeTodo(todos: readonly Todo[]): string | undefined {
  return todos.find((t) => t.status === 'in_progress')?.activeForm;
}

/**
 * Holds the current list. `replace` validates and swaps the whole list; listeners (the session
 * writer) hear every accepted list.
 */
export class TodoStore implements TodoList {
  private items: Todo[];
  private readonly listeners: ((todos: readonly Todo[]) => void)[] = [];

  constructor(initial: readonly Todo[] = []) {
    this.items = initial.map((t) => ({ ...t }));
  }

  /** The current list (a copy). */
  list(): Todo[] {
    return this.items.map((t) => ({ ...t }));
  }

  /**
   * Replaces the whole list; returns the problem instead when {@link todoListProblem} finds one (the list is
   * then unchanged).
   */
  replace(todos: readonly Todo[]): { ok: true } | { ok: false; problem: string } {
    const problem = todoListProblem(todos);
    if (problem) return { ok: false, problem };
    this.items = todos.map((t) => ({ content: t.content, activeForm: t.activeForm, status: t.status }));
    for (const listener of this.listeners) listener(this.list());
    return { ok: true };
  }

  /** Calls `listener` after every accepted replacement; returns a function that removes it. */
  onChange(listener: (todos: readonly Todo[]) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }
}
