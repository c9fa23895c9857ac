/**
 * The OpenAI Agents SDK (`@openai/agents-core` + `@openai/agents-openai` 0.20.0) as a harness under
 * test (`kind: "module"`, adapters/openai-agents.json): `run(agent, task, { maxTurns })`, the model
 * an `OpenAIChatCompletionsModel` (chat completions, not Responses) of an `OpenAIProvider` pointed
 * at the bench's endpoint, and the case's tools from the bench's MCP server as the SDK's own
 * `MCPServerStreamableHttp` (`"tools": "mcp"`). Tracing is disabled, so nothing leaves the machine.
 *
 * run(input) → { finalAnswer }. The SDK throws on some model faults (an unknown tool, more turns
 * than maxTurns); the throw is the harness's own behaviour and reaches the runner as the case's error.
 */
import { Agent, MCPServerStreamableHttp, run as runAgent, setTracingDisabled } from '@openai/agents-core';
import { OpenAIProvider } from '@openai/agents-openai';

setTracingDisabled(true);

/** @param {{ task: string, baseURL: string, apiKey: string, model: string, mcp: { url: string }, maxTurns: number, signal: AbortSignal }} input */
export async function run(input) {
  const provider = new OpenAIProvider({ baseURL: input.baseURL, apiKey: input.apiKey, useResponses: false });
  const server = new MCPServerStreamableHttp({ url: input.mcp.url, name: 'case-tools' });
  await server.connect();
  try {
    const agent = new Agent({
      name: 'bench-agent',
      instructions: 'You are a coding agent working in a workspace. Use the tools to do the task.',
      model: await provider.getModel(input.model),
      mcpServers: [server],
    });
    const result = await runAgent(agent, input.task, { maxTurns: input.maxTurns, signal: input.signal });
    return {
      finalAnswer:
        typeof result.finalOutput === 'string' ? result.finalOutput : JSON.stringify(result.finalOutput),
    };
  } finally {
    await server.close();
  }
}
