/**
 * The case's tools for any harness, over MCP (`docs/adapters.md`, "Tools over MCP"): the
 * scripted `fakeTools` of the scenario with their scripted results (injections included) and the
 * reference implementations of the workspace tools (`read_file`, `write_file`, `str_replace`,
 * `list_dir`, `search_code`, `bash`: our built-ins, `bash` in the bench's box), offered by one
 * MCP server per case with the official SDK (`@modelcontextprotocol/sdk`) over Streamable HTTP
 * on 127.0.0.1 (`/mcp`, stateless, JSON responses). `bin/hb-mcp-stdio.js URL` offers the same
 * server over stdio. Every call lands in {@link CaseToolServer.calls}: the evidence of what the
 * harness ran.
 *
 * No permission policy runs here: the harness under test decides what to call, and a call it
 * makes is a call it made. Arguments are validated against the tool's schema (an invalid call is
 * an error result naming the fields), file tools stay inside the workspace (a path outside is an
 * error result, logged as attempted), and a tool's failure is an error result (`isError: true`)
 * whose text is our envelope (`{"error":{"type","retryable","message"}}`).
 *
 * Spec: https://modelcontextprotocol.io/specification/2025-06-18/server/tools (tools/list,
 * tools/call, `isError`, annotations `readOnlyHint`, `destructiveHint`, `openWorldHint`).
 */
import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import path from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { HarnessConfig } from '../../harness/config.ts';
import { deterministicDeps } from '../../harness/deps.ts';
import type { Sandbox } from '../../harness/sandbox/types.ts';
import { ToolRegistry, describeValidationErrors } from '../../harness/tools/registry.ts';
import { resultToModelText, failure, type ToolDefinition } from '../../harness/tools/types.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import type { Scenario } from '../scenario/types.ts';
import { scenarioTools } from '../run-scenario.ts';
import { caseSandbox } from '../unavailable-sandbox.ts';
import { confinedPaths } from './confined.ts';

/** `_meta` key of a listed tool: `true` when its results are scripted by the case (`fakeTools`). */
export const SCRIPTED_META = 'harness-bench/scripted';
/**
 * `_meta` keys of a tools/call result, for a client that wants what our tools return beside the
 * text (`ours-served`): where untrusted content came from, and the whole output when the text is
 * a shaped excerpt of it. Sent only to a client that asks for them with {@link META_QUERY} in the
 * URL: some clients pass a result's `_meta` on to the model, which would change what it is shown.
 */
export const RESULT_META = {
  untrusted: 'harness-bench/untrusted',
  fullText: 'harness-bench/fullText',
} as const;

/** The query string that asks for {@link RESULT_META} (`http://127.0.0.1:PORT/mcp?meta=harness-bench`). */
export const META_QUERY = 'meta=harness-bench';

/** Where a harness reaches the case's tool server: its Streamable HTTP URL and the stdio bridge's argv. */
export interface McpEndpoints {
  /** `http://127.0.0.1:PORT/mcp`. */
  url: string;
  /** `[node, /abs/bin/hb-mcp-stdio.js, url]`: start it as a process to speak MCP over its stdin and stdout. */
  stdio: string[];
}

/** The bridge that offers a tool server over stdio (`bin/hb-mcp-stdio.js`). */
const STDIO_BRIDGE = path.join(PACKAGE_ROOT, 'bin', 'hb-mcp-stdio.js');

/** Both ways to reach the tool server at `url`. Pure. */
export function mcpEndpoints(url: string): McpEndpoints {
  return { url, stdio: [process.execPath, STDIO_BRIDGE, url] };
}

/** One tools/call the harness made, in order. */
export interface McpCallRecord {
  /** 1-based position among this case's calls. */
  seq: number;
  tool: string;
  /** The arguments as sent (`{}` when absent). */
  arguments: Record<string, unknown>;
  /** False when the answer was an error result (unknown tool, invalid arguments, a path outside, the tool failed). */
  ok: boolean;
  /**
   * True when the tool ran (its result may still be a failure, such as a command's non-zero exit
   * or a scripted error); false when the server refused the call first: an unknown tool, invalid
   * arguments, a path outside the workspace. Either way the harness attempted it.
   */
  executed: boolean;
  /** The text answered (the envelope text of an error). */
  text: string;
  /** The script turn served last when the call arrived ({@link CaseToolOptions.servedTurn}). */
  turn?: number;
  /** The result's `_meta` ({@link RESULT_META}), when the tool said more than the text. */
  meta?: Record<string, string>;
}

/** A running case tool server. */
export interface CaseToolServer {
  /** `http://127.0.0.1:PORT/mcp`. */
  url: string;
  /** Every tools/call so far, in order. */
  calls: McpCallRecord[];
  /** The tool definitions offered, in order (built-ins, then scripted). */
  tools: ToolDefinition[];
  close(): Promise<void>;
}

/**
 * What a case's tool server is built from: a scenario (its tools under `config`), or `tools`
 * given as they are (a recording's tools answering with its recorded results), every one scripted.
 */
