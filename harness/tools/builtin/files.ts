/**
 * The built-in file tools with their fixed names and arguments (`docs/architecture.md`
 * §5): `read_file {path, offset?, limit?}`, `list_dir {path}`, `write_file {path, content}`,
 * `str_replace {path, old_str, new_str}`. They touch files only through the sandbox, at the
 * paths the policy resolved (`context.resolvedPaths`), never at the path the model wrote, and
 * open them below the workspace without following any link (`sandbox/beneath.ts`): a folder
 * swapped for a link after the check (by a command of the same turn) fails with a structured
 * result instead of leading outside. Files with several hard links are refused for writes, and
 * for reads unless this run created them (a hard link inside the workspace to an outside file
 * cannot be told apart by its path). Content of a file this run did not create is marked
 * untrusted (`ToolOutput.untrusted`; the configuration's `taint.untrustedFiles` decides).
 */
import type { Sandbox } from '../../sandbox/types.ts';
import { describeSystemError } from '../../path-display.ts';
import type { ToolContext, ToolDefinition, ToolOutput } from '../types.ts';

/** Absolute paths the file tools created in each sandbox (a run or a chat), by sandbox. */
const created = new WeakMap<Sandbox, Set<string>>();

/** True when `file` (absolute) was created by `write_file` through `sandbox` in this run. */
export function createdInRun(sandbox: Sandbox, file: string): boolean {
  return created.get(sandbox)?.has(file) === true;
}

function markCreated(sandbox: Sandbox, file: string): void {
  let set = created.get(sandbox);
  if (!set) {
    set = new Set();
    created.set(sandbox, set);
  }
  set.add(file);
}

const access = (context: ToolContext, file: string) => ({
  root: context.workspace,
  allowHardLinks: createdInRun(context.sandbox, file),
});

/** Lines `read_file` returns when no `limit` is given. */
export const READ_DEFAULT_LIMIT = 2000;
/** Characters kept of one line; longer lines end with a marked elision. */
export const READ_MAX_LINE_CHARS = 2000;

function nodeError(error: unknown, shown: string): ToolOutput {
  const code = (error as { code?: string }).code;
  const message =
    code === 'ENOENT'
      ? `${shown}: no such file or directory`
      : code === 'EISDIR'
        ? `${shown} is a directory; use list_dir`
        : code === 'ENOTDIR'
          ? `${shown}: a component of the path is not a directory`
          : code === 'ELOOP'
            ? `${shown}: a symbolic link is in the path now (it changed since the path was checked); refused — links are not followed below the workspace`
            : `${shown}: ${describeSystemError(error)}`;
  return { ok: false, errorType: 'tool_failed', message };
}

const pathOnly = (access: 'read' | 'write') => (args: { path: string }) => [{ path: args.path, access }];

/** `read_file`: numbered lines (`   12\ttext`), from line `offset` (1-based), at most `limit` lines. */
export const readFileTool: ToolDefinition<{ path: string; offset?: number; limit?: number }> = {
  name: 'read_file',
  description:
    'Read a text file of the workspace. Returns numbered lines. Use offset (1-based line) and limit to page through long files.',
  parameters: {
    type: 'object',
    additionalProperties: false,
    required: ['path'],
    properties: {
      path: { type: 'string', minLength: 1, description: 'Path relative to the workspace root.' },
      offset: { type: 'integer', minimum: 1, description: 'First line to return (1-based).' },
      limit: { type: 'integer', minimum: 1, description: `Lines to return (default ${READ_DEFAULT_LIMIT}).` },
    },
  },
  effect: 'read',
  paths: pathOnly('read'),
  async execute(args, context: ToolContext) {
    let text: string;
    try {
      text = await context.sandbox.readFile(
        context.resolvedPaths[0]!,
        access(context, context.resolvedPaths[0]!),
      );
    } catch (error) {
      return nodeError(error, args.path);
    }
    const first = (args.offset ?? 1) - 1;
    const limit = args.limit ?? READ_DEFAULT_LIMIT;
    const { totalLines, shownLines, body } = numberedLines(text, first, limit);
    if (first >= totalLines)
      return {
        ok: false,
        errorType: 'tool_failed',
        message: `${args.path} has ${totalLines} lines; offset ${first + 1} is past the end`,
      };
    const rest = totalLines - (first + shownLines);
    const footer =
      rest > 0 ? `\n[${rest} more lines: call read_file with offset ${first + shownLines + 1}]` : '';
    const output: Extract<ToolOutput, { ok: true }> = {
      ok: true,
      content: body + footer,
      details: { lines: shownLines, totalLines },
    };
    if (!createdInRun(context.sandbox, context.resolvedPaths[0]!))
      output.untrusted = `read_file:${args.path}`;
    return output;
  },
};

