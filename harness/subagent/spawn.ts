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
 *
 * A child is the same loop: `loop/run.ts` runs it with `runHarness` itself, between
 * {@link openChild} (admission and the child's options) and {@link closeChild} (usage into the
 * parent's `RunState`, `subagent_end`, the report), so no run function is handed around.
 */
import { mergeConfig, type HarnessConfig } from '../config.ts';
import type { HarnessDeps } from '../deps.ts';
import type { HarnessEvent, UnstampedEvent } from '../events.ts';
import type { RunResult } from '../ledger.ts';
import type { RunOptions, RunState, SubagentLink } from '../run-types.ts';
import type { SkillCatalog } from '../memory/skills.ts';
import type { Model } from '../model/types.ts';
import { CHILD_EXCLUDED_TOOLS, childScope } from '../policy/child-policy.ts';
import type { Sandbox } from '../sandbox/types.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { ToolOutput } from '../tools/types.ts';
import { SubagentPool } from './pool.ts';
import { subagentReport } from './report.ts';

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
  /** The parent's state: budgets left are read at spawn, the child's usage is added after; child events go to its `events`. */
  state: RunState;
  emit: (event: UnstampedEvent) => void;
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

/** A child ready to run: its options, and what closing it needs. */
export interface ChildRun {
  options: RunOptions;
  depth: number;
  maxTurns: number;
}

/**
 * Admits a subagent for one `task` call, or refuses it: too deep, `subagent.maxTotal` reached,
 * or a budget of the parent already spent (the refusal is the tool output). An admitted child
 * counts against `maxTotal` at once; its run options carry the narrowed scope, the parent's
 * remaining budgets, `plan` mode, and an event sink that re-sequences its events into the
 * parent's stream. The caller takes a slot of `parent.link.pool` before running it.
 */
export function openChild(
  parent: SpawnParent,
  description: string,
  call: { callId: string; signal: AbortSignal },
): { refused: ToolOutput } | { child: ChildRun } {
  const { config } = parent;
  const depth = parent.link.depth + 1;
  if (depth > config.subagent.maxDepth)
    return {
      refused: {
        ok: false,
        errorType: 'subagent_depth_exceeded',
        message: `maximum nesting depth ${config.subagent.maxDepth} reached (this agent runs at depth ${parent.link.depth}); no subagent was started: use your own tools to do this part of the work`,
      },
    };
  const { count } = parent.link;
  if (count.spawned >= count.maxTotal)
    return {
      refused: {
        ok: false,
        errorType: 'not_executed',
        message: `not executed: this run has started its ${count.maxTotal} subagents (subagent.maxTotal); do the rest with your own tools`,
      },
    };
  const { totals } = parent.state;
  const limits = config.limits;
  const remaining = {
    maxTokens: limits.maxTokens - totals.promptTokens - totals.completionTokens,
    maxCostUsd: limits.maxCostUsd - totals.costUsd,
    maxWallMs: limits.maxWallMs - (parent.deps.now() - parent.state.startedMs),
    maxToolCalls: limits.maxToolCalls - totals.toolCalls,
  };
  const spent = Object.entries(remaining).find(([, left]) => left <= 0);
  if (spent)
    return {
      refused: {
        ok: false,
        errorType: 'not_executed',
        message: `not executed: the run's ${spent[0]} budget is spent, so no subagent can start`,
      },
    };

  count.spawned += 1;
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
  const events = parent.state.events;
  const forward = (event: HarnessEvent) => {
    const nested = { ...event, seq: events.length, scope: [call.callId, ...event.scope] } as HarnessEvent;
    events.push(nested);
    parent.deps.onEvent?.(nested);
  };
  const deps: HarnessDeps = { ...parent.deps, onEvent: forward };
  const options: RunOptions = {
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
    taint: parent.state.taint,
    memory: {
      skills: parent.skills,
      subagent: { depth, pool: new SubagentPool(config.subagent.maxConcurrency), count, policy: scope },
    },
  };
  return { child: { options, depth, maxTurns: childConfig.limits.maxTurns } };
}

/**
 * Closes a child that ran: adds its usage to the parent's totals and its requests to the
 * parent's, emits `subagent_end`, and returns the report (`report.ts`) as the tool output.
 */
export function closeChild(
  parent: SpawnParent,
  child: ChildRun,
  call: { callId: string },
  result: RunResult,
): ToolOutput {
  const { totals, requests } = parent.state;
  totals.modelCalls += result.usage.modelCalls;
  totals.promptTokens += result.usage.promptTokens;
  totals.completionTokens += result.usage.completionTokens;
  totals.costUsd += result.usage.costUsd;
  totals.maxPromptTokens = Math.max(totals.maxPromptTokens, result.usage.maxPromptTokens);
  totals.toolCalls += result.usage.toolCalls;
  for (const request of result.requests) requests.push(request);
  parent.emit({ type: 'subagent_end', callId: call.callId, stopReason: result.stopReason });
  return subagentReport(result, { depth: child.depth, maxTurns: child.maxTurns });
}

/** The tool output of a child whose run threw (a harness bug or misconfiguration), after `subagent_end`. */
export function childFailed(parent: SpawnParent, call: { callId: string }, error: unknown): ToolOutput {
  parent.emit({ type: 'subagent_end', callId: call.callId, stopReason: 'model_error' });
  return {
    ok: false,
    errorType: 'tool_failed',
    message: `the subagent could not run: ${(error as Error)?.message ?? String(error)}`,
  };
}
