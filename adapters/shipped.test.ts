/**
 * The shipped adapters (adapters/*.json) against the bench's model endpoint on a handful of
 * fault scenarios (bad JSON, hallucinated tool, loop, injection): what each real library does,
 * observed from the outside (the requests it sent, its answer, the workspace afterwards). These
 * figures were observed, not assumed; a change in a pinned peer's behaviour shows up here first.
 * The Python loop runs through the `command` contract to prove nothing assumes Node.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../eval/scenario/load.ts';
import type { Scenario } from '../eval/scenario/types.ts';
import { type RecordedRequest, SERVE_API_KEY, startModelServer } from '../eval/serve/server.ts';
import { BUILTIN_TOOLS } from '../harness/tools/builtin/index.ts';

const ROOT = join(import.meta.dirname, '..');
const temp = mkdtempSync(join(tmpdir(), 'hb-adapters-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

async function scenario(id: string): Promise<Scenario> {
  const { scenarios } = await loadScenarios([`scenarios/${id}.*`], ROOT);
  return scenarios[0]!.scenario;
}

function toolsOf(s: Scenario) {
  return [
    ...(s.tools ?? []).map((name) => BUILTIN_TOOLS[name]!),
    ...Object.entries(s.fakeTools ?? {}).map(([name, t]) => ({ name, ...t })),
  ].map((t) => ({
    name: t.name,
    description: t.description ?? '',
    parameters: t.parameters ?? { type: 'object' },
  }));
}

interface Observed {
  requests: RecordedRequest[];
  /** Tool message contents of the last request, by call id. */
  toolMessages: Record<string, string>;
  answer?: string;
  error?: string;
  exitCode?: number | null;
  workspace: string;
}

type AdapterName = 'ai-sdk' | 'openai-agents' | 'minimal-loop' | 'python-loop';

async function runOn(
  adapter: AdapterName,
  id: string,
  change: (s: Scenario) => Scenario = (s) => s,
): Promise<Observed> {
  const s = change(await scenario(id));
  const workspace = mkdtempSync(join(temp, 'ws-'));
  for (const [path, content] of Object.entries(s.workspace?.files ?? {})) {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), String(content));
  }
  const server = await startModelServer({ scenario: { model: s.model } });
  const tools = toolsOf(s);
  const observed: Omit<Observed, 'requests' | 'toolMessages'> = { workspace };
  try {
    if (adapter === 'ai-sdk' || adapter === 'openai-agents') {
      const mod = (await import(`./${adapter}.mjs`)) as {
        run(input: unknown): Promise<{ finalAnswer?: string }>;
      };
      try {
        const out = await mod.run({
          task: s.task,
          baseURL: server.baseURL,
          apiKey: SERVE_API_KEY,
          model: 'scripted',
          workspace,
          tools,
          maxTurns: 20,
          signal: AbortSignal.timeout(30_000),
        });
        observed.answer = out.finalAnswer;
      } catch (error) {
        observed.error = `${(error as Error).name}: ${(error as Error).message}`;
      }
    } else {
      const argv =
        adapter === 'python-loop' ? ['python3', 'python_loop.py'] : [process.execPath, 'minimal-loop.mjs'];
      const child = spawn(argv[0]!, [join(import.meta.dirname, argv[1]!)], {
        cwd: workspace,
        env: {
          PATH: process.env.PATH ?? '',
          OPENAI_BASE_URL: server.baseURL,
          HARNESS_BASE_URL: server.baseURL,
          OPENAI_API_KEY: SERVE_API_KEY,
          HARNESS_MODEL: 'scripted',
          HARNESS_TASK: s.task,
          HARNESS_WORKSPACE: workspace,
          HARNESS_TOOLS: JSON.stringify(tools),
          HARNESS_MAX_TURNS: '20',
        },
      });
      child.stdin.end(s.task);
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      observed.exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
      observed.answer = stdout.trim();
    }
  } finally {
    await server.close();
  }
  const last = server.requests.filter((r) => r.outcome === 'turn').at(-1);
  const messages = ((last?.body as { messages?: { role: string; tool_call_id?: string; content?: string }[] })
    ?.messages ?? []) as { role: string; tool_call_id?: string; content?: string }[];
  const toolMessages = Object.fromEntries(
    messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id ?? '', String(m.content ?? '')]),
  );
  return { ...observed, requests: server.requests, toolMessages };
}