/**
 * Lines `first`…`first + limit - 1` (0-based; `first` ≥ 0 and `limit` ≥ 1, integers) of `text`
 * as `read_file` shows them: `text.split('\n')` with a final empty line dropped, each shown line
 * numbered (1-based, padded to the widest number, a tab) and cut at {@link READ_MAX_LINE_CHARS}
 * characters. Lines are found with `indexOf` in one pass (which also finds where line `first`
 * starts) and only the shown ones are cut out of the text (a read is one step of every loop). `totalLines` is at least 1 (an empty text is one empty line).
 */
export function numberedLines(
  text: string,
  first: number,
  limit: number,
): { totalLines: number; shownLines: number; body: string } {
  // One pass over the line feeds counts the lines and notes where line `first` starts.
  let totalLines = 1;
  let start = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    if (totalLines === first) start = at + 1;
    totalLines += 1;
  }
  if (totalLines > 1 && text.endsWith('\n')) totalLines -= 1;
  const shownLines = Math.max(0, Math.min(limit, totalLines - first));
  const width = String(first + shownLines).length;
  let body = '';
  for (let i = 0; i < shownLines; i += 1) {
    const nl = text.indexOf('\n', start);
    const line = text.slice(start, nl === -1 ? text.length : nl);
    start = nl + 1;
    const shown =
      line.length > READ_MAX_LINE_CHARS
        ? `${line.slice(0, READ_MAX_LINE_CHARS)}… [line cut: ${line.length} chars]`
        : line;
    body += `${i === 0 ? '' : '\n'}${String(first + i + 1).padStart(width, ' ')}\t${shown}`;
  }
  return { totalLines, shownLines, body };
}

/** `list_dir`: one entry per line, directories with a trailing `/`, files with their size in bytes. */
export const listDirTool: ToolDefinition<{ path: string }> = {
  name: 'list_dir',
  description:
    'List a directory of the workspace: names, directories end with /, files show their size in bytes.',
  parameters: {
    type: 'object',
    additionalProperties: false,
    required: ['path'],
    properties: {
      path: {
        type: 'string',
        minLength: 1,
        description: 'Directory relative to the workspace root ("." for the root).',
      },
    },
  },
  effect: 'read',
  paths: pathOnly('read'),
  async execute(args, context) {
    try {
      const entries = await context.sandbox.list(context.resolvedPaths[0]!, { root: context.workspace });
      if (entries.length === 0) return { ok: true, content: `${args.path} is empty` };
      const lines = entries.map((e) =>
        e.kind === 'dir'
          ? `${e.name}/`
          : e.kind === 'symlink'
            ? `${e.name} -> (link)`
            : `${e.name}${e.size !== undefined ? `\t${e.size} bytes` : ''}`,
      );
      return { ok: true, content: lines.join('\n'), details: { entries: entries.length } };
    } catch (error) {
      return nodeError(error, args.path);
    }
  },
};

