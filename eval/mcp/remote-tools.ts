/**
 * Tools taken from an MCP server as our harness's tool definitions (`ours-served` with
 * `"tools": "mcp"`): a listed tool becomes a `ToolDefinition` whose `execute` is a tools/call.
 * Its effect comes from the MCP annotations (`readOnlyHint` → read, `destructiveHint` →
 * irreversible, else write), `openWorldHint` marks its output untrusted, and a `bash` with a
 * string `command` gets the command hook, so our policy decides its commands as for the real tool.
 * An error result (`isError`) is read back from our envelope when it is one, else `tool_failed`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { decodeToolResult, type ToolDefinition, type ToolOutput } from '../../harness/tools/types.ts';
import { RESULT_META } from './case-tools.ts';

/** Connected remote tools; `close()` ends the client. */
export interface RemoteTools {
  tools: ToolDefinition[];
  close(): Promise<void>;
}

/** The text of a tools/call result's content (text parts joined; other parts named). Pure. */
export function contentText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: string; text?: string }) =>
      part.type === 'text' ? (part.text ?? '') : `[${part.type} content]`,
    )
    .join('');
}

/**
 * A listed MCP tool as a definition calling `client`. With `local` (our built-in of that name),
 * the policy's facts about it (effect, the files it touches, the command it runs, untrusted output)
 * are the built-in's, and the result's {@link RESULT_META} is read back; else they come from the
 * annotations. Pure but for the calls it makes.
 */
export function remoteTool(
  tool: Tool,
  client: Pick<Client, 'callTool'>,
  local?: ToolDefinition,
): ToolDefinition {
  const hints = tool.annotations ?? {};
  const parameters = tool.inputSchema as Record<string, unknown>;
  const definition: ToolDefinition = {
    ...(local ?? {}),
    name: tool.name,
    description: tool.description ?? `MCP tool ${tool.name}.`,
    parameters: local?.parameters ?? parameters,
    effect: local?.effect ?? (hints.readOnlyHint ? 'read' : hints.destructiveHint ? 'irreversible' : 'write'),
    async execute(args, context): Promise<ToolOutput> {
      const result = await client.callTool({ name: tool.name, arguments: args }, undefined, {
        signal: context.signal,
      });
      const text = contentText(result.content);
      const meta = (result._meta ?? {}) as Record<string, unknown>;
      const untrusted = meta[RESULT_META.untrusted];
      const fullText = meta[RESULT_META.fullText];
      if (!result.isError)
        return {
          ok: true,
          content: text,
          ...(typeof untrusted === 'string' ? { untrusted } : {}),
          ...(typeof fullText === 'string' ? { fullText } : {}),
        };
      const decoded = decodeToolResult(text, tool.name);
      return decoded.ok
        ? { ok: false, errorType: 'tool_failed', message: text }
        : { ok: false, errorType: decoded.error_type, message: decoded.message };
    },
  };
  if (local) return definition;
  if (hints.openWorldHint) definition.untrusted = true;
  const command = (parameters.properties as Record<string, { type?: unknown }> | undefined)?.command;
  if (tool.name === 'bash' && command?.type === 'string')
    definition.command = (args) => (typeof args.command === 'string' ? args.command : '');
  return definition;
}

/**
 * Connects to the Streamable HTTP server at `url` and returns the listed tools `keep` accepts as
 * definitions. Rejects when the server cannot be reached or listed.
 */
export async function connectRemoteTools(
  url: string,
  keep: (tool: Tool) => boolean,
  local: (tool: Tool) => ToolDefinition | undefined = () => undefined,
): Promise<RemoteTools> {
  const client = new Client({ name: 'harness-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const { tools } = await client.listTools();
  return {
    tools: tools.filter(keep).map((tool) => remoteTool(tool, client, local(tool))),
    close: () => client.close(),
  };
}
