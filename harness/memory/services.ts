/**
 * What the run offers the memory tools (`read_skill`, `write_todos`, `task`) through
 * `ToolContext.services`: the run's todo list, its skill catalog and the subagent spawner. A
 * tool used outside a harness run gets no services and answers with a `tool_failed` result.
 */
import type { ToolOutput } from '../tools/types.ts';
import type { SkillCatalog } from './skills.ts';
import type { TodoStore } from './todos.ts';

/** Services of one run (one scope: a subagent has its own). */
export interface RunServices {
  todos: TodoStore;
  skills: SkillCatalog;
  /**
   * Runs a subagent for a `task` call and resolves with the tool output (the report, or a
   * structured error such as `subagent_depth_exceeded`). Never rejects.
   */
  spawnSubagent(description: string, call: { callId: string; signal: AbortSignal }): Promise<ToolOutput>;
}
