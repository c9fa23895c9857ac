/**
 * The long-session benchmark: one scripted agent makes N tool calls in a row (outputs of a few
 * hundred to a few thousand tokens, every 50th one far larger than the window), once with the
 * context layers on and once "naive" (every layer off, nothing ever removed). It reports, per
 * bucket of turns: the largest prompt (tokens) of a request, the running total of tokens
 * (prompt + completion, summaries included), and the harness's own time per turn (wall time
 * between two model calls, the model itself taking no time). With the layers, prompts stay
 * under the window, totals grow linearly and per-turn time stays flat; naive prompts grow with
 * every turn, totals with its square.
 *
 *   npx tsx bench/long-session.ts [turns=1000] [window=32000]
 *
 * Timings are reported, never asserted (`harness/context/long-session.test.ts` checks the
 * token figures on a shorter session).
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CONFIG, mergeConfig, type PartialConfig } from '../harness/config.ts';
import { SUMMARY_INSTRUCTIONS } from '../harness/context/compaction.ts';
import { deterministicDeps } from '../harness/deps.ts';
import type { RunResult } from '../harness/ledger.ts';
import { runHarness } from '../harness/loop/run.ts';
import type { Model, ModelRequest, ModelResponse } from '../harness/model/types.ts';
import { LocalSandbox } from '../harness/sandbox/local.ts';
import { writeTodosTool } from '../harness/tools/builtin/memory-tools.ts';
import type { ToolDefinition } from '../harness/tools/types.ts';

/** Output of the `probe` tool for call number `n`: distinct text of about `tokens(n)` tokens. */
export function probeOutput(n: number): string {
  const tokens = n % 50 === 49 ? 60_000 : 200 + ((n * 7919) % 1800);
  const lines: string[] = [];
  for (let i = 0; lines.length * 9 < tokens; i += 1)
    lines.push(`probe ${n} line ${i}: value=${(n * 31 + i * 17) % 9973} status=ok`);
  return lines.join('\n');
}

const probeTool: ToolDefinition = {
  name: 'probe',
  description: 'Probe the system; returns a report.',
  parameters: {
    type: 'object',
    properties: { n: { type: 'integer' } },
    required: ['n'],
    additionalProperties: false,
  },
  effect: 'read',
  async execute(args) {
    return { ok: true, content: probeOutput(args.n as number) };
  },
};

/** A model that calls `probe` `turns` times (updating its todo list every 100 calls), answers summary requests, then finishes. */
class LongSessionModel implements Model {
  readonly name = 'long-session';
  calls = 0;
  /** performance.now() when each generate() started and ended. */
  readonly entered: number[] = [];
  readonly left: number[] = [];

  constructor(private readonly turns: number) {}

  async generate(request: ModelRequest): Promise<ModelResponse> {
    this.entered.push(performance.now());
    try {
      if (request.messages[0]?.content === SUMMARY_INSTRUCTIONS)
        return {
          content: `Probed the system ${this.calls} times; all reports were ok; values vary per call. Next: keep probing.`,
          toolCalls: [],
          finishReason: 'stop',
        };
      const n = this.calls;
      this.calls += 1;
      if (n >= this.turns)
        return { content: `Done after ${this.turns} probes.`, toolCalls: [], finishReason: 'stop' };
      if (n % 100 === 0) {
        const todos = [
          {
            content: `probe batch ${n / 100}`,
            activeForm: `probing batch ${n / 100}`,
            status: 'in_progress',
          },
          { content: 'write the report', activeForm: 'writing the report', status: 'pending' },
        ];
        return {
          content: null,
          toolCalls: [
            {
              id: `todo_${n}`,
              type: 'function',
              function: { name: 'write_todos', arguments: JSON.stringify({ todos }) },
            },
          ],
          finishReason: 'tool_calls',
        };
      }
      return {
        content: null,
        toolCalls: [
          {
            id: `call_${n}`,
            type: 'function',
            function: { name: 'probe', arguments: JSON.stringify({ n }) },
          },
        ],
        finishReason: 'tool_calls',
      };
    } finally {
      this.left.push(performance.now());
    }
  }
}

/** One bucket of the curve. Tokens in tokens, time in ms. */
export interface CurvePoint {
  /** Last model call of the bucket (1-based). */
  call: number;
  /** Largest prompt of a request in the bucket. */
  maxPromptTokens: number;
  /** Prompt + completion tokens of every call so far. */
  totalTokens: number;
  /** Mean harness time per model call in the bucket (time outside the model). */
  harnessMsPerCall: number;
}

/** The outcome of one long session. */
export interface LongSessionResult {
  stopReason: RunResult['stopReason'];
  modelCalls: number;
  compactions: Record<string, number>;
  maxPromptTokens: number;
  totalTokens: number;
  curve: CurvePoint[];
}

