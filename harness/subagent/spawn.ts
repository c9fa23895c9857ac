/**
 * The `task` tool's engine: a child run with a fresh history (the description is its task), a
 * capability never above the parent's, and limits of its own (`docs/architecture.md`
 * §8):
 * - tools: the parent's minus the withheld ones (`task`, `write_todos`, `write_file`,
 *   `str_replace`, `save_note` and any tool of the write or irreversible class whose calls are
 *   not classified per command); `task` stays only while the child may still nest. Withheld
 *   tools are not declared to the child and are refused at dispatch (`allowedTools`), except
 *   `task`, which always reaches its depth check, for models that call it anyway (H02);
 * - policy: the parent's scope narrowed by `policy/child-policy.ts` (decisions taken under the
 *   whole chain) and `plan` mode, so no write runs whatever the parent's mode (H01,
 *   anthropics/claude-code#64162: plan mode did not carry over to children);
 * - limits: `subagent.maxTurns`, `subagent.maxDepth` (deeper → `subagent_depth_exceeded`, H02,
 *   anomalyco/opencode#18100), `subagent.maxConcurrency` children at a time and
 *   `subagent.maxTotal` per top-level run; the parent's remaining token, cost, time and tool-call
 *   budgets, and the child's usage is added to the parent's afterwards;
 * - events: the child's events go into the parent's stream with `scope` prefixed by the call id;
 *   only the report crosses back (`report.ts`).
 */
import { mergeConfig, type HarnessConfig } from '../config.ts';
import type { HarnessDeps } from '../deps.ts';
import type { HarnessEvent, UnstampedEvent } from '../events.ts';
import type { RunResult } from '../ledger.ts';
import type { RunOptions } from '../loop/run.ts';
import type { Model, ModelRequest } from '../model/types.ts';
import { CHILD_EXCLUDED_TOOLS, childScope, type PolicyScope } from '../policy/child-policy.ts';
import type { TaintState } from '../policy/taint.ts';
import type { Sandbox } from '../sandbox/types.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { ToolOutput } from '../tools/types.ts';
import type { SkillCatalog } from '../memory/skills.ts';
import { subagentReport } from './report.ts';

/**
 * The concurrency gate of one run's children (each run has its own, so a child waiting for its
 * own children never blocks on a slot its parent holds).
 */
export class SubagentPool {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly maxConcurrency: number) {}

  /** Waits for a free slot (first come, first served). */
  async acquire(): Promise<void> {
    if (this.active < this.maxConcurrency) {
      this.active += 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Frees a slot, handing it to the next waiting child. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active -= 1;
  }
}

/** Subagents started under one top-level run, against `subagent.maxTotal`; shared by the whole tree. */
export interface SpawnCount {
  spawned: number;
  maxTotal: number;
}

/**
 * How a run sits in the tree of agents: its depth (0 for the top level), the gate of its own
 * children, the tree's spawn count and its policy scope.
 */
export interface SubagentLink {
  depth: number;
  pool: SubagentPool;
  count: SpawnCount;
  policy: PolicyScope;
}

/** A run's live usage and state, read lazily (subagents add their usage to it). Tokens, USD, ms. */
export interface RunLiveState {
  totals: {
    modelCalls: number;
    promptTokens: number;
    completionTokens: number;
    maxPromptTokens: number;
    costUsd: number;
  };
  counters: { toolCalls: number };
  requests: ModelRequest[];
  taint?: TaintState;
  startedMs: number;
}

/** The parent's side of a spawn. */
export interface SpawnParent {
  config: HarnessConfig;
  registry: ToolRegistry;
  model: Model;
  sandbox: Sandbox;
  workspace: string;
  deps: HarnessDeps;
  link: SubagentLink;
  skills: SkillCatalog;
  /** The parent's event list (child events are appended, re-sequenced) and emitter. */
  events: HarnessEvent[];
  emit: (event: UnstampedEvent) => void;
  /** The parent's live totals, counters, requests and taint (read at spawn, updated after). */
  state: () => RunLiveState;
  run: (options: RunOptions) => Promise<RunResult>;
}

/** The tools a child at `depth` may use, from its parent's scope. */
export function childTools(parent: SpawnParent, depth: number): string[] {
  const allowed = parent.link.policy.tools.filter((name) => {
    if (CHILD_EXCLUDED_TOOLS.includes(name)) return false;
    const tool = parent.registry.get(name)?.definition;
    return !tool || tool.effect === 'read' || tool.command !== undefined;
  });
  if (depth < parent.config.subagent.maxDepth && parent.link.policy.tools.includes('task'))
    allowed.push('task');
  return allowed;
}

const SUBAGENT_NOTE =
  'You are a subagent: another agent gave you the task below. Work only with the tools you have (you cannot change files), then answer with a concise report of what you found; only that answer reaches the other agent.';

