/**
 * Our own harness as a `module` adapter (`adapters/ours-served.json`): `runHarness` with the
 * OpenAI client (`harness/model/openai-model.ts`) against the bench's model endpoint, so our
 * harness can be benched the way any foreign one is. The equivalence test
 * (`run-adapter.test.ts`) holds it to the same pass/fail as the in-process run: what the
 * endpoint serves and what black-box scoring sees must mean what they mean in-process.
 *
 * The default configuration with the case's `config` block over it (`input.config`: the harness
 * reads our configuration's terms, which is why its adapter file declares every limit honoured
 * and opts in to our internals and conventions); the turn limit it is given; the case's scripted
 * human (`input.approver`); the real built-in tools of the names it is given (unknown names left
 * out, so a call to one is our `unknown_tool`) and, with `"tools": "mcp"`, the case's scripted
 * tools from the bench's MCP server (`input.mcp`, `eval/mcp/remote-tools.ts`); the sandbox of that
 * configuration.
 */
import { DEFAULT_CONFIG, mergeConfig, type HarnessConfig } from '../../harness/config.ts';
import { deterministicDeps, type HarnessDeps } from '../../harness/deps.ts';
import type { ToolDefinition } from '../../harness/tools/types.ts';
import { runHarness } from '../../harness/loop/run.ts';
import { OpenAIModel } from '../../harness/model/openai-model.ts';
import { BUILTIN_TOOLS, builtinTools } from '../../harness/tools/builtin/index.ts';
import { scriptedApprover } from '../scenario/approver.ts';
import { caseSandbox } from '../unavailable-sandbox.ts';
import { META_QUERY, SCRIPTED_META } from '../mcp/case-tools.ts';
import { connectRemoteTools } from '../mcp/remote-tools.ts';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { WORKSPACE_TOOLS } from './applies.ts';
import type { LaunchInput } from './launch.ts';

/** The module contract of `docs/adapters.md`: runs our harness once and returns its final answer. */
export async function run(
  input: LaunchInput & { signal: AbortSignal },
): Promise<{ finalAnswer?: string; stopReason?: string }> {
  const config = mergeConfig(mergeConfig(DEFAULT_CONFIG, input.config ?? {}), {
    limits: { maxTurns: input.maxTurns },
    model: { name: input.model },
  });
  const deps = deterministicDeps();
  deps.approver = scriptedApprover(input.approver, input.workspace);
  // Served: the scripted tools and the workspace tools run on the bench's tool server, our
  // built-ins' policy facts kept for the latter; any other built-in (our own features) runs here.
  const isScripted = (tool: Tool) => tool._meta?.[SCRIPTED_META] === true;
  const remote = input.mcp
    ? await connectRemoteTools(
        `${input.mcp.url}?${META_QUERY}`,
        (tool) => isScripted(tool) || WORKSPACE_TOOLS.includes(tool.name),
        (tool) => (isScripted(tool) ? undefined : BUILTIN_TOOLS[tool.name]),
      )
    : undefined;
  const served = new Set(remote?.tools.map((t) => t.name));
  const names = input.tools
    .map((t) => t.name)
    .filter((name) => Object.hasOwn(BUILTIN_TOOLS, name) && !served.has(name));
  try {
    const byName = new Map([...builtinTools(names), ...(remote?.tools ?? [])].map((t) => [t.name, t]));
    // In the order the case lists them, as in-process.
    const tools = input.tools.map((t) => byName.get(t.name)).filter((t) => t !== undefined);
    return await runOnce(input, config, deps, tools);
  } finally {
    await remote?.close();
  }
}

async function runOnce(
  input: LaunchInput & { signal: AbortSignal },
  config: HarnessConfig,
  deps: HarnessDeps,
  tools: ToolDefinition[],
): Promise<{ finalAnswer?: string; stopReason?: string }> {
  const result = await runHarness({
    task: input.task,
    config,
    model: new OpenAIModel({ baseURL: input.baseURL, apiKey: input.apiKey, deps }),
    tools,
    sandbox: caseSandbox(config, input.workspace, false),
    workspace: input.workspace,
    deps,
    signal: input.signal,
  });
  // Its own stop reason, reported as any harness may (the contract's `stopReason`).
  return {
    ...(result.finalAnswer === null ? {} : { finalAnswer: result.finalAnswer }),
    stopReason: result.stopReason,
  };
}
