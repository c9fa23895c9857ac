/**
 * Runs one fuzz case the way `harness-bench run` runs a scenario (`eval/run-scenario.ts`): the
 * scenario's configuration merged over the base, its built-in and fake tools, its temp
 * workspace and `$OUTSIDE`, the scripted approver, deterministic deps, and the scripted model
 * (or the wire transport). It only adds observers: the approver's answers, the tools' real
 * executions and the requests the model received, so the oracles can compare the harness's
 * account of the run with what happened.
 */
import { deterministicDeps } from '../../harness/deps.ts';
import type { HarnessConfig } from '../../harness/config.ts';
import { runHarness } from '../../harness/loop/run.ts';
import { ScriptedModel } from '../../harness/model/scripted-model.ts';
import type { ApprovalAnswer } from '../../harness/policy/types.ts';
import { createSandbox } from '../../harness/sandbox/factory.ts';
import type { ToolDefinition } from '../../harness/tools/types.ts';
import { scenarioConfig, scenarioTools } from '../run-scenario.ts';
import { scriptedApprover } from '../scenario/approver.ts';
import type { Execution, FuzzCase, Observation } from './types.ts';
import { WireModel } from './wire.ts';
import { ReusableWorkspace } from './workspace.ts';

/** A run that takes longer than this (wall clock, ms) is reported as a hang. */
export const RUN_TIMEOUT_MS = 20_000;

function observed(tool: ToolDefinition, executions: Execution[]): ToolDefinition {
  return {
    ...tool,
    execute: (args, context) => {
      executions.push({ callId: context.callId, tool: tool.name, resolvedPaths: [...context.resolvedPaths] });
      return tool.execute(args, context);
    },
  };
}

let shared: ReusableWorkspace | undefined;

/** Removes the process's fuzz workspace (call when a fuzzing session ends). Never throws. */
export function disposeFuzzWorkspace(): void {
  shared?.dispose();
  shared = undefined;
}

/**
 * Runs `fuzzCase` under `base` (the configuration `harness-bench run` would use by default), in
 * the process's reusable workspace (runs of one process are sequential).
 * Never rejects: a throw or a hang of `runHarness` is recorded in `thrown`.
 */
export async function runCase(fuzzCase: FuzzCase, base: HarnessConfig): Promise<Observation> {
  const { scenario, transport } = fuzzCase;
  const config = scenarioConfig(scenario, base);
  shared ??= new ReusableWorkspace();
  const built = shared.build(scenario.workspace);
  const executions: Execution[] = [];
  const answers = new Map<string, ApprovalAnswer>();
  const deps = deterministicDeps();
  const approver = scriptedApprover(scenario.approver, built.workspace);
  deps.approver = async (request) => {
    const answer = await approver(request);
    answers.set(request.callId, answer);
    return answer;
  };
  const model =
    transport.kind === 'wire'
      ? new WireModel(scenario.model, transport.cuts, deps, transport.shape)
      : new ScriptedModel(scenario.model);
  const tools = scenarioTools(scenario, config);
  const observation: Observation = {
    tools: new Map(tools.map((t) => [t.name, { effect: t.effect, paths: t.paths !== undefined }])),
    config,
    workspace: built.workspace,
    received: model.calls,
    answers,
    executions,
    outsideChanges: [],
    transportMismatches: model instanceof WireModel ? model.mismatches : [],
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    const run = runHarness({
      task: scenario.task,
      config,
      model,
      tools: tools.map((tool) => observed(tool, executions)),
      sandbox: createSandbox(config.sandbox.kind, built.workspace),
      workspace: built.workspace,
      deps,
    });
    const hang = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the run did not end within ${RUN_TIMEOUT_MS} ms`)),
        RUN_TIMEOUT_MS,
      );
    });
    observation.result = await Promise.race([run, hang]);
  } catch (error) {
    observation.thrown = (error as Error)?.stack ?? String(error);
  } finally {
    clearTimeout(timer);
  }
  observation.outsideChanges = shared.outsideChanges(scenario.workspace);
  return observation;
}
