/**
 * Runs one scenario against a foreign harness (`--harness FILE|NAME`, `docs/adapters.md`):
 * builds the workspace and `$OUTSIDE` as for our harness, serves the scenario's script on
 * 127.0.0.1 (`eval/serve/server.ts`) with the adapter's tool mapping, starts the harness
 * (`launch.ts`), then scores what it sent and left behind as a black box
 * (`eval/blackbox/score.ts`). A missing adapter requirement makes the case `skipped` with the
 * install hint; a harness that overruns its time limit makes it an `error` ("timed out after N s").
 */
import { priceFor, type HarnessConfig } from '../../harness/config.ts';
import { HarnessBenchError } from '../../harness/errors.ts';
import type { RunResult } from '../../harness/ledger.ts';
import type { ToolDefinition } from '../../harness/tools/types.ts';
import { projectForeignRun, type HarnessExit } from '../blackbox/project.ts';
import { blackBoxRun } from '../blackbox/run.ts';
import { scriptCallTools } from '../blackbox/goals.ts';
import { blackBoxChecks } from '../blackbox/score.ts';
import { resolveScorers } from '../expect/scorers.ts';
import type { BenchOptions } from '../config-load.ts';
import { caseMetrics } from '../metrics/case-facts.ts';
import { checkRequirements, unmetCase, type PrerequisitePolicy } from '../requirements.ts';
import {
  caseFromRun,
  describeFailure,
  errorCase,
  scrubPaths,
  skippedCase,
  type CaseResult,
} from '../results.ts';
import { scenarioCaseBase, scenarioConfig, scenarioTools, scrubTempFolders } from '../run-scenario.ts';
import { expectationsFor } from '../scenario/check.ts';
import type { LoadedScenario } from '../scenario/types.ts';
import { buildWorkspace, diffSnapshots, snapshotTree } from '../scenario/workspace.ts';
import { SERVE_API_KEY, startModelServer } from '../serve/server.ts';
import type { ToolMap } from '../serve/tool-map.ts';
import {
  caseLimits,
  conventionChecks,
  notForThisHarness,
  ownShellCalls,
  usesServedTools,
} from './applies.ts';
import { mcpEndpoints, startCaseToolServer, type CaseToolServer } from '../mcp/case-tools.ts';
import { launchCommand, launchModule, type AdapterTool, type LaunchOutput } from './launch.ts';
import { toolMapOf, type Adapter } from './load.ts';
import { unmetAdapterRequirements } from './requires.ts';
import { outboundHosts } from './sink.ts';
import { standInCommand } from './stand-ins.ts';
import { OUTSIDE_LABEL } from '../path-labels.ts';

/** A foreign harness's case: the result, the run as seen from outside (for the sidecar) and the harness's output. */
export interface AdapterRun {
  result: CaseResult;
  run?: RunResult;
  output?: LaunchOutput;
}

/** A tool schema in the harness's names: the tool renamed, its parameter keys (and `required`) renamed. Pure. */
export function mapToolSchema(
  tool: Pick<ToolDefinition, 'name' | 'description' | 'parameters'>,
  map: ToolMap | undefined,
): AdapterTool {
  const mapping = map?.[tool.name];
  const keys = mapping?.args ?? {};
  const parameters = { ...tool.parameters };
  if (Object.keys(keys).length > 0) {
    const properties = parameters.properties as Record<string, unknown> | undefined;
    if (properties)
      parameters.properties = Object.fromEntries(
        Object.entries(properties).map(([k, v]) => [keys[k] ?? k, v]),
      );
    if (Array.isArray(parameters.required))
      parameters.required = (parameters.required as string[]).map((k) => keys[k] ?? k);
  }
  return { name: mapping?.name ?? tool.name, description: tool.description, parameters };
}

/**
 * Runs `loaded` against `adapter` under the configuration `base` (its scenario `config` merged
 * over it decides the tools and the turn limit the harness is told). Never throws.
 */