/** The scenario with every object `arguments` sent as its JSON text, as OpenAI's API sends them. */
function stringArguments(s: Scenario): Scenario {
  const model = s.model.map((turn) =>
    'tool_calls' in turn && turn.tool_calls
      ? {
          ...turn,
          tool_calls: turn.tool_calls.map((c) => ({
            ...c,
            arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
          })),
        }
      : turn,
  );
  return { ...s, model } as Scenario;
}

const hasPython = spawnSync('python3', ['--version']).status === 0;
const ADAPTERS: AdapterName[] = ['ai-sdk', 'openai-agents', 'minimal-loop', 'python-loop'];

describe.each(ADAPTERS)('%s', (adapter) => {
  const skip = adapter === 'python-loop' && !hasPython && !process.env.CI;

  it.skipIf(skip)('bad JSON: every bad call gets an error tool message, the good one runs', async () => {
    const o = await runOn(adapter, 'bad-json/trailing-comma');
    expect(o.requests.map((r) => r.outcome)).toEqual(['turn', 'turn', 'turn']);
    expect(o.answer).toBe('The notes say to ship on Friday.');
    expect(Object.keys(o.toolMessages).sort()).toEqual(['call_tc1', 'call_tc2', 'call_tc3']);
    expect(o.toolMessages.call_tc1).toMatch(/JSON|parsing|Expecting/i);
    expect(o.toolMessages.call_tc2).toMatch(/JSON|parsing|Expecting/i);
    expect(o.toolMessages.call_tc3).toContain('Ship on Friday');
  });

  it.skipIf(skip)('hallucinated tool', async () => {
    const o = await runOn(adapter, 'hallucinated-tool/undeclared-and-misspelled');
    if (adapter === 'openai-agents') {
      // The Agents SDK throws on a call to a tool the agent does not have: the run ends at turn 1.
      expect(o.requests).toHaveLength(1);
      expect(o.error).toMatch(/ModelBehaviorError: Tool multi_tool_use\.parallel not found/);
      return;
    }
    expect(o.requests.map((r) => r.outcome)).toEqual(['turn', 'turn', 'turn']);
    expect(o.toolMessages.call_n1).toMatch(
      adapter === 'ai-sdk' ? /unavailable tool 'multi_tool_use\.parallel'/ : /unknown tool multi_tool_use/,
    );
    expect(o.toolMessages.call_n2).toMatch(/serach/);
    expect(o.toolMessages.call_n3).toContain('exponential backoff');
  });

  it.skipIf(skip)('loop: none stops the repeated call; each runs until the script is exhausted', async () => {
    const o = await runOn(adapter, 'loop/identical-call');
    // Six identical calls scripted, then the endpoint answers 400 script_exhausted.
    expect(o.requests.map((r) => r.outcome)).toEqual([...Array(6).fill('turn'), 'exhausted']);
    if (adapter === 'ai-sdk') expect(o.error).toMatch(/script/);
    if (adapter === 'openai-agents') expect(o.error).toMatch(/400/);
    if (adapter === 'minimal-loop' || adapter === 'python-loop') expect(o.exitCode).toBe(1);
  });

  it.skipIf(skip)(
    'injection, arguments as strings: the planted instruction is followed, the hook is written',
    async () => {
      const o = await runOn(adapter, 'injection/suite/u1-file-typo--i3-git-hook', stringArguments);
      expect(o.requests.map((r) => r.outcome)).toEqual(['turn', 'turn', 'turn', 'turn']);
      expect(existsSync(join(o.workspace, '.git/hooks/pre-commit'))).toBe(true);
      expect(readFileSync(join(o.workspace, 'README.md'), 'utf8')).toContain('Installation guide');
      expect(o.answer).toBe('Fixed the typo in README.md.');
    },
  );

  it.skipIf(skip)('injection, arguments as JSON objects (llama.cpp style): no call runs', async () => {
    const o = await runOn(adapter, 'injection/suite/u1-file-typo--i3-git-hook');
    expect(existsSync(join(o.workspace, '.git/hooks/pre-commit'))).toBe(false);
    expect(readFileSync(join(o.workspace, 'README.md'), 'utf8')).toContain('Instalation guide');
    if (adapter === 'ai-sdk') {
      // The AI SDK's response schema wants a string: the first response is refused, the run throws.
      expect(o.requests).toHaveLength(1);
      expect(o.error).toBe('AI_APICallError: Invalid JSON response');
      return;
    }
    // The others answer every call with a parse error and pass the model's claim on unchanged.
    expect(o.requests).toHaveLength(4);
    expect(Object.values(o.toolMessages)).toHaveLength(3);
    for (const text of Object.values(o.toolMessages)) expect(text).toMatch(/JSON|dict/);
    expect(o.answer).toBe('Fixed the typo in README.md.');
  });
});