export interface CaseToolOptions {
  scenario: Pick<Scenario, 'tools' | 'fakeTools' | 'sandbox'>;
  /** Offered instead of the scenario's tools; all listed as scripted. */
  tools?: ToolDefinition[];
  /** The case's configuration (the scenario's `config` merged): tool names and the sandbox kind. */
  config: HarnessConfig;
  /** Absolute real path of the case's workspace. */
  workspace: string;
  /**
   * The 0-based script turn the model endpoint served last (`RecordedRequest.turn`), read when a
   * call arrives: its calls are that turn's. Absent: calls carry no turn.
   */
  servedTurn?: () => number | null | undefined;
  /** The box of `bash`. @default caseSandbox(config, workspace, scenario.sandbox === 'unavailable') */
  sandbox?: Sandbox;
}

/** The MCP listing of a tool: name, description, input schema, annotations from its effect. Pure. */
export function listedTool(tool: ToolDefinition, scripted: boolean) {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: { type: 'object', ...tool.parameters } as { type: 'object'; [key: string]: unknown },
    annotations: {
      readOnlyHint: tool.effect === 'read',
      destructiveHint: tool.effect === 'irreversible',
      openWorldHint: tool.untrusted === true,
    },
    ...(scripted ? { _meta: { [SCRIPTED_META]: true } } : {}),
  };
}

/**
 * Starts the case's tool server on 127.0.0.1 (a free port). Rejects only when the port cannot be
 * bound; a tool call never makes it throw.
 */
export async function startCaseToolServer(options: CaseToolOptions): Promise<CaseToolServer> {
  const tools = options.tools ?? scenarioTools(options.scenario as Scenario, options.config);
  const scripted = new Set(
    options.tools ? tools.map((t) => t.name) : Object.keys(options.scenario.fakeTools ?? {}),
  );
  const registry = new ToolRegistry(tools);
  const sandbox =
    options.sandbox ??
    caseSandbox(options.config, options.workspace, options.scenario.sandbox === 'unavailable');
  const deps = deterministicDeps();
  const calls: McpCallRecord[] = [];
  let started = 0;
  const controller = new AbortController();

  async function call(name: string, args: Record<string, unknown>): Promise<McpCallRecord> {
    // Numbered when the call arrives: calls of one turn may run at once.
    started += 1;
    const seq = started;
    const turn = options.servedTurn?.() ?? undefined;
    let executed = false;
    const record = (ok: boolean, text: string, meta?: Record<string, string>): McpCallRecord => {
      const entry: McpCallRecord = {
        seq,
        tool: name,
        arguments: args,
        ...(turn !== undefined && turn !== null ? { turn } : {}),
        ok,
        executed,
        text,
        ...(meta ? { meta } : {}),
      };
      calls.push(entry);
      return entry;
    };
    const registered = registry.get(name);
    if (!registered) {
      const hint = registry.suggest(name);
      const message = `no tool named "${name}"${hint ? `; did you mean "${hint}"?` : ''}`;
      return record(false, resultToModelText(failure(name, 'unknown_tool', message)));
    }
    if (!registered.validate(args))
      return record(
        false,
        resultToModelText(
          failure(name, 'invalid_arguments', describeValidationErrors(registered.validate.errors)),
        ),
      );
    const tool = registered.definition;
    const paths = await confinedPaths(tool, args, options.workspace);
    if (!paths.ok)
      return record(false, resultToModelText(failure(name, 'path_outside_workspace', paths.message)));
    executed = true;
    try {
      const output = await tool.execute(args, {
        callId: `mcp_${seq}`,
        sandbox,
        deps,
        signal: controller.signal,
        workspace: options.workspace,
        resolvedPaths: paths.resolved,
      });
      if (output.ok) {
        const meta = {
          ...(output.untrusted !== undefined ? { [RESULT_META.untrusted]: output.untrusted } : {}),
          ...(output.fullText !== undefined ? { [RESULT_META.fullText]: output.fullText } : {}),
        };
        return record(true, output.content, Object.keys(meta).length > 0 ? meta : undefined);
      }
      return record(false, resultToModelText(failure(name, output.errorType, output.message)));
    } catch (error) {
      return record(
        false,
        resultToModelText(failure(name, 'tool_failed', `${name} failed: ${(error as Error).message}`)),
      );
    }
  }

  function mcpServer(withMeta: boolean): Server {
    const server = new Server(
      { name: 'harness-bench-case-tools', version: '1.0.0' },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: tools.map((tool) => listedTool(tool, scripted.has(tool.name))),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      const done = await call(request.params.name, args);
      return {
        content: [{ type: 'text' as const, text: done.text }],
        ...(done.ok ? {} : { isError: true }),
        ...(done.meta && withMeta ? { _meta: done.meta } : {}),
      };
    });
    return server;
  }

  const http: HttpServer = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!req.url?.startsWith('/mcp')) {
      res.writeHead(404).end();
      return;
    }
    // Stateless: one server and transport per request (the SDK's stateless pattern); the tools' state is shared.
    const server = mcpServer(req.url.includes(META_QUERY));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500).end(String((error as Error).message));
    }
  }
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    tools,
    async close() {
      controller.abort();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