/** Every context layer off, nothing capped: the naive baseline. */
export const NAIVE: PartialConfig = {
  context: {
    windowTokens: 1_000_000_000,
    toolOutputMaxChars: 1_000_000_000,
    layers: { cap: false, spill: false, stub: false, drop: false, compact: false, reminder: false },
  },
};

/** Runs one session of `turns` probes under `partial` (merged over the defaults) and returns its curve. */
export async function runLongSession(
  turns: number,
  partial: PartialConfig,
  buckets = 10,
): Promise<LongSessionResult> {
  const workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-long-')));
  try {
    const config = mergeConfig(
      mergeConfig(DEFAULT_CONFIG, {
        limits: {
          maxTurns: turns + 10,
          maxToolCalls: turns + 10,
          maxTokens: Number.MAX_SAFE_INTEGER,
          maxCostUsd: 1e12,
          maxWallMs: 1e12,
        },
        permissions: { mode: 'auto' },
      }),
      partial,
    );
    const model = new LongSessionModel(turns);
    const result = await runHarness({
      task: `Probe the system ${turns} times, then report.`,
      config,
      model,
      tools: [probeTool, writeTodosTool as unknown as ToolDefinition],
      sandbox: new LocalSandbox({ allowExec: false }),
      workspace,
      deps: deterministicDeps(),
    });
    const perCall = result.ledger.turns.map((t) => t.promptTokens + t.completionTokens);
    const prompts = result.ledger.turns.map((t) => t.promptTokens);
    const harnessMs = model.entered.map((at, i) => (i === 0 ? 0 : at - model.left[i - 1]!));
    const size = Math.max(1, Math.ceil(perCall.length / buckets));
    const curve: CurvePoint[] = [];
    let running = 0;
    for (let start = 0; start < perCall.length; start += size) {
      const end = Math.min(perCall.length, start + size);
      for (let i = start; i < end; i += 1) running += perCall[i]!;
      const times = harnessMs.slice(Math.max(1, start), end);
      curve.push({
        call: end,
        maxPromptTokens: Math.max(...prompts.slice(start, end)),
        totalTokens: running,
        harnessMsPerCall: times.reduce((a, b) => a + b, 0) / Math.max(1, times.length),
      });
    }
    const compactions: Record<string, number> = {};
    for (const e of result.events)
      if (e.type === 'compaction') compactions[e.layer] = (compactions[e.layer] ?? 0) + 1;
    return {
      stopReason: result.stopReason,
      modelCalls: result.usage.modelCalls,
      compactions,
      maxPromptTokens: result.usage.maxPromptTokens,
      totalTokens: result.usage.totalTokens,
      curve,
    };
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

function table(name: string, r: LongSessionResult): void {
  console.log(
    `\n${name}: ${r.modelCalls} model calls, stop ${r.stopReason}, largest prompt ${r.maxPromptTokens.toLocaleString('en-US')} tokens, total ${r.totalTokens.toLocaleString('en-US')} tokens, layers ${JSON.stringify(r.compactions)}`,
  );
  console.table(
    r.curve.map((p) => ({
      'calls ≤': p.call,
      'max prompt tokens': p.maxPromptTokens,
      'total tokens so far': p.totalTokens,
      'harness ms / call': Number(p.harnessMsPerCall.toFixed(2)),
    })),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const turns = Number(process.argv[2] ?? 1000);
  const window = Number(process.argv[3] ?? 32_000);
  const layered = await runLongSession(turns, { context: { windowTokens: window } });
  table(`layered (window ${window.toLocaleString('en-US')})`, layered);
  const summaries = await runLongSession(turns, {
    context: { windowTokens: window, layers: { stub: false } },
  });
  table(`summary compaction only (stubs off, window ${window.toLocaleString('en-US')})`, summaries);
  const naive = await runLongSession(turns, NAIVE);
  table('naive (nothing removed)', naive);
  const half = (r: LongSessionResult) => r.curve[Math.floor(r.curve.length / 2) - 1]!;
  const growth = (r: LongSessionResult) => r.totalTokens / half(r).totalTokens;
  const flat = (r: LongSessionResult) =>
    r.curve.at(-1)!.harnessMsPerCall / Math.max(1e-6, r.curve[0]!.harnessMsPerCall);
  console.log(
    `\ntotal tokens, whole run ÷ first half: layered ${growth(layered).toFixed(2)}, summaries only ${growth(summaries).toFixed(2)} (linear ≈ 2), naive ${growth(naive).toFixed(2)} (quadratic ≈ 4)`,
  );
  console.log(
    `harness ms per call, last bucket ÷ first bucket: layered ${flat(layered).toFixed(2)}, summaries only ${flat(summaries).toFixed(2)}, naive ${flat(naive).toFixed(2)}`,
  );
  console.log(
    `largest prompt: layered ${layered.maxPromptTokens}, summaries only ${summaries.maxPromptTokens} (window ${window}); naive ${naive.maxPromptTokens}`,
  );
}