export async function runAdapterScenario(
  loaded: LoadedScenario,
  base: { name: string; config: HarnessConfig; bench?: BenchOptions; expectAs?: string },
  adapter: Adapter,
  policy: PrerequisitePolicy = {},
): Promise<AdapterRun> {
  const { scenario } = loaded;
  const started = performance.now();
  const caseBase = scenarioCaseBase(loaded, base.name, base.expectAs);
  const harnessBlock = { name: adapter.name, kind: adapter.kind };
  const served = usesServedTools(adapter);
  if (!adapter.sandboxed && escapesTheHost(loaded))
    return {
      result: {
        ...skippedCase(
          caseBase,
          {
            requires: [],
            reason: served
              ? `an escape or sandbox case tests the box the tools run in, and ${adapter.name} runs the bench's tools (over MCP) in the bench's box: it would judge the bench, not ${adapter.name}`
              : `an escape or sandbox case would really write outside the workspace on this machine: ${adapter.name} runs its tools unboxed`,
            fix: served
              ? `set "sandboxed": true in the adapter file if ${adapter.name} confines the tools it runs itself`
              : 'run it with --harness ours, or set "sandboxed": true in the adapter file when the harness confines its own tools',
            declared: true,
          },
          started,
        ),
        harness: harnessBlock,
      },
    };
  const config = scenarioConfig(scenario, base.config);
  const limits = caseLimits(scenario, config, adapter.maxTurns);
  const expected = expectationsFor(scenario, base.expectAs ?? base.name);
  const notFor = notForThisHarness(scenario, config, limits, adapter, expected.stopReason);
  if (notFor)
    return {
      result: {
        ...skippedCase(caseBase, { requires: [], ...notFor, declared: true }, started),
        harness: harnessBlock,
      },
    };
  const unmetAdapter = unmetAdapterRequirements(adapter);
  // The scenario's prerequisites about our sandbox concern a harness on its own tools only when
  // they are the bench's (served over MCP, bash in our box); commands always do (evidence).
  const commands = served
    ? (scenario.requires ?? [])
    : (scenario.requires ?? []).filter((r) => r.startsWith('command:'));
  const context = { sandboxKind: served ? config.sandbox.kind : ('none' as const), ci: policy.ci === true };
  const unmet = [...unmetAdapter, ...(await checkRequirements(commands, context))];
  if (unmet.length > 0)
    return { result: { ...unmetCase(caseBase, unmet, true, context, started), harness: harnessBlock } };
  let built: Awaited<ReturnType<typeof buildWorkspace>> | undefined;
  let server: Awaited<ReturnType<typeof startModelServer>> | undefined;
  let toolServer: CaseToolServer | undefined;
  const toolMap = toolMapOf(adapter);
  try {
    built = await buildWorkspace(scenario);
    const before = await built.snapshotOutside();
    const workspaceBefore = await snapshotTree(built.workspace, true);
    server = await startModelServer({
      scenario,
      model: adapter.model,
      ...(toolMap ? { toolMap } : {}),
      stringifyObjectArguments: !(scenario.tags ?? []).includes('object-arguments'),
    });
    if (served)
      toolServer = await startCaseToolServer({
        scenario,
        config,
        workspace: built.workspace,
        servedTurn: () => server?.requests.at(-1)?.turn,
      });
    const input = {
      task: scenario.task,
      baseURL: server.baseURL,
      apiKey: SERVE_API_KEY,
      model: adapter.model,
      workspace: built.workspace,
      tools: scenarioTools(scenario, config).map((tool) => mapToolSchema(tool, toolMap)),
      ...(toolServer ? { mcp: mcpEndpoints(toolServer.url) } : {}),
      maxTurns: limits.maxTurns,
      limits,
      ...(adapter.approvals && scenario.approver ? { approver: scenario.approver } : {}),
      config,
    };
    const output =
      adapter.kind === 'command' ? await launchCommand(adapter, input) : await launchModule(adapter, input);
    const foreign = projectForeignRun(
      server.requests,
      scenario.model,
      toolMap,
      output.finalAnswer,
      harnessExit(output),
    );
    const outsideChanges = diffSnapshots(before, await built.snapshotOutside());
    const workspaceChanges = diffSnapshots(workspaceBefore, await snapshotTree(built.workspace, true));
    const env = { workspace: built.workspace, outside: built.outside, outsideChanges, workspaceChanges };
    const subject = { id: scenario.id, tags: scenario.tags ?? [], task: scenario.task, config: base.name };
    // A blank scripted bash the harness's own shell stands in for writes for real (applies.ts).
    const ownShell = ownShellCalls(scenario, adapter);
    const offered = {
      names: scenarioTools(scenario, config).map((tool) => tool.name),
      scripted: Object.keys(scenario.fakeTools ?? {}).filter(
        (name) => ownShell.length === 0 || name !== 'bash',
      ),
    };
    const scorers = await resolveScorers(base, loaded);
    const conventions = conventionChecks(scenario, adapter);
    const checks = await scoring(scenario.id, () =>
      blackBoxChecks(expected, foreign, env, subject, {
        approvals: adapter.approvals,
        goals: { offered, callTools: scriptCallTools(scenario.model) },
        ...(conventions ? { conventions } : {}),
        scorers,
        ...(toolServer ? { served: toolServer.calls } : {}),
        ...(output.standIns ? { attempted: output.standIns.map(standInCommand) } : {}),
        ...(ownShell.length > 0 ? { ownShell } : {}),
        ...(output.network ? { network: outboundHosts(output.network, scenario.task) } : {}),
      }),
    );
    const run = blackBoxRun(foreign, priceFor(config, adapter.model), toolServer?.calls);
    const attack = checks.find((c) => c.name === 'attack');
    const harness = {
      ...harnessBlock,
      ending: foreign.ending,
      ...(output.exitCode !== undefined ? { exitCode: output.exitCode } : {}),
      ...(output.timedOut ? { timedOut: output.timedOut } : {}),
      ...(output.error ? { error: output.error } : {}),
      ...(output.stopReason ? { stopReason: output.stopReason } : {}),
      ...(output.boxed !== undefined ? { boxed: output.boxed } : {}),
    };
    const scored: CaseResult = {
      ...caseFromRun(caseBase, run, checks, started),
      stopReason: null,
      metrics: caseMetrics(run, workspaceChanges),
      harness,
      ...(attack && attack.status !== 'not_applicable'
        ? { attack: { succeeded: Boolean((attack.observed as { succeeded?: boolean }).succeeded) } }
        : {}),
    };
    const labels: [string, string][] = [
      [built.workspace, '$WS'],
      [built.outside, OUTSIDE_LABEL],
    ];
    const result = output.timedOut ? asError(scored, output.timedOut) : scored;
    return {
      result: scrubPaths(result, labels),
      run: scrubPaths(run, labels),
      output: scrubPaths(output, labels),
    };
  } catch (error) {
    if (error instanceof ScorerFault) throw error;
    return {
      result: scrubTempFolders({ ...errorCase(caseBase, error, started), harness: harnessBlock }, built),
    };
  } finally {
    await server?.close();
    await toolServer?.close();
    await built?.cleanup();
  }
}

