// Independent per-step probe: the three systems, each with the same scripted workload.
// A run of N steps = N - 1 `read_file` calls, each on a distinct file, then a final answer.
// Written against the public API only (harness/index.ts exports, `ai` 6 docs); no bench/ code.
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository: `$HB_ROOT`, default two folders up from this file (`bench/independent/`). */
export const HB_ROOT =
  process.env.HB_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const TASK = 'Read the files one by one and then answer.';

// PROBE_FLAT=1: all files in the workspace root (default: 10 folders of 100).
export const fileName = (i) =>
  process.env.PROBE_FLAT === '1'
    ? `f${String(i).padStart(4, '0')}.txt`
    : `dir${String(Math.floor(i / 100)).padStart(2, '0')}/f${String(i).padStart(4, '0')}.txt`;
// PROBE_READ_LIMIT=k: each call asks for k lines from an offset moving with i (needs files of >= 100 + k lines).
const READ_LIMIT = process.env.PROBE_READ_LIMIT ? Number(process.env.PROBE_READ_LIMIT) : undefined;
export const argsOf = (i) =>
  JSON.stringify(
    READ_LIMIT ? { path: fileName(i), offset: (i % 100) + 1, limit: READ_LIMIT } : { path: fileName(i) },
  );
/** The peers' and the floor's tool body: the file read with fs; with offset/limit, those numbered lines. */
export function readBody(ws, args) {
  const text = readFileSync(path.join(ws, args.path), 'utf8');
  if (args.limit === undefined) return text;
  const lines = text.split('\n');
  const first = (args.offset ?? 1) - 1;
  return lines
    .slice(first, first + args.limit)
    .map((l, k) => `${first + k + 1}\t${l}`)
    .join('\n');
}

/** Floor: JSON.parse of the arguments + readFileSync, result appended. Nothing else. */
export async function makeFloor(ws) {
  const argStrings = Array.from({ length: 1000 }, (_, i) => argsOf(i));
  return {
    name: 'floor',
    async run(N) {
      const out = [];
      for (let i = 0; i < N - 1; i += 1) {
        const args = JSON.parse(argStrings[i]);
        out.push(readBody(ws, args));
      }
      out.push('done'); // the final answer "step"
      if (out.length !== N) throw new Error('floor: wrong step count');
      return out.length;
    },
  };
}

/**
 * harness-bench, default configuration (configs/default.json merged over DEFAULT_CONFIG), driven
 * by the exported ScriptedModel (or a plain Model object with PROBE_OURS_MODEL=plain).
 * Only change to the default config: limits.maxTurns / maxToolCalls / maxTokens / maxCostUsd raised so a 1,000-step run
 * is allowed at all (default 50 turns / 200 calls / 2M cumulative prompt tokens / $5); PROBE_RAISE_LIMITS=0 disables that.
 */
export async function makeOurs(ws) {
  const hb = await import(pathToFileURL(path.join(HB_ROOT, 'harness/index.ts')).href);
  // PROBE_CONFIG=builtin: DEFAULT_CONFIG alone (what bench/systems.ts uses); else a config file (default configs/default.json)
  const cfgName = process.env.PROBE_CONFIG ?? 'configs/default.json';
  let config =
    cfgName === 'builtin'
      ? hb.DEFAULT_CONFIG
      : hb.mergeConfig(hb.DEFAULT_CONFIG, JSON.parse(readFileSync(path.resolve(HB_ROOT, cfgName), 'utf8')));
  if (process.env.PROBE_RAISE_LIMITS !== '0')
    config = hb.mergeConfig(config, {
      limits: { maxTurns: 2000, maxToolCalls: 2000, maxTokens: 1e12, maxCostUsd: 1e9 },
    });
  const toolNames = (process.env.PROBE_OURS_TOOLS ?? 'read_file').split(',');
  const registry = new hb.ToolRegistry(hb.builtinTools(toolNames)); // built once, outside the measured runs
  const useDeterministic = process.env.PROBE_OURS_DEPS === 'deterministic';
  const plainModel = process.env.PROBE_OURS_MODEL === 'plain';
  const withUsage = process.env.PROBE_OURS_USAGE === '1';
  const scripts = new Map();
  const scriptFor = (N) => {
    let s = scripts.get(N);
    if (!s) {
      s = [];
      for (let i = 0; i < N - 1; i += 1)
        s.push({
          tool_calls: [{ id: `call_${i}`, name: 'read_file', arguments: argsOf(i) }],
          ...(withUsage ? { usage: { prompt_tokens: 1000 + 120 * i, completion_tokens: 20 } } : {}),
        });
      s.push({
        content: 'All files read.',
        ...(withUsage ? { usage: { prompt_tokens: 1000 + 120 * N, completion_tokens: 5 } } : {}),
      });
      scripts.set(N, s);
    }
    return s;
  };
  const plain = (N) => {
    let k = 0;
    return {
      name: 'plain-scripted',
      async generate() {
        const i = k++;
        if (i < N - 1)
          return {
            content: null,
            toolCalls: [
              { id: `call_${i}`, type: 'function', function: { name: 'read_file', arguments: argsOf(i) } },
            ],
            finishReason: 'tool_calls',
          };
        return { content: 'All files read.', toolCalls: [], finishReason: 'stop' };
      },
    };
  };
  // PROBE_OURS_SANDBOX=local: one LocalSandbox({ allowExec: false }) for the process (what bench/systems.ts does);
  // default: createSandbox(config.sandbox.kind) per run, as the configuration asks ('auto' = bubblewrap on Linux)
  const sharedSandbox =
    process.env.PROBE_OURS_SANDBOX === 'local' ? new hb.LocalSandbox({ allowExec: false }) : undefined;
  let lastResult;
  return {
    name: 'harness-bench',
    config,
    get lastResult() {
      return lastResult;
    },
    async run(N) {
      const model = plainModel ? plain(N) : new hb.ScriptedModel(scriptFor(N));
      const result = await hb.runHarness({
        task: TASK,
        config,
        model,
        tools: registry,
        sandbox: sharedSandbox ?? hb.createSandbox(config.sandbox.kind, ws),
        workspace: ws,
        deps: useDeterministic ? hb.deterministicDeps() : hb.liveDeps(),
      });
      if (
        result.stopReason !== 'final_answer' ||
        result.usage.toolCalls !== N - 1 ||
        result.usage.turns !== N
      )
        throw new Error(
          `ours: run of ${N} ended ${result.stopReason} after ${result.usage.turns} turns, ${result.usage.toolCalls} calls`,
        );
      lastResult = result;
      return N;
    },
  };
}

