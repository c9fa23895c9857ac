/**
 * The run planner and executor: cases (scenarios × configurations, recordings × configurations)
 * run through a concurrency pool, each result reported as it ends, the results file built at the
 * end with cases in a stable order (plan order), whatever the completion order.
 */
import type { ApprovalGate } from './approved/gate.ts';
import path from 'node:path';
import type { NamedConfig } from './config-load.ts';
import { cassetteChecks, withChecks } from './expect/cassette.ts';
import type { LoadedCassette } from './load-cassettes.ts';
import { compareConfigs } from './compare/index.ts';
import { caseMetrics } from './metrics/case-facts.ts';
import { errorCase, summarise, type CaseResult, type ResultsFile } from './results.ts';
import { explainMissingSandbox, type PrerequisitePolicy } from './requirements.ts';
import { isImported, runRecording } from './run-recording.ts';
import { canaryVerdict } from './replay/canary.ts';
import { runScenario } from './run-scenario.ts';
import { loadScenarios } from './scenario/load.ts';
import type { LoadedScenario } from './scenario/types.ts';
import type { RunResult } from '../harness/ledger.ts';
import { inShard, planFingerprint, type Shard } from './shard.ts';
import { byCodeUnit } from './order.ts';
import { runAdapterRecording } from './adapters/replay-adapter.ts';
import { runAdapterScenario } from './adapters/run-adapter.ts';
import type { LaunchOutput } from './adapters/launch.ts';
import type { HarnessChoice } from './adapters/load.ts';

export { loadCassettes, type LoadedCassette } from './load-cassettes.ts';

/** One planned case. */
export type PlannedCase =
  | { kind: 'scenario'; id: string; scenario: LoadedScenario; config: NamedConfig }
  | { kind: 'recording'; id: string; recording: LoadedCassette; config: NamedConfig };

/** Options of {@link runSuite}. */
export interface SuiteOptions {
  configs: NamedConfig[];
  scenarios: LoadedScenario[];
  recordings: LoadedCassette[];
  /** Keep only cases whose id contains this text (case-insensitive). */
  filter?: string;
  /** Cases at once. @default 2 */
  concurrency?: number;
  /** Stop starting new cases after the first failure or error (a skipped case is neither). */
  bail?: boolean;
  /** CI promises the sandbox: a case that needs a missing one is an error, not skipped (`requirements.ts`). */
  ci?: boolean;
  /** Called as each case ends, with the count done and the total. */
  onCaseEnd?: (result: CaseResult, done: number, total: number) => void;
  /**
   * The approved-behaviour gate (`eval/approved/gate.ts`): each case that ran gets its `approved`
   * check (or, approving, has its behaviour noted) before `onRun`.
   */
  approval?: ApprovalGate;
  /**
   * Called as each case ends, before `onCaseEnd`, with the harness run (its events and ledger;
   * absent when the case errored before the run) — the hook a tracer subscribes through.
   */
  onRun?: (
    planned: PlannedCase,
    run: RunResult | undefined,
    result: CaseResult,
    output?: LaunchOutput,
  ) => void | Promise<void>;
  /**
   * The harness under test (`--harness`, `eval/adapters/load.ts`): ours in-process (default), or
   * a foreign one through an adapter file, scored as a black box (`docs/adapters.md`).
   */
  harness?: HarnessChoice;
  /** Run only this shard of the plan (`--shard i/n`, `eval/shard.ts`); the file records it. */
  shard?: Shard;
  version: string;
  /** The configuration the others are compared with (`comparisons`). @default the first */
  reference?: string;
}

/** Loads scenarios from globs (see `loadScenarios`). @throws InputError */
export async function loadScenarioFiles(patterns: readonly string[], cwd: string): Promise<LoadedScenario[]> {
  return (await loadScenarios([...patterns], cwd)).scenarios;
}

