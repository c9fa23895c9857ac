#!/usr/bin/env node
// `hb-mcp-stdio URL`: the case's tool server (eval/mcp/case-tools.ts) over stdio, for a harness
// whose MCP client starts its servers as processes. It forwards tools/list and tools/call to the
// Streamable HTTP server at URL, so both transports share one call log and one scripted state.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const url = process.argv[2];
if (!url) {
  process.stderr.write('usage: hb-mcp-stdio URL (the case tool server, http://127.0.0.1:PORT/mcp)\n');
  process.exit(2);
}
const client = new Client({ name: 'hb-mcp-stdio', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const server = new Server(
  { name: 'harness-bench-case-tools', version: '1.0.0' },
  { capabilities: { tools: {} } },
);
server.setRequestHandler(ListToolsRequestSchema, (request) => client.listTools(request.params));
server.setRequestHandler(CallToolRequestSchema, (request) => client.callTool(request.params));
await server.connect(new StdioServerTransport());