/**
 * Vercel AI SDK 6 generateText, set up as its docs show: tool({ inputSchema: jsonSchema(...), execute })
 * made once; a plain LanguageModelV3 object that returns the next scripted step and keeps nothing.
 * PROBE_AI_VALIDATE=1 adds an ajv `validate` to jsonSchema (as the project's bench does).
 */
export async function makeAiSdk(ws) {
  const { generateText, tool, jsonSchema, stepCountIs } = await import('ai');
  const schema = {
    type: 'object',
    additionalProperties: false,
    required: ['path'],
    properties: {
      path: { type: 'string', minLength: 1, description: 'Path relative to the workspace root.' },
      offset: { type: 'integer', minimum: 1 },
      limit: { type: 'integer', minimum: 1 },
    },
  };
  let options;
  if (process.env.PROBE_AI_VALIDATE === '1') {
    const { default: Ajv } = await import('ajv');
    const v = new Ajv({ strict: false }).compile(schema);
    options = {
      validate: (value) =>
        v(value) ? { success: true, value } : { success: false, error: new Error(JSON.stringify(v.errors)) },
    };
  }
  const readFileTool = tool({
    description: 'Read a text file of the workspace.',
    inputSchema: jsonSchema(schema, options),
    execute: async (args) => readBody(ws, args),
  });
  const tools = { read_file: readFileTool };
  const usage = (i) => ({
    inputTokens: { total: 1000 + 120 * i, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 20, text: 20, reasoning: undefined },
  });
  const mockModel = (N) => {
    let k = 0;
    return {
      specificationVersion: 'v3',
      provider: 'probe',
      modelId: 'scripted',
      supportedUrls: {},
      async doGenerate() {
        const i = k++;
        if (i < N - 1)
          return {
            content: [
              { type: 'tool-call', toolCallId: `call_${i}`, toolName: 'read_file', input: argsOf(i) },
            ],
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
            usage: usage(i),
            warnings: [],
          };
        return {
          content: [{ type: 'text', text: 'All files read.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: usage(i),
          warnings: [],
        };
      },
      async doStream() {
        throw new Error('not used');
      },
    };
  };
  return {
    name: 'ai-sdk',
    async run(N) {
      const result = await generateText({
        model: mockModel(N),
        tools,
        prompt: TASK,
        stopWhen: stepCountIs(N + 1),
      });
      if (result.steps.length !== N || result.text !== 'All files read.')
        throw new Error(`ai-sdk: run of ${N} gave ${result.steps.length} steps`);
      return N;
    },
  };
}

export const FACTORIES = { floor: makeFloor, 'harness-bench': makeOurs, 'ai-sdk': makeAiSdk };
/** The workspace the children read: `$PROBE_WS` (probe.mjs and ab.mjs set it to a temp folder they make). */
export const wsPath = () => {
  if (!process.env.PROBE_WS) throw new Error('PROBE_WS is not set: make a workspace with setup-ws.mjs DIR');
  return realpathSync(process.env.PROBE_WS);
};
