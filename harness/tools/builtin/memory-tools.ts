/**
 * The memory tools with their fixed names and arguments (`docs/architecture.md` §5,
 * §8): `read_skill {name}` (read), `write_todos {todos}` (write), `task {description}` (read:
 * its child may only use read tools, `subagent/spawn.ts`). They act through the run's services
 * (`ToolContext.services`: the skill catalog, the todo list, the subagent spawner); outside a
 * harness run they answer with a `tool_failed` result.
 */
import { SKILL_NAME_PATTERN } from '../../memory/skills.ts';
import { renderTodos, type Todo } from '../../memory/todos.ts';
import type { ToolContext, ToolDefinition, ToolOutput } from '../types.ts';

export { SKILL_NAME_PATTERN };

const noServices = (tool: string): ToolOutput => ({
  ok: false,
  errorType: 'tool_failed',
  message: `${tool} is only available inside a harness run`,
});

/**
 * `read_skill`: the instructions (body of `SKILL.md`, front matter removed) of a skill listed in
 * the system prompt. The name is looked up in the run's catalog, never used as a path, so a user
 * skill outside the workspace can be read and nothing else can.
 */
export const readSkillTool: ToolDefinition<{ name: string }> = {
  name: 'read_skill',
  description:
    'Read the instructions of a skill listed in the system prompt, by name. Read a skill before you follow it.',
  parameters: {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: {
      name: {
        type: 'string',
        minLength: 1,
        maxLength: 100,
        pattern: SKILL_NAME_PATTERN,
        description: 'The skill name as listed.',
      },
    },
  },
  effect: 'read',
  async execute(args, context: ToolContext): Promise<ToolOutput> {
    if (!context.services) return noServices('read_skill');
    const read = await context.services.skills.read(args.name);
    if ('error' in read)
      return {
        ok: false,
        errorType: read.unknown ? 'invalid_arguments' : 'tool_failed',
        message: read.error,
      };
    return { ok: true, content: read.text, details: { skill: args.name } };
  },
};

/**
 * `write_todos`: replaces the whole todo list. While anything is left to do exactly one item
 * must be `in_progress`; otherwise the result is `invalid_arguments` and the list is unchanged.
 */
export const writeTodosTool: ToolDefinition<{ todos: Todo[] }> = {
  name: 'write_todos',
  description:
    'Replace the whole todo list (send every item each time). Keep exactly one item in_progress while work is left; mark items completed as soon as they are done. The list is shown back to you every turn.',
  parameters: {
    type: 'object',
    additionalProperties: false,
    required: ['todos'],
    properties: {
      todos: {
        type: 'array',
        maxItems: 100,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['content', 'activeForm', 'status'],
          properties: {
            content: {
              type: 'string',
              minLength: 1,
              maxLength: 500,
              description: 'What to do, imperative ("Run the tests").',
            },
            activeForm: {
              type: 'string',
              minLength: 1,
              maxLength: 500,
              description: 'The same in the present continuous ("Running the tests"), shown while it runs.',
            },
            status: { enum: ['pending', 'in_progress', 'completed'] },
          },
        },
      },
    },
  },
  effect: 'write',
  harnessState: true,
  async execute(args, context): Promise<ToolOutput> {
    if (!context.services) return noServices('write_todos');
    const replaced = context.services.todos.replace(args.todos);
    if (!replaced.ok)
      return {
        ok: false,
        errorType: 'invalid_arguments',
        message: `todo list not changed: ${replaced.problem}`,
      };
    return {
      ok: true,
      content: `todo list replaced: ${renderTodos(args.todos)}`,
      details: { todos: args.todos.length },
    };
  },
};

/**
 * `task`: hands a self-contained piece of research to a subagent with a fresh history and
 * read-only tools, and returns its report (or, when it stopped at a limit, a partial report the
 * harness built from what it found).
 */
export const taskTool: ToolDefinition<{ description: string }> = {
  name: 'task',
  description:
    'Delegate a self-contained piece of research to a subagent with a fresh context and read-only tools; it returns one report. Say exactly what to find and give the context it needs: it does not see this conversation.',
  parameters: {
    type: 'object',
    additionalProperties: false,
    required: ['description'],
    properties: {
      description: {
        type: 'string',
        minLength: 1,
        description: 'What the subagent should find out, with the context it needs.',
      },
    },
  },
  effect: 'read',
  runsAlone: true,
  async execute(args, context): Promise<ToolOutput> {
    if (!context.services) return noServices('task');
    return context.services.spawnSubagent(args.description, {
      callId: context.callId,
      signal: context.signal,
    });
  },
};
