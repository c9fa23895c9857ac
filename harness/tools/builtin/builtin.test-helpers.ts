/**
 * Test helper: runs a built-in tool's `execute` the way the dispatcher would, with its paths
 * resolved by the path policy's resolver, on a given sandbox.
 */
import { deterministicDeps } from '../../deps.ts';
import { resolvePath } from '../../policy/paths.ts';
import { LocalSandbox } from '../../sandbox/local.ts';
import type { Sandbox } from '../../sandbox/types.ts';
import type { ToolDefinition, ToolOutput } from '../types.ts';

/** Runs `tool` with `args` in workspace `ws`; `sandbox` defaults to a LocalSandbox that cannot exec. */
export async function runTool(
  tool: ToolDefinition<never> | ToolDefinition,
  args: Record<string, unknown>,
  ws: string,
  extra: { sandbox?: Sandbox; notesPath?: string; signal?: AbortSignal } = {},
): Promise<ToolOutput> {
  const definition = tool as unknown as ToolDefinition;
  const resolved = await Promise.all((definition.paths?.(args) ?? []).map((p) => resolvePath(ws, p.path)));
  return definition.execute(args, {
    callId: 'call_1',
    sandbox: extra.sandbox ?? new LocalSandbox({ allowExec: false }),
    deps: deterministicDeps(),
    signal: extra.signal ?? new AbortController().signal,
    workspace: ws,
    resolvedPaths: resolved.map((r) => r.absolute),
    ...(extra.notesPath ? { notesPath: extra.notesPath } : {}),
  });
}

/** The model-visible text of an output, errors as `ERROR type: message`. */
export const outputText = (output: ToolOutput) =>
  output.ok ? output.content : `ERROR ${output.errorType}: ${output.message}`;
