/**
 * The `openai` SDK's own tool loop (`client.chat.completions.runTools`, openai-node
 * `src/lib/ChatCompletionRunner.ts`) as a harness under test (`kind: "module"`,
 * adapters/openai-runtools.json): the client pointed at the bench's endpoint, the case's tools
 * listed from the bench's MCP server with the official MCP client (`@modelcontextprotocol/sdk`,
 * Streamable HTTP, `"tools": "mcp"`) and each wrapped as a runTools function that calls the MCP
 * tool, `maxChatCompletions` set to the case's turn limit. This is runTools as its README shows
 * it (a `function` with `parse: JSON.parse`), nothing added: no repair, no approval.
 *
 * run(input) → { finalAnswer } (docs/adapters.md, "Module adapters").
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';

/** The text of an MCP tool result (its text content parts, joined). */
function resultText(result) {
  const parts = Array.isArray(result?.content) ? result.content : [];
  return parts.map((part) => (part?.type === 'text' ? part.text : JSON.stringify(part))).join('\n');
}

/** @param {{ task: string, baseURL: string, apiKey: string, model: string, mcp: { url: string }, maxTurns: number, signal: AbortSignal }} input */
export async function run(input) {
  const client = new OpenAI({ baseURL: input.baseURL, apiKey: input.apiKey, maxRetries: 0 });
  const mcp = new Client({ name: 'openai-runtools-adapter', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(input.mcp.url)));
  try {
    const { tools } = await mcp.listTools();
    const runner = client.chat.completions.runTools(
      {
        model: input.model,
        messages: [{ role: 'user', content: input.task }],
        tools: tools.map((tool) => ({
          type: 'function',
          function: {
            name: tool.name,
            description: tool.description ?? '',
            parameters: tool.inputSchema ?? { type: 'object' },
            parse: JSON.parse,
            function: async (args) => resultText(await mcp.callTool({ name: tool.name, arguments: args })),
          },
        })),
      },
      { maxChatCompletions: input.maxTurns, signal: input.signal },
    );
    return { finalAnswer: (await runner.finalContent()) ?? '' };
  } finally {
    await mcp.close();
  }
}
