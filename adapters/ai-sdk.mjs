/**
 * The Vercel AI SDK (`ai` 6.0.325) as a harness under test (`kind: "module"`, adapters/ai-sdk.json):
 * `generateText` with the scenario's tools and `stopWhen: stepCountIs(maxTurns)`, the model through
 * `@ai-sdk/openai-compatible` 2.0.92 pointed at the bench's endpoint. This is the SDK's documented
 * agent loop as its README shows it, nothing added: no argument repair hook, no tool approval, no
 * sandbox (bash runs on the host in the workspace; adapters/workspace-tools.mjs).
 *
 * run(input) → { finalAnswer } (docs/adapters.md, "Module adapters").
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { workspaceTools } from './workspace-tools.mjs';

/** @param {{ task: string, baseURL: string, apiKey: string, model: string, workspace: string, tools: Array<{name: string, description: string, parameters: object}>, maxTurns: number, signal: AbortSignal }} input */
export async function run(input) {
  const provider = createOpenAICompatible({ baseURL: input.baseURL, apiKey: input.apiKey, name: 'bench' });
  const tools = Object.fromEntries(
    workspaceTools(input).map((t) => [
      t.name,
      tool({
        description: t.description,
        inputSchema: jsonSchema(t.parameters),
        execute: (args) => t.run(args),
      }),
    ]),
  );
  const result = await generateText({
    model: provider.chatModel(input.model),
    prompt: input.task,
    tools,
    stopWhen: stepCountIs(input.maxTurns),
    abortSignal: input.signal,
    maxRetries: 0,
  });
  return { finalAnswer: result.text };
}
