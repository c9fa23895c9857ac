/**
 * The Vercel AI SDK (`ai` 6.0.325) as a harness under test (`kind: "module"`, adapters/ai-sdk.json):
 * `generateText` with `stopWhen: stepCountIs(maxTurns)`, the model through
 * `@ai-sdk/openai-compatible` 2.0.92 pointed at the bench's endpoint, and the case's tools from the
 * bench's MCP server through the SDK's own MCP client (`@ai-sdk/mcp` 1.0.102, Streamable HTTP,
 * `"tools": "mcp"`). This is the SDK's documented agent loop with MCP tools as its docs show it,
 * nothing added: no argument repair hook, no tool approval.
 *
 * run(input) → { finalAnswer } (docs/adapters.md, "Module adapters").
 */
import { createMCPClient } from '@ai-sdk/mcp';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, stepCountIs } from 'ai';

/** @param {{ task: string, baseURL: string, apiKey: string, model: string, mcp: { url: string }, maxTurns: number, signal: AbortSignal }} input */
export async function run(input) {
  const provider = createOpenAICompatible({ baseURL: input.baseURL, apiKey: input.apiKey, name: 'bench' });
  const client = await createMCPClient({ transport: { type: 'http', url: input.mcp.url } });
  try {
    const result = await generateText({
      model: provider.chatModel(input.model),
      prompt: input.task,
      tools: await client.tools(),
      stopWhen: stepCountIs(input.maxTurns),
      abortSignal: input.signal,
      maxRetries: 0,
    });
    return { finalAnswer: result.text };
  } finally {
    await client.close();
  }
}