/** Runs a subagent for one `task` call and returns its report as the tool output. Never rejects. */
export async function spawnSubagent(
  parent: SpawnParent,
  description: string,
  call: { callId: string; signal: AbortSignal },
): Promise<ToolOutput> {
  const { config } = parent;
  const depth = parent.link.depth + 1;
  if (depth > config.subagent.maxDepth)
    return {
      ok: false,
      errorType: 'subagent_depth_exceeded',
      message: `maximum nesting depth ${config.subagent.maxDepth} reached (this agent runs at depth ${parent.link.depth}); no subagent was started: use your own tools to do this part of the work`,
    };
  const { pool, count } = parent.link;
  if (count.spawned >= count.maxTotal)
    return {
      ok: false,
      errorType: 'not_executed',
      message: `not executed: this run has started its ${count.maxTotal} subagents (subagent.maxTotal); do the rest with your own tools`,
    };
  const state = parent.state();
  const limits = config.limits;
  const remaining = {
    maxTokens: limits.maxTokens - state.totals.promptTokens - state.totals.completionTokens,
    maxCostUsd: limits.maxCostUsd - state.totals.costUsd,
    maxWallMs: limits.maxWallMs - (parent.deps.now() - state.startedMs),
    maxToolCalls: limits.maxToolCalls - state.counters.toolCalls,
  };
  const spent = Object.entries(remaining).find(([, left]) => left <= 0);
  if (spent)
    return {
      ok: false,
      errorType: 'not_executed',
      message: `not executed: the run's ${spent[0]} budget is spent, so no subagent can start`,
    };

  count.spawned += 1;
  await pool.acquire();
  try {
    const tools = childTools(parent, depth);
    const scope = childScope(parent.link.policy, {
      tools: tools.filter((t) => t !== 'task' || depth < config.subagent.maxDepth),
      mode: 'plan',
      maxTurns: config.subagent.maxTurns,
    });
    const childConfig: HarnessConfig = mergeConfig(scope.config, {
      systemPrompt: config.systemPrompt ? `${config.systemPrompt}\n\n${SUBAGENT_NOTE}` : SUBAGENT_NOTE,
      limits: {
        maxTokens: remaining.maxTokens,
        maxCostUsd: remaining.maxCostUsd,
        maxWallMs: remaining.maxWallMs,
        maxToolCalls: Math.min(scope.config.limits.maxToolCalls, remaining.maxToolCalls),
        wrapUpTurn: false,
      },
      session: { enabled: false, resume: null },
    });
    const forward = (event: HarnessEvent) => {
      const nested = {
        ...event,
        seq: parent.events.length,
        scope: [call.callId, ...event.scope],
      } as HarnessEvent;
      parent.events.push(nested);
      parent.deps.onEvent?.(nested);
    };
    const deps: HarnessDeps = { ...parent.deps, onEvent: forward };
    parent.emit({ type: 'subagent_start', callId: call.callId, depth, description });
    let result: RunResult;
    try {
      result = await parent.run({
        task: description,
        config: childConfig,
        model: parent.model,
        tools: parent.registry,
        sandbox: parent.sandbox,
        workspace: parent.workspace,
        deps,
        signal: call.signal,
        toolSchemas: parent.registry.schemas().filter((s) => scope.tools.includes(s.function.name)),
        ancestors: scope.ancestors,
        allowedTools: [...scope.tools.filter((t) => t !== 'task'), 'task'],
        ...(state.taint ? { taint: state.taint } : {}),
        memory: {
          skills: parent.skills,
          subagent: { depth, pool: new SubagentPool(config.subagent.maxConcurrency), count, policy: scope },
        },
      });
    } catch (error) {
      parent.emit({ type: 'subagent_end', callId: call.callId, stopReason: 'model_error' });
      return {
        ok: false,
        errorType: 'tool_failed',
        message: `the subagent could not run: ${(error as Error)?.message ?? String(error)}`,
      };
    }
    const live = parent.state();
    live.totals.modelCalls += result.usage.modelCalls;
    live.totals.promptTokens += result.usage.promptTokens;
    live.totals.completionTokens += result.usage.completionTokens;
    live.totals.costUsd += result.usage.costUsd;
    live.totals.maxPromptTokens = Math.max(live.totals.maxPromptTokens, result.usage.maxPromptTokens);
    live.counters.toolCalls += result.usage.toolCalls;
    live.requests.push(...result.requests);
    parent.emit({ type: 'subagent_end', callId: call.callId, stopReason: result.stopReason });
    return subagentReport(result, { depth, maxTurns: childConfig.limits.maxTurns });
  } finally {
    pool.release();
  }
}
