import { describe, expect, it } from 'vitest';
import { activeTodo, renderTodos, todoListProblem, TodoStore, type Todo } from './todos.ts';

const t = (content: string, status: Todo['status']): Todo => ({
  content,
  activeForm: `${content}ing`,
  status,
});

describe('todo lists', () => {
  it('exactly one in progress while work is left; none needed when nothing is left', () => {
    expect(todoListProblem([t('a', 'completed'), t('b', 'in_progress'), t('c', 'pending')])).toBeUndefined();
    expect(todoListProblem([])).toBeUndefined();
    expect(todoListProblem([t('a', 'completed')])).toBeUndefined();
    expect(todoListProblem([t('a', 'in_progress'), t('b', 'in_progress')])).toMatch(
      /^2 items are in_progress \("a", "b"\)/,
    );
    expect(todoListProblem([t('a', 'pending')])).toMatch(/none is in_progress/);
  });

  it('the store replaces the whole list, refuses a bad one unchanged, and tells its listeners', () => {
    const store = new TodoStore([t('old', 'in_progress')]);
    const heard: number[] = [];
    store.onChange((list) => heard.push(list.length));
    expect(store.replace([t('a', 'in_progress'), t('b', 'in_progress')]).ok).toBe(false);
    expect(store.list()).toEqual([t('old', 'in_progress')]);
    expect(store.replace([t('x', 'completed'), t('y', 'in_progress')])).toEqual({ ok: true });
    expect(store.list().map((i) => i.content)).toEqual(['x', 'y']);
    expect(heard).toEqual([2]);
    expect(activeTodo(store.list())).toBe('ying');
  });

  it('renders counts and marks, with the active form of the item in progress', () => {
    expect(renderTodos([t('a', 'completed'), t('b', 'in_progress'), t('c', 'pending')])).toBe(
      '1 completed, 1 in progress, 1 pending\n[x] a\n[>] b (now: bing)\n[ ] c',
    );
    expect(renderTodos([])).toBe('(empty)');
  });
});
