/**
 * The memory layer's vocabulary, which the tools may see: a todo item, and what the memory
 * tools need from the run's todo list and skill catalog (`TodoStore` in `memory/todos.ts`,
 * `SkillCatalog` in `memory/skills.ts` implement these). It imports nothing.
 */

/** Status of one todo item. */
export type TodoStatus = 'pending' | 'in_progress' | 'completed';

/** One todo item. */
export interface Todo {
  /** What to do, imperative ("Run the tests"). */
  content: string;
  /** The same in the present continuous ("Running the tests"), shown while the item is in progress. */
  activeForm: string;
  status: TodoStatus;
}

/** What `write_todos` needs from the run's todo list. */
export interface TodoList {
  /** Replaces the whole list, or leaves it unchanged and says why it cannot be accepted. */
  replace(todos: readonly Todo[]): { ok: true } | { ok: false; problem: string };
}

/** What `read_skill` needs from the run's skill catalog. */
export interface SkillReader {
  /** The body of the named skill, or why it cannot be read (`unknown`: no skill has that name). */
  read(name: string): Promise<{ text: string } | { error: string; unknown: boolean }>;
}