/** The cases to run, in a stable order: scenarios then recordings, each by id, per configuration. */
export function planCases(
  options: Pick<SuiteOptions, 'configs' | 'scenarios' | 'recordings' | 'filter'>,
): PlannedCase[] {
  const filter = options.filter?.toLowerCase();
  const keep = (id: string) => !filter || id.toLowerCase().includes(filter);
  const cases: PlannedCase[] = [];
  for (const config of options.configs) {
    for (const scenario of [...options.scenarios].sort((a, b) => byCodeUnit(a.scenario.id, b.scenario.id)))
      if (keep(scenario.scenario.id))
        cases.push({ kind: 'scenario', id: scenario.scenario.id, scenario, config });
    for (const recording of [...options.recordings].sort((a, b) =>
      byCodeUnit(a.cassette.meta.id, b.cassette.meta.id),
    )) {
      const id = `recording/${recording.cassette.meta.id}`;
      if (keep(id)) cases.push({ kind: 'recording', id, recording, config });
    }
  }
  return cases;
}

/**
 * Runs one planned case and keeps its run (for tracing). Never throws. A cassette we recorded whose
 * replay failed on a sandbox missing here is skipped like an undeclared scenario prerequisite
 * (`explainMissingSandbox`).
 */
async function runPlanned(
  planned: PlannedCase,
  policy: PrerequisitePolicy = {},
  harness?: HarnessChoice,
): Promise<{ result: CaseResult; run?: RunResult; output?: LaunchOutput }> {
  if (harness && harness.kind !== 'ours') {
    if (planned.kind === 'scenario')
      return runAdapterScenario(planned.scenario, planned.config, harness, policy);
    const { cassette, file } = planned.recording;
    return runAdapterRecording(cassette, file, planned.config, harness, policy);
  }
  if (planned.kind === 'scenario') return runScenario(planned.scenario, planned.config, policy);
  const started = performance.now();
  const { cassette, file, toolEffects } = planned.recording;
  const recorded = await runRecording(cassette, file, planned.config, toolEffects ? { toolEffects } : {});
  const replayed = await withCassetteExpectations(planned, recorded, started);
  const result = planned.recording.canary ? canaryVerdict(replayed, planned.recording.canary) : replayed;
  if (isImported(cassette)) return { result, run: recorded.run };
  const context = { ...policy, sandboxKind: planned.config.config.sandbox.kind, declared: [] };
  return { result: await explainMissingSandbox(result, recorded.run, context, started), run: recorded.run };
}

/**
 * Runs one planned case of our harness and returns its result and run, for callers that put it
 * through the approved-behaviour gate themselves (the mutation runner,
 * `scripts/stryker-scenario-runner.mjs`, which imports it at run time). Never throws.
 * @public
 */
export async function runCaseWithRun(
  planned: PlannedCase,
  policy: PrerequisitePolicy = {},
): Promise<{ result: CaseResult; run?: RunResult }> {
  const { result, run } = await runPlanned(planned, policy);
  return { result, ...(run ? { run } : {}) };
}

/** Runs one planned case (as {@link runSuite} does) and returns its result. Never throws. */
export async function runCase(planned: PlannedCase, policy: PrerequisitePolicy = {}): Promise<CaseResult> {
  return (await runPlanned(planned, policy)).result;
}

/**
 * A replay's result with the run's metric facts, and the cassette's own expectations checked on
 * its run (a scorer fault is an `error`).
 */
async function withCassetteExpectations(
  planned: Extract<PlannedCase, { kind: 'recording' }>,
  { result, run, comparison }: Awaited<ReturnType<typeof runRecording>>,
  started: number,
): Promise<CaseResult> {
  if (!run || result.status === 'error' || result.status === 'skipped') return result;
  const expectations = planned.recording.expectations;
  const departsAt = expectations?.departsAt?.[planned.config.expectAs ?? planned.config.name];
  const measured: CaseResult = {
    ...(departsAt !== undefined ? departing(result, departsAt, comparison) : result),
    metrics: caseMetrics(run),
  };
  if (!expectations) return measured;
  try {
    const checks = await cassetteChecks(expectations, run, planned.config, {
      id: planned.id,
      tags: result.tags,
      task: planned.recording.cassette.meta.task ?? '',
    });
    return withChecks(measured, checks);
  } catch (error) {
    return errorCase(result, error, started);
  }
}

/**
 * A replay that departs from the recording by design at call `callId` (`departsAt` of the
 * cassette's expectations): the exact-replay checks become one, `replay.departsAt`, which passes
 * when the first decision that differs from the recording is that call's.
 */
