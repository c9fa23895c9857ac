/**
 * `search_code {pattern, path?, glob?}`: matching lines as `file:line: text`, capped; matches, not
 * files. Pure TypeScript over the sandbox's `list` and `readFile`, so it works where no command
 * sandbox does. Links are not followed (they may lead outside the workspace; files are opened below
 * the workspace without following any link, `sandbox/beneath.ts`), `.git` and `node_modules` are
 * skipped, binary, very large and hard-linked files and credentials (the built-in sensitive paths
 * of access `any`: read them with `read_file`, which asks) are skipped and counted.
 */
import path from 'node:path';
import picomatch from 'picomatch';
import { DEFAULT_SENSITIVE_PATHS, sensitiveMatch } from '../../policy/sensitive-paths.ts';
import { describeSystemError } from '../../path-display.ts';
import type { ToolContext, ToolDefinition, ToolOutput } from '../types.ts';

/** Matching lines returned at most. */
export const SEARCH_MAX_MATCHES = 100;
/** Files read at most per search. */
export const SEARCH_MAX_FILES = 10_000;
/** Files larger than this many bytes are skipped. */
export const SEARCH_MAX_FILE_BYTES = 1024 * 1024;
/** Characters of a matching line shown. */
export const SEARCH_MAX_LINE_CHARS = 300;
/** Characters of a line tested against the pattern (bounds the cost of a pathological pattern). */
const TEST_MAX_LINE_CHARS = 10_000;
/** Folders never entered. */
export const SEARCH_SKIPPED_DIRS = new Set(['.git', 'node_modules']);

interface Walk {
  files: string[];
  truncated: boolean;
}

async function walk(
  context: ToolContext,
  root: string,
  accept: (relative: string) => boolean,
): Promise<Walk> {
  const files: string[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    const entries = await context.sandbox.list(dir, { root: context.workspace });
    const subdirs: string[] = [];
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.kind === 'dir') {
        if (!SEARCH_SKIPPED_DIRS.has(entry.name)) subdirs.push(full);
      } else if (
        entry.kind === 'file' &&
        (entry.size ?? 0) <= SEARCH_MAX_FILE_BYTES &&
        accept(path.relative(root, full).split(path.sep).join('/'))
      ) {
        files.push(full);
        if (files.length >= SEARCH_MAX_FILES) return { files, truncated: true };
      }
    }
    for (const sub of subdirs.reverse()) stack.push(sub);
  }
  return { files, truncated: false };
}

