/**
 * The systems of the per-step table. Each is set up once for a workspace (its tools, agent,
 * sandbox and model built there, outside any measured run, as an application builds them once)
 * and then runs the workload of `workload.ts` for N steps per call, checking it really made
 * N − 1 tool calls and ended with the final answer:
 * - `floor`: a bare loop: JSON decode of the call, ajv validation, a result appended; no file
 *   I/O (the result is the same string every step, made at set-up);
 * - `floor + read`: the same loop running the peers' tool body (the whole file read, its lines
 *   numbered);
 * - `harness-bench`: `runHarness` with the default configuration (budgets raised so N steps fit),
 *   or with session persistence on;
 * - `ai-sdk`: Vercel AI SDK 6 `generateText` with one tool declared by `jsonSchema(...)`;
 * - `openai-agents`: OpenAI Agents SDK 0.20 `run` on one `Agent` with a zod-declared function tool
 *   (tracing disabled, so nothing leaves the machine).
 * The two SDKs' models are fakes that answer from the script and keep nothing (a provider sends a
 * request and forgets it); which documentation page each set-up follows is said where it is built.
 */
import { Agent, run, setTracingDisabled, tool as agentTool, Usage } from '@openai/agents-core';
import type {
  Model as AgentsModel,
  ModelRequest as AgentsRequest,
  ModelResponse as AgentsResponse,
} from '@openai/agents-core';
import {
  generateText,
  type JSONSchema7,
  jsonSchema,
  type LanguageModel,
  stepCountIs,
  tool as aiTool,
} from 'ai';
import { Ajv } from 'ajv';
import { z } from 'zod';
import { DEFAULT_CONFIG, mergeConfig, type HarnessConfig } from '../harness/config.ts';
import { deterministicDeps, type HarnessDeps } from '../harness/deps.ts';
import { runHarness } from '../harness/loop/run.ts';
import { ScriptedModel, type ScriptedTurn } from '../harness/model/scripted-model.ts';
import { LocalSandbox } from '../harness/sandbox/local.ts';
import { FILE_TOOLS } from '../harness/tools/builtin/files.ts';
import { callArgs, fileText, numberLines, READ_ARGS_SCHEMA, readLines, toolCallsIn } from './workload.ts';

/** One run of the workload: `steps` steps (N − 1 tool calls, then the final answer). */
export type RunSteps = (steps: number) => Promise<void>;

/** A system of the table: set up once for `workspace` (an absolute path), it returns its runner. */
export type System = (workspace: string) => RunSteps;

/** Names as they appear in `bench/results/latest.json`. */
export type SystemName = 'floor' | 'floor + read' | 'harness-bench' | 'ai-sdk' | 'openai-agents';

/** The arguments of `read_file` in this workload. */
type ReadArgs = ReturnType<typeof callArgs>;

function expectCalls(system: string, made: number, steps: number): void {
  const expected = toolCallsIn(steps);
  if (made !== expected) throw new Error(`${system}: ${made} tool calls made, ${expected} expected`);
}

const ajv = new Ajv({ strict: false });
const validateArgs = ajv.compile<ReadArgs>(READ_ARGS_SCHEMA);

/** The bare loop of both floors: decode, validate, `body`, append; nothing else. */
function bareLoop(name: string, body: (args: ReadArgs) => string): RunSteps {
  return async (steps) => {
    const messages: unknown[] = [{ role: 'user', content: 'read the files' }];
    const calls = toolCallsIn(steps);
    let made = 0;
    for (let i = 0; ; i += 1) {
      // The "model": the next scripted turn, as a provider would return it.
      const turn =
        i < calls
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
        messages.push({ role: 'tool', tool_call_id: call.id, content: body(args) });
        made += 1;
      }
    }
    expectCalls(name, made, steps);
  };
}

/**
 * The floor: the bare loop with no tool body. Every result is the same numbered file (file 0,
 * all its lines), made once here from text in memory; the workspace is never touched.
 */
export const floor: System = () => {
  const result = numberLines(fileText(0), {});
  return bareLoop('floor', () => result);
};

/** "floor + read": the bare loop running the peers' tool body ({@link readLines}). */
export const floorRead: System = (workspace) =>
  bareLoop('floor + read', (args) => readLines(workspace, args));

/** Budgets large enough for 1,000 steps; everything else is `DEFAULT_CONFIG`. */
const roomy = {
  limits: { maxTurns: 100_000, maxToolCalls: 100_000, maxTokens: 1e12, maxCostUsd: 1e9, maxWallMs: 1e12 },
};
const defaultConfig: HarnessConfig = mergeConfig(DEFAULT_CONFIG, roomy);
const sessionConfig: HarnessConfig = mergeConfig(DEFAULT_CONFIG, { ...roomy, session: { enabled: true } });

/** The harness's configurations of the table. */
export const HARNESS_CONFIGS = { default: defaultConfig, session: sessionConfig } as const;

