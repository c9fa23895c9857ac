/**
 * The built-in tools by their fixed names. `builtinTools(names)` picks the enabled ones.
 */
import { HarnessBenchError } from '../../errors.ts';
import type { ToolDefinition } from '../types.ts';
import { bashTool } from './bash.ts';
import { FILE_TOOLS } from './files.ts';
import { readSkillTool, taskTool, writeTodosTool } from './memory-tools.ts';
import { saveNoteTool, searchNotesTool } from './notes.ts';
import { searchCodeTool } from './search-code.ts';

const asTool = (tool: unknown) => tool as ToolDefinition;

/** Every built-in tool available in this version, by name (`docs/architecture.md` §5). */
export const BUILTIN_TOOLS: Readonly<Record<string, ToolDefinition>> = {
  ...FILE_TOOLS,
  search_code: asTool(searchCodeTool),
  bash: asTool(bashTool),
  read_skill: asTool(readSkillTool),
  write_todos: asTool(writeTodosTool),
  task: asTool(taskTool),
  save_note: asTool(saveNoteTool),
  search_notes: asTool(searchNotesTool),
};

/** Raised for a tool name that is not built in: a configuration error (`UNKNOWN_TOOL`, `user_input`). */
export class UnknownBuiltinToolError extends HarnessBenchError {
  override readonly name = 'UnknownBuiltinToolError';
  constructor(readonly toolName: string) {
    const known = Object.keys(BUILTIN_TOOLS).join(', ');
    super('UNKNOWN_TOOL', 'user_input', `no built-in tool named "${toolName}"; built-in tools: ${known}`, {
      tool: toolName,
    });
  }
}

/**
 * The built-in tools with these names, in the given order.
 * @throws UnknownBuiltinToolError for a name that is not built in.
 */
export function builtinTools(names: readonly string[]): ToolDefinition[] {
  return names.map((name) => {
    const tool = BUILTIN_TOOLS[name];
    if (!tool) throw new UnknownBuiltinToolError(name);
    return tool;
  });
}
