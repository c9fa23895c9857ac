/**
 * The systems of the per-step table, each a function that runs the workload of `workload.ts`
 * once for N steps and checks it really made N tool calls:
 * - `floor`: the least any loop does for this workload (JSON decode, ajv validation, the tool,
 *   append), with no harness around it;
 * - `harness-bench`: `runHarness` with the default configuration (budgets raised so N steps fit),
 *   or with session persistence on;
 * - `ai-sdk`: Vercel AI SDK 6 `generateText` with `MockLanguageModelV3` (`ai/test`), one tool,
 *   `stopWhen: stepCountIs(N + 1)`;
 * - `openai-agents`: OpenAI Agents SDK 0.20 `run` with a fake `Model` and a function tool
 *   (tracing disabled, so nothing leaves the machine).
 */
import { Agent, run, setTracingDisabled, tool as agentTool, Usage } from '@openai/agents-core';
import type {
  Model as AgentsModel,
  ModelRequest as AgentsRequest,
  ModelResponse as AgentsResponse,
} from '@openai/agents-core';
import { generateText, stepCountIs, tool as aiTool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Ajv } from 'ajv';
import { z } from 'zod';
import { DEFAULT_CONFIG, mergeConfig, type HarnessConfig } from '../harness/config.ts';
import { deterministicDeps, type HarnessDeps } from '../harness/deps.ts';
import { runHarness } from '../harness/loop/run.ts';
import { ScriptedModel, type ScriptedTurn } from '../harness/model/scripted-model.ts';
import { LocalSandbox } from '../harness/sandbox/local.ts';
import { FILE_TOOLS } from '../harness/tools/builtin/files.ts';
import { callArgs, READ_ARGS_SCHEMA, readLines } from './workload.ts';

/** A system of the table: runs the workload for `steps` tool calls in `workspace`. */
export type System = (steps: number, workspace: string) => Promise<void>;

/** Names as they appear in `bench/results/latest.json`. */
export type SystemName = 'floor' | 'harness-bench' | 'ai-sdk' | 'openai-agents';

function expectSteps(system: string, made: number, steps: number): void {
  if (made !== steps) throw new Error(`${system}: ${made} tool calls made, ${steps} expected`);
}

const ajv = new Ajv({ strict: false });
const validateArgs = ajv.compile(READ_ARGS_SCHEMA);

/** The floor: decode, validate, run the tool, append; nothing else. */
export const floor: System = async (steps, workspace) => {
  const messages: unknown[] = [{ role: 'user', content: 'read the file' }];
  let made = 0;
  for (let i = 0; ; i += 1) {
    // The "model": the next scripted turn, as a provider would return it.
    const turn =
      i < steps
        ? {
            tool_calls: [
              { id: `c${i}`, function: { name: 'read_file', arguments: JSON.stringify(callArgs(i)) } },
            ],
          }
        : { content: 'done', tool_calls: [] };
    await Promise.resolve();
    if (turn.tool_calls.length === 0) {
      messages.push({ role: 'assistant', content: turn.content });
      break;
    }
    messages.push({ role: 'assistant', tool_calls: turn.tool_calls });
    for (const call of turn.tool_calls) {
      const args: unknown = JSON.parse(call.function.arguments);
      if (!validateArgs(args)) throw new Error('invalid arguments');
      const content = readLines(workspace, args as ReturnType<typeof callArgs>);
      messages.push({ role: 'tool', tool_call_id: call.id, content });
      made += 1;
    }
  }
  expectSteps('floor', made, steps);
};

/** Budgets large enough for 1,000 steps; everything else is `DEFAULT_CONFIG`. */
const roomy = {
  limits: { maxTurns: 100_000, maxToolCalls: 100_000, maxTokens: 1e12, maxCostUsd: 1e9, maxWallMs: 1e12 },
};
const defaultConfig: HarnessConfig = mergeConfig(DEFAULT_CONFIG, roomy);
const sessionConfig: HarnessConfig = mergeConfig(DEFAULT_CONFIG, { ...roomy, session: { enabled: true } });

/** The harness's configurations of the table. */
export const HARNESS_CONFIGS = { default: defaultConfig, session: sessionConfig } as const;

/** The scripted turns of the workload. */
export function scriptedTurns(steps: number): ScriptedTurn[] {
  return [
    ...Array.from({ length: steps }, (_, i) => ({
      tool_calls: [{ id: `c${i}`, name: 'read_file', arguments: JSON.stringify(callArgs(i)) }],
    })),
    { content: 'done' },
  ];
}