/** `search_code`: see the file comment. */
export const searchCodeTool: ToolDefinition<{ pattern: string; path?: string; glob?: string }> = {
  name: 'search_code',
  description: `Search file contents of the workspace with a regular expression (JavaScript syntax, case-sensitive). Returns matching lines as file:line: text, at most ${SEARCH_MAX_MATCHES}. Narrow with path (a folder or file) and glob (e.g. "*.ts" or "src/**/*.py").`,
  parameters: {
    type: 'object',
    additionalProperties: false,
    required: ['pattern'],
    properties: {
      pattern: {
        type: 'string',
        minLength: 1,
        description: 'Regular expression; escape ( ) [ ] . * + ? { } | \\ ^ $ to match them literally.',
      },
      path: {
        type: 'string',
        minLength: 1,
        description: 'Folder or file to search, relative to the workspace root (default ".").',
      },
      glob: {
        type: 'string',
        minLength: 1,
        description:
          'Only files whose path (relative to path) matches; a glob without "/" matches the file name.',
      },
    },
  },
  effect: 'read',
  paths: (args) => [{ path: args.path ?? '.', access: 'read' }],
  async execute(args, context): Promise<ToolOutput> {
    let regex: RegExp;
    try {
      regex = new RegExp(args.pattern, 'u');
    } catch (error) {
      try {
        regex = new RegExp(args.pattern);
      } catch {
        return {
          ok: false,
          errorType: 'invalid_arguments',
          message: `pattern is not a valid regular expression: ${(error as Error).message}; escape special characters to search for them literally`,
        };
      }
    }
    const matchGlob = args.glob
      ? picomatch(args.glob, { dot: true, basename: !args.glob.includes('/') })
      : () => true;
    const root = context.resolvedPaths[0]!;
    const shownRoot = args.path ?? '.';
    let files: string[];
    let truncated = false;
    try {
      const entries = await context.sandbox
        .list(root, { root: context.workspace })
        .catch(async (error: { code?: string }) => {
          if (error.code === 'ENOTDIR') return undefined;
          throw error;
        });
      if (entries === undefined) files = [root];
      else ({ files, truncated } = await walk(context, root, matchGlob));
    } catch (error) {
      const code = (error as { code?: string }).code;
      return {
        ok: false,
        errorType: 'tool_failed',
        message:
          code === 'ENOENT'
            ? `${shownRoot}: no such file or directory`
            : `${shownRoot}: ${describeSystemError(error)}`,
      };
    }
    const lines: string[] = [];
    let total = 0;
    let binary = 0;
    let sensitive = 0;
    let refused = 0;
    for (const file of files) {
      const relative = path.relative(context.workspace, file).split(path.sep).join('/');
      // Credentials need the approval a direct read_file of them needs: never read them in passing.
      if (sensitiveMatch(relative, 'read', DEFAULT_SENSITIVE_PATHS)) {
        sensitive += 1;
        continue;
      }
      let text: string;
      try {
        text = await context.sandbox.readFile(file, { root: context.workspace });
      } catch (error) {
        // A hard-linked file or a link that appeared since the walk: not read.
        if (['EMLINK', 'ELOOP'].includes((error as { code?: string }).code ?? '')) refused += 1;
        continue;
      }
      if (text.includes('\u0000')) {
        binary += 1;
        continue;
      }
      const shown = path.relative(context.workspace, file).split(path.sep).join('/') || path.basename(file);
      const fileLines = text.split('\n');
      for (let i = 0; i < fileLines.length; i += 1) {
        const line = fileLines[i]!;
        if (!regex.test(line.length > TEST_MAX_LINE_CHARS ? line.slice(0, TEST_MAX_LINE_CHARS) : line))
          continue;
        total += 1;
        if (lines.length < SEARCH_MAX_MATCHES) {
          const cut =
            line.length > SEARCH_MAX_LINE_CHARS
              ? `${line.slice(0, SEARCH_MAX_LINE_CHARS)}… [line cut: ${line.length} chars]`
              : line;
          lines.push(`${shown}:${i + 1}: ${cut}`);
        }
      }
    }
    const notes: string[] = [];
    if (total > lines.length)
      notes.push(`[${total - lines.length} more matches not shown; narrow the pattern, path or glob]`);
    if (truncated) notes.push(`[stopped after ${SEARCH_MAX_FILES} files; narrow path or glob]`);
    if (binary > 0) notes.push(`[${binary} binary files skipped]`);
    if (sensitive > 0)
      notes.push(
        `[${sensitive} sensitive files (credentials) skipped; read one with read_file, which asks for approval]`,
      );
    if (refused > 0) notes.push(`[${refused} hard-linked or linked files skipped]`);
    const details = { matches: total, files: files.length };
    // The lines come from workspace files this run may not have written (taint.untrustedFiles).
    const untrusted = total > 0 ? { untrusted: `search_code:${shownRoot}` } : {};
    if (total === 0)
      return {
        ok: true,
        content: [
          `no matches for /${args.pattern}/ in ${shownRoot}${args.glob ? ` (glob ${args.glob})` : ''}; ${files.length} files searched`,
          ...notes,
        ].join('\n'),
        details,
      };
    return { ok: true, content: [...lines, ...notes].join('\n'), details, ...untrusted };
  },
};
