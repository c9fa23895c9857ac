/**
 * The run's memory for the tools and the first messages: the todo list (restored from a resumed
 * session and recorded into it), the skill catalog (discovered when `read_skill` may be used),
 * and the messages a run starts from when memory decides them (a resumed session's history, or
 * the skills' block in the system prompt).
 */
import type { HarnessConfig } from '../config.ts';
import { discoverSkills, SkillCatalog } from '../memory/skills.ts';
import { TodoStore } from '../memory/todos.ts';
import type { ChatMessage } from '../model/types.ts';
import type { RunOptions } from '../run-types.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { RunSession } from './run-session.ts';

/** The run's todos and skills, and the first messages when memory decides them. */
export interface RunMemory {
  todos: TodoStore;
  skills: SkillCatalog;
  /** A resumed session's history and the task, or a system prompt with the skills' block. */
  initialMessages?: ChatMessage[];
  /** Stops recording todo changes into the session. */
  unsubscribe: () => void;
}

/** Binds the run's todos (recorded into the session's writer) and skills, and decides the first messages. */
export async function openMemory(
  options: RunOptions,
  config: HarnessConfig,
  registry: ToolRegistry,
  session: RunSession,
): Promise<RunMemory> {
  const memory = options.memory ?? {};
  const { loaded, writer } = session;
  const todos = memory.todos ?? new TodoStore(loaded?.todos ?? []);
  const unsubscribe = writer ? todos.onChange((list) => void writer.todos(list)) : () => undefined;
  const mayReadSkills =
    registry.get('read_skill') !== undefined &&
    (options.allowedTools ?? registry.names()).includes('read_skill');
  const skills =
    memory.skills ??
    (mayReadSkills
      ? await discoverSkills({
          workspace: options.workspace,
          ...(memory.userHome ? { userHome: memory.userHome } : {}),
        })
      : new SkillCatalog());

  let initialMessages: ChatMessage[] | undefined;
  if (loaded)
    initialMessages = [
      ...loaded.messages,
      ...(options.task ? [{ role: 'user' as const, content: options.task }] : []),
    ];
  else if (
    !(options.initialMessages && options.initialMessages.length > 0) &&
    mayReadSkills &&
    skills.skills.length > 0
  ) {
    const prompt = [config.systemPrompt, skills.promptBlock()].filter(Boolean).join('\n\n');
    initialMessages = [
      { role: 'system', content: prompt },
      { role: 'user', content: options.task },
    ];
  }
  return { todos, skills, unsubscribe, ...(initialMessages ? { initialMessages } : {}) };
}