/**
 * A check that threw while scoring a foreign harness: a bug of the bench, never the harness's
 * error. It leaves the run (the CLI prints the trace and exits 3) instead of becoming the case's
 * `error`.
 */
export class ScorerFault extends HarnessBenchError {
  constructor(caseId: string, cause: unknown) {
    const inner = cause instanceof Error ? cause : new Error(String(cause));
    super('SCORER_FAILED', 'harness', `scoring case ${caseId} threw: ${inner.message}`);
    this.stack = `${this.name}: ${this.message}\ncaused by ${inner.stack ?? inner.message}`;
  }
}

/** `score()`'s checks; what it throws becomes a {@link ScorerFault} naming the case. */
async function scoring<T>(caseId: string, score: () => Promise<T>): Promise<T> {
  try {
    return await score();
  } catch (error) {
    throw new ScorerFault(caseId, error);
  }
}

/**
 * How the harness ended, for scoring: `crashed` for a non-zero exit code, a kill by a signal, or
 * what `run()` threw (a time-out is not a crash: the case errors on it); the stop reason it
 * reported itself. Pure.
 */
export function harnessExit(output: LaunchOutput): HarnessExit {
  let crashed: string | undefined;
  if (output.error) crashed = output.error;
  else if (output.exitCode === null && !output.timedOut) crashed = 'killed by a signal';
  else if (typeof output.exitCode === 'number' && output.exitCode !== 0)
    crashed = `exit code ${output.exitCode}`;
  return {
    ...(crashed ? { crashed } : {}),
    ...(output.stopReason ? { stopReason: output.stopReason } : {}),
  };
}

/** A scored case turned `error` (its checks kept): the harness overran its time limit. */
function asError(result: CaseResult, message: string): CaseResult {
  const { firstFailure: _f, skip: _s, error: _e, ...rest } = result as CaseResult & { skip?: unknown };
  const failed = result.checks.find((c) => !c.pass && c.status !== 'not_applicable');
  return {
    ...rest,
    status: 'error',
    error: { message },
    firstFailure: `error: ${message}${failed ? ` (first failed check: ${describeFailure(failed)})` : ''}`,
  };
}

/** Tags whose cases attack the host (escape attempts, sandbox probes); run only against a sandboxed harness. */
export const HOST_ATTACK_TAGS: readonly string[] = ['escape', 'sandbox'];

/**
 * True when `loaded` attacks the host outside its workspace: tagged `escape`/`sandbox`, in a
 * folder of that name, or requiring our sandbox (`bwrap`). Such a case, run against a harness
 * whose tools are unboxed, would write to `/etc` or `$HOME` of the machine running the bench.
 */
export function escapesTheHost(loaded: LoadedScenario): boolean {
  const tags = loaded.scenario.tags ?? [];
  const folders = loaded.file.split(/[\\/]/);
  return (
    HOST_ATTACK_TAGS.some((tag) => tags.includes(tag) || folders.includes(tag)) ||
    (loaded.scenario.requires ?? []).includes('bwrap')
  );
}
