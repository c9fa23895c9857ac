/**
 * The path rule of the reference workspace tools served over MCP (`case-tools.ts`): every file a
 * call names must resolve (links followed, `harness/policy/paths.ts`) inside the workspace. This is
 * the tools' own confinement, not a permission policy: the harness under test decides what to
 * call; a call outside is answered with an error and logged as attempted.
 */
import { resolvePath } from '../../harness/policy/paths.ts';
import type { ToolDefinition } from '../../harness/tools/types.ts';

/** The resolved absolute paths of a call (in `tool.paths` order), or why one is outside. */
export type ConfinedPaths = { ok: true; resolved: string[] } | { ok: false; message: string };

/**
 * Resolves the paths `tool` declares for `args` against `workspace` (a real path). A tool without
 * `paths` has none. Never throws.
 */
export async function confinedPaths(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  workspace: string,
): Promise<ConfinedPaths> {
  const accesses = tool.paths?.(args) ?? [];
  const resolved: string[] = [];
  for (const access of accesses) {
    const where = await resolvePath(workspace, access.path);
    if (!where.inside || where.error !== undefined)
      return {
        ok: false,
        message: `${access.path} is outside the workspace${where.error ? ` (${where.error})` : ''}; this tool reads and writes only inside it`,
      };
    resolved.push(where.absolute);
  }
  return { ok: true, resolved };
}