function departing(
  result: Extract<CaseResult, { status: 'pass' | 'fail' }>,
  callId: string,
  comparison: Awaited<ReturnType<typeof runRecording>>['comparison'],
): CaseResult {
  const exact = new Set(['replay.ledger', 'replay.divergences', 'replay.unusedExchanges']);
  const first = comparison?.ledgerDifferences[0];
  const check = {
    name: 'replay.departsAt',
    pass: first?.callId === callId,
    expected: callId,
    observed: first ? (first.callId ?? first.step) : 'the recorded ledger',
    reason: first
      ? `the first decision that differs from the recording: ${comparison?.headline ?? first.step}`
      : `every decision matches the recording; expected the replay to depart at ${callId}`,
  };
  const kept = result.checks.filter((c) => !exact.has(c.name));
  return withChecks({ ...result, checks: kept, status: 'pass' } as CaseResult, [check]);
}

/** The cases of one shard of `planned`, and what the results file says about the shard. */
export function shardPlan(planned: PlannedCase[], shard: Shard, version: string, configs: NamedConfig[]) {
  const cases = inShard(planned, shard, (c) => [c.config.name, c.id]);
  const fingerprint = planFingerprint(
    version,
    configs.map((c) => ({ name: c.name, config: c.config })),
    planned.map((c) => ({
      config: c.config.name,
      kind: c.kind,
      id: c.id,
      input: c.kind === 'scenario' ? c.scenario.scenario : c.recording.cassette,
    })),
  );
  return {
    cases,
    info: { ...shard, planCases: planned.length, assigned: cases.length, fingerprint },
  };
}

/** The `harness` block of the results file. */
function runHarnessOf(harness: HarnessChoice | undefined): NonNullable<ResultsFile['harness']> {
  if (!harness || harness.kind === 'ours') return { name: 'ours', kind: 'ours' };
  return {
    name: harness.name,
    kind: harness.kind,
    file: path.relative(process.cwd(), harness.file) || harness.file,
  };
}

/** Runs the suite and builds the results file. */
export async function runSuite(options: SuiteOptions): Promise<ResultsFile> {
  const startedAt = new Date();
  const started = performance.now();
  const whole = planCases(options);
  const sharded = options.shard
    ? shardPlan(whole, options.shard, options.version, options.configs)
    : undefined;
  const planned = sharded ? sharded.cases : whole;
  const results: (CaseResult | undefined)[] = new Array(planned.length);
  let next = 0;
  let done = 0;
  let stop = false;
  const worker = async () => {
    while (!stop && next < planned.length) {
      const index = next;
      next += 1;
      const harness = planned[index]!.config.harness ?? options.harness;
      const ran = await runPlanned(planned[index]!, options.ci ? { ci: true } : {}, harness);
      const { run, output } = ran;
      // A foreign harness's behaviours are keyed by its name: it is never held to ours.
      const foreign = harness && harness.kind !== 'ours' ? harness.name : undefined;
      const result = options.approval ? options.approval.apply(ran.result, run, foreign) : ran.result;
      results[index] = result;
      await options.onRun?.(planned[index]!, run, result, output);
      done += 1;
      options.onCaseEnd?.(result, done, planned.length);
      if (options.bail && (result.status === 'fail' || result.status === 'error')) stop = true;
    }
  };
  const concurrency = Math.max(1, options.concurrency ?? 2);
  await Promise.all(Array.from({ length: Math.min(concurrency, planned.length) }, worker));
  const cases = results.filter((r): r is CaseResult => r !== undefined);
  const summary = summarise(cases);
  const comparisons = compareConfigs(
    options.configs.map((c) => c.name),
    cases,
    summary.metrics,
    options.reference ? { reference: options.reference } : {},
  );
  return {
    format: 'harness-bench.results',
    version: 1,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - started),
    tool: { name: 'harness-bench', version: options.version },
    configs: options.configs.map((c) => ({
      name: c.name,
      file: path.relative(process.cwd(), c.file) || c.file,
      ...(c.harness ? { harness: runHarnessOf(c.harness) } : {}),
    })),
    // Harnesses side by side: each column names its own, and the run as a whole has none.
    ...(options.configs.some((c) => c.harness) ? {} : { harness: runHarnessOf(options.harness) }),
    cases,
    summary,
    ...(comparisons ? { comparisons } : {}),
    ...(sharded ? { shard: sharded.info } : {}),
  };
}
