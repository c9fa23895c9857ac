/**
 * The OpenAI Agents SDK (`@openai/agents-core` + `@openai/agents-openai` 0.20.0) as a harness under
 * test (`kind: "module"`, adapters/openai-agents.json): `run(agent, task, { maxTurns })` with one
 * function tool per scenario tool (`strict: false`, the scenario's JSON Schema as parameters), the
 * model an `OpenAIChatCompletionsModel` (chat completions, not Responses) of an `OpenAIProvider`
 * pointed at the bench's endpoint. Tracing is disabled, so nothing leaves the machine. No sandbox:
 * bash runs on the host in the workspace (adapters/workspace-tools.mjs).
 *
 * run(input) → { finalAnswer }. The SDK throws on some model faults (an unknown tool, more turns
 * than maxTurns); the throw is the harness's own behaviour and reaches the runner as the case's error.
 */
import { Agent, run as runAgent, setTracingDisabled, tool } from '@openai/agents-core';
import { OpenAIProvider } from '@openai/agents-openai';
import { workspaceTools } from './workspace-tools.mjs';

setTracingDisabled(true);

/** @param {{ task: string, baseURL: string, apiKey: string, model: string, workspace: string, tools: Array<{name: string, description: string, parameters: object}>, maxTurns: number, signal: AbortSignal }} input */
export async function run(input) {
  const provider = new OpenAIProvider({ baseURL: input.baseURL, apiKey: input.apiKey, useResponses: false });
  const agent = new Agent({
    name: 'bench-agent',
    instructions: 'You are a coding agent working in a workspace. Use the tools to do the task.',
    model: await provider.getModel(input.model),
    tools: workspaceTools(input).map((t) =>
      tool({
        name: t.name,
        description: t.description,
        parameters: t.parameters,
        strict: false,
        execute: (args) => t.run(args),
      }),
    ),
  });
  const result = await runAgent(agent, input.task, { maxTurns: input.maxTurns, signal: input.signal });
  return {
    finalAnswer:
      typeof result.finalOutput === 'string' ? result.finalOutput : JSON.stringify(result.finalOutput),
  };
}