let sessions = 0;
/** Deterministic deps, except that every run gets a session id of its own (sessions must not collide). */
function runDeps(): HarnessDeps {
  const deps = deterministicDeps();
  const newId = deps.newId;
  return {
    ...deps,
    newId: (prefix) => (prefix === 'session_' ? `session_bench_${++sessions}` : newId(prefix)),
  };
}

/** harness-bench under `config`. */
export function harness(config: HarnessConfig): System {
  return async (steps, workspace) => {
    const result = await runHarness({
      task: 'read the file',
      config,
      model: new ScriptedModel(scriptedTurns(steps)),
      tools: [FILE_TOOLS.read_file!],
      sandbox: new LocalSandbox({ allowExec: false }),
      workspace,
      deps: runDeps(),
    });
    if (result.stopReason !== 'final_answer')
      throw new Error(`harness-bench: ${result.stopReason} ${result.stopDetail}`);
    expectSteps('harness-bench', result.usage.toolCalls, steps);
  };
}

const readParameters = z.object({
  path: z.string().min(1),
  offset: z.number().int().min(1),
  limit: z.number().int().min(1),
});

/** Vercel AI SDK 6. */
export const aiSdk: System = async (steps, workspace) => {
  let step = 0;
  let made = 0;
  const usage = {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 5, text: 5, reasoning: undefined },
  };
  const model = new MockLanguageModelV3({
    doGenerate: async () => {
      const i = step++;
      if (i < steps)
        return {
          content: [
            {
              type: 'tool-call',
              toolCallId: `c${i}`,
              toolName: 'read_file',
              input: JSON.stringify(callArgs(i)),
            },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        };
      return {
        content: [{ type: 'text', text: 'done' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    },
  });
  const result = await generateText({
    model,
    prompt: 'read the file',
    tools: {
      read_file: aiTool({
        description: 'Read a text file of the workspace.',
        inputSchema: readParameters,
        execute: async (args) => {
          made += 1;
          return readLines(workspace, args);
        },
      }),
    },
    stopWhen: stepCountIs(steps + 1),
  });
  if (result.text !== 'done') throw new Error(`ai-sdk: ended with ${result.finishReason}`);
  expectSteps('ai-sdk', made, steps);
};

setTracingDisabled(true);

/** A fake Agents SDK model that plays the workload. */
class FakeAgentsModel implements AgentsModel {
  private step = 0;
  constructor(private readonly steps: number) {}
  async getResponse(_request: AgentsRequest): Promise<AgentsResponse> {
    const i = this.step++;
    const usage = new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 });
    if (i < this.steps)
      return {
        usage,
        output: [
          {
            type: 'function_call',
            callId: `c${i}`,
            name: 'read_file',
            arguments: JSON.stringify(callArgs(i)),
            status: 'completed',
          },
        ],
      };
    return {
      usage,
      output: [
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'done' }],
        },
      ],
    };
  }
  // biome-ignore lint/correctness/useYield: the workload never streams
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not used');
  }
}

/** OpenAI Agents SDK 0.20. */
export const openaiAgents: System = async (steps, workspace) => {
  let made = 0;
  const agent = new Agent({
    name: 'reader',
    instructions: 'Read the file.',
    model: new FakeAgentsModel(steps),
    tools: [
      agentTool({
        name: 'read_file',
        description: 'Read a text file of the workspace.',
        parameters: readParameters,
        execute: async (args) => {
          made += 1;
          return readLines(workspace, args);
        },
      }),
    ],
  });
  const result = await run(agent, 'read the file', { maxTurns: steps + 5 });
  if (result.finalOutput !== 'done') throw new Error('openai-agents: no final output');
  expectSteps('openai-agents', made, steps);
};

/**
 * A system by its short name, for the command-line drivers (`profile.ts`, `gc-probe.ts`):
 * `default` or `session` (harness-bench configurations), `floor`, `ai-sdk`, `openai-agents`.
 * @throws on any other name, listing the known ones
 */
export function systemNamed(name: string): System {
  const systems: Record<string, System> = {
    default: harness(HARNESS_CONFIGS.default),
    session: harness(HARNESS_CONFIGS.session),
    floor,
    'ai-sdk': aiSdk,
    'openai-agents': openaiAgents,
  };
  const system = systems[name];
  if (!system) throw new Error(`unknown system ${name}: one of ${Object.keys(systems).join(', ')}`);
  return system;
}