function lineCount(text: string): number {
  return text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** `write_file`: creates or replaces a file; returns what changed (bytes, lines), not the content. */
export const writeFileTool: ToolDefinition<{ path: string; content: string }> = {
  name: 'write_file',
  description:
    'Create or replace a file of the workspace with the given content. Parent directories are created.',
  parameters: {
    type: 'object',
    additionalProperties: false,
    required: ['path', 'content'],
    properties: {
      path: { type: 'string', minLength: 1, description: 'Path relative to the workspace root.' },
      content: { type: 'string', description: 'The whole new content of the file.' },
    },
  },
  effect: 'write',
  paths: pathOnly('write'),
  async execute(args, context) {
    const target = context.resolvedPaths[0]!;
    let before: string | undefined;
    try {
      before = await context.sandbox.readFile(target, access(context, target));
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ELOOP' || code === 'EMLINK' || code === 'EISDIR') return nodeError(error, args.path);
      before = undefined;
    }
    try {
      await context.sandbox.writeFile(target, args.content, { root: context.workspace });
    } catch (error) {
      return nodeError(error, args.path);
    }
    if (before === undefined) markCreated(context.sandbox, target);
    const bytes = Buffer.byteLength(args.content, 'utf8');
    const summary =
      before === undefined
        ? `created ${args.path}: ${bytes} bytes, ${lineCount(args.content)} lines`
        : `replaced ${args.path}: ${Buffer.byteLength(before, 'utf8')} → ${bytes} bytes, ${lineCount(before)} → ${lineCount(args.content)} lines`;
    return { ok: true, content: summary, details: { bytes, created: before === undefined } };
  },
};

/** `str_replace`: replaces exactly one occurrence of `old_str`; zero or several is an error that says how many. */
export const strReplaceTool: ToolDefinition<{ path: string; old_str: string; new_str: string }> = {
  name: 'str_replace',
  description:
    'Replace exactly one occurrence of old_str with new_str in a file. old_str must match exactly once, whitespace included.',
  parameters: {
    type: 'object',
    additionalProperties: false,
    required: ['path', 'old_str', 'new_str'],
    properties: {
      path: { type: 'string', minLength: 1 },
      old_str: {
        type: 'string',
        minLength: 1,
        description: 'Exact text to replace; must occur exactly once.',
      },
      new_str: { type: 'string', description: 'Replacement text.' },
    },
  },
  effect: 'write',
  paths: pathOnly('write'),
  async execute(args, context) {
    const target = context.resolvedPaths[0]!;
    let text: string;
    try {
      text = await context.sandbox.readFile(target, access(context, target));
    } catch (error) {
      return nodeError(error, args.path);
    }
    const count = text.split(args.old_str).length - 1;
    if (count !== 1)
      return {
        ok: false,
        errorType: 'tool_failed',
        message:
          count === 0
            ? `old_str occurs 0 times in ${args.path}; read the file and copy the exact text, whitespace included`
            : `old_str occurs ${count} times in ${args.path}; include more surrounding lines so it matches exactly once`,
        details: { occurrences: count },
      };
    const at = text.indexOf(args.old_str);
    const next = text.slice(0, at) + args.new_str + text.slice(at + args.old_str.length);
    try {
      await context.sandbox.writeFile(target, next, { root: context.workspace });
    } catch (error) {
      return nodeError(error, args.path);
    }
    const line = text.slice(0, at).split('\n').length;
    return {
      ok: true,
      content: `replaced 1 occurrence in ${args.path} at line ${line}: -${lineCount(args.old_str) || 1} +${lineCount(args.new_str)} lines, ${Buffer.byteLength(text)} → ${Buffer.byteLength(next)} bytes`,
    };
  },
};

/** Every built-in file tool, by name. */
export const FILE_TOOLS: Record<string, ToolDefinition> = {
  read_file: readFileTool as unknown as ToolDefinition,
  list_dir: listDirTool as unknown as ToolDefinition,
  write_file: writeFileTool as unknown as ToolDefinition,
  str_replace: strReplaceTool as unknown as ToolDefinition,
};
