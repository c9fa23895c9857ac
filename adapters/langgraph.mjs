/**
 * LangGraph.js (`@langchain/langgraph` 1.7.3, `@langchain/core` 1.4.0, `@langchain/openai` 1.5.0)
 * as a harness under test (`kind: "module"`, adapters/langgraph.json): the prebuilt
 * `createReactAgent` with a `ChatOpenAI` model pointed at the bench's endpoint and the case's tools
 * from the bench's MCP server through `@langchain/mcp-adapters` 1.1.4 (`MultiServerMCPClient`,
 * Streamable HTTP, `"tools": "mcp"`), invoked with a recursion limit of two graph steps per turn
 * (the agent node and the tool node), as LangGraph's docs size it. Nothing added: no retries
 * (`maxRetries: 0`), no approval, the library's own handling of tool errors.
 *
 * run(input) → { finalAnswer } (docs/adapters.md, "Module adapters"). Going over the recursion
 * limit throws `GraphRecursionError`: the library's own stop, reaching the runner as a crash.
 */
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { ChatOpenAI } from '@langchain/openai';
import { createReactAgent } from '@langchain/langgraph/prebuilt';

/** @param {{ task: string, baseURL: string, apiKey: string, model: string, mcp: { url: string }, maxTurns: number, signal: AbortSignal }} input */
export async function run(input) {
  const client = new MultiServerMCPClient({
    mcpServers: { case: { transport: 'http', url: input.mcp.url } },
    useStandardContentBlocks: false,
  });
  try {
    const llm = new ChatOpenAI({
      model: input.model,
      apiKey: input.apiKey,
      configuration: { baseURL: input.baseURL },
      maxRetries: 0,
    });
    const agent = createReactAgent({ llm, tools: await client.getTools() });
    const state = await agent.invoke(
      { messages: [{ role: 'user', content: input.task }] },
      { recursionLimit: 2 * input.maxTurns + 1, signal: input.signal },
    );
    const last = state.messages.at(-1);
    const text = typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
    return { finalAnswer: text };
  } finally {
    await client.close();
  }
}