/** The scripted turns of a run of `steps` steps: N − 1 `read_file` calls, then `done`. */
export function scriptedTurns(steps: number): ScriptedTurn[] {
  return [
    ...Array.from({ length: toolCallsIn(steps) }, (_, i) => ({
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

/** harness-bench under `config`: tools and sandbox built once; a scripted model per run (it is the script). */
export function harness(config: HarnessConfig): System {
  return (workspace) => {
    const tools = [FILE_TOOLS.read_file!];
    const sandbox = new LocalSandbox({ allowExec: false });
    return async (steps) => {
      const result = await runHarness({
        task: 'read the files',
        config,
        model: new ScriptedModel(scriptedTurns(steps)),
        tools,
        sandbox,
        workspace,
        deps: runDeps(),
      });
      if (result.stopReason !== 'final_answer')
        throw new Error(`harness-bench: ${result.stopReason} ${result.stopDetail}`);
      expectCalls('harness-bench', result.usage.toolCalls, steps);
    };
  };
}

/** A language model of the AI SDK's provider specification (v3), as `generateText` takes it. */
type AiSdkModel = Extract<LanguageModel, { specificationVersion: 'v3' }>;

/**
 * Vercel AI SDK 6, set up as its documentation shows for a tool-calling loop: `tool()` with an
 * `inputSchema`, passed to `generateText` with `stopWhen: stepCountIs(N)` (ai-sdk.dev, "Tools and
 * Tool Calling", multi-step calls). The schema is `jsonSchema(...)` with a `validate` function
 * (ai-sdk.dev reference, "jsonSchema()": an alternative to zod "for using other validation
 * libraries"), run by the same compiled ajv validator as the floor: the SDK takes it as it is,
 * where a bare zod schema is wrapped anew and converted to JSON Schema on every step. The tool and
 * the model are built once; the model is a plain object of the provider specification
 * (`specificationVersion: 'v3'`) that plays the script and, unlike `MockLanguageModelV3` of
 * `ai/test`, keeps no record of the prompts it was sent.
 */
export const aiSdk: System = (workspace) => {
  let step = 0;
  let calls = 0;
  let made = 0;
  const usage = {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 5, text: 5, reasoning: undefined },
  };
  const model: AiSdkModel = {
    specificationVersion: 'v3',
    provider: 'bench',
    modelId: 'scripted',
    supportedUrls: {},
    doGenerate: async () => {
      const i = step++;
      if (i < calls)
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
    doStream: async () => {
      throw new Error('the workload never streams');
    },
  };
  // The same schema, its readonly `required` list copied into the SDK's `JSONSchema7` type.
  const readArgsJsonSchema: JSONSchema7 = { ...READ_ARGS_SCHEMA, required: [...READ_ARGS_SCHEMA.required] };
  const tools = {
    read_file: aiTool({
      description: 'Read a text file of the workspace.',
      inputSchema: jsonSchema<ReadArgs>(readArgsJsonSchema, {
        validate: (value) =>
          validateArgs(value)
            ? { success: true, value }
            : { success: false, error: new Error(ajv.errorsText(validateArgs.errors)) },
      }),
      execute: async (args) => {
        made += 1;
        return readLines(workspace, args);
      },
    }),
  };
  return async (steps) => {
    step = 0;
    made = 0;
    calls = toolCallsIn(steps);
    const result = await generateText({
      model,
      prompt: 'read the files',
      tools,
      stopWhen: stepCountIs(steps),
    });
    if (result.text !== 'done') throw new Error(`ai-sdk: ended with ${result.finishReason}`);
    expectCalls('ai-sdk', made, steps);
  };
};

setTracingDisabled(true);

/** A fake Agents SDK model that plays the workload; {@link FakeAgentsModel.script} starts a run. */
class FakeAgentsModel implements AgentsModel {
  private step = 0;
  private calls = 0;
  /** Starts a run of `steps` steps (N − 1 tool calls, then the final answer). */
  script(steps: number): void {
    this.step = 0;
    this.calls = toolCallsIn(steps);
  }
  async getResponse(_request: AgentsRequest): Promise<AgentsResponse> {
    const i = this.step++;
    const usage = new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 });
    if (i < this.calls)
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

/**
 * OpenAI Agents SDK 0.20, set up as its documentation shows: a function tool made with `tool()`
 * and a zod object for `parameters` (openai.github.io/openai-agents-js, guide "Tools", function
 * tools; the SDK converts the schema once, when the tool is made, and parses each call's
 * arguments with it), one `Agent` holding the tool and the model (guide "Agents"), and `run(agent,
 * input)` per request (guide "Running agents"). The schema, tool and agent are built once.
 */
export const openaiAgents: System = (workspace) => {
  let made = 0;
  const model = new FakeAgentsModel();
  // The harness's read_file arguments; offset and limit are optional, `.nullish()` as the SDK's
  // strict schemas want (a plain `.optional()` loses its integer and minimum in the conversion).
  const parameters = z.object({
    path: z.string().min(1),
    offset: z.number().int().min(1).nullish(),
    limit: z.number().int().min(1).nullish(),
  });
  const agent = new Agent({
    name: 'reader',
    instructions: 'Read the files.',
    model,
    tools: [
      agentTool({
        name: 'read_file',
        description: 'Read a text file of the workspace.',
        parameters,
        execute: async (args) => {
          made += 1;
          return readLines(workspace, args);
        },
      }),
    ],
  });
  return async (steps) => {
    made = 0;
    model.script(steps);
    const result = await run(agent, 'read the files', { maxTurns: steps + 1 });
    if (result.finalOutput !== 'done') throw new Error('openai-agents: no final output');
    expectCalls('openai-agents', made, steps);
  };
};

/**
 * A system by its short name, for the command-line drivers (`profile.ts`, `gc-probe.ts`):
 * `default` or `session` (harness-bench configurations), `floor`, `floor + read`, `ai-sdk`,
 * `openai-agents`.
 * @throws on any other name, listing the known ones
 */
export function systemNamed(name: string): System {
  const systems: Record<string, System> = {
    default: harness(HARNESS_CONFIGS.default),
    session: harness(HARNESS_CONFIGS.session),
    floor,
    'floor + read': floorRead,
    'ai-sdk': aiSdk,
    'openai-agents': openaiAgents,
  };
  const system = systems[name];
  if (!system) throw new Error(`unknown system ${name}: one of ${Object.keys(systems).join(', ')}`);
  return system;
}
