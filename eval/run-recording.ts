/**
 * Replays one cassette through the live harness with the model frozen: the harness sends what
 * it would send, the replay model answers with the recorded turns and reports every divergence,
 * and tools the recording used serve their *recorded tool results*. An imported recording (made
 * by another harness) passes unless the run errors; its divergences are findings. A cassette we
 * recorded fails on any divergence (`../shared/design/recording-format.md`, "Replay").
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mergeConfig, type HarnessConfig } from '../harness/config.ts';
import { deterministicDeps } from '../harness/deps.ts';
import type { RunResult } from '../harness/ledger.ts';
import { runHarness } from '../harness/loop/run.ts';
import { LocalSandbox } from '../harness/sandbox/local.ts';
import type { Cassette } from './cassette/types.ts';
import type { Model } from '../harness/model/types.ts';
import type { HttpReplayModel, MatchMode } from './replay/http-replay.ts';
import { isOwnRecording, replayRecorded, type RecordedReplay, type ReplayComparison } from './replay/replay-recorded.ts';
import { ReplayModel } from './replay/replay-model.ts';
import { replayPlan } from './replay/recorded-tools.ts';
import { countVerdicts, scrubPaths, type CaseResult, type Check } from './results.ts';
import { describeFailure } from './run-scenario.ts';

/**
 * The outcome of one replay: the case result, the run, the replay model (divergences, unused
 * exchanges) and, for cassettes we recorded, the comparison with the recorded ledger.
 */
export interface RecordingRun {
  result: CaseResult;
  run?: RunResult;
  model?: ReplayModel | HttpReplayModel;
  comparison?: ReplayComparison;
}

/**
 * Options of {@link runRecording}. `match` defaults to `sequential` for imported cassettes and
 * `strict` for ours; `counterfactual` applies to ours only (an imported cassette replays
 * `sequential` instead) and hands over to `then` at the first divergence.
 */
export interface RecordingOptions {
  match?: MatchMode;
  /** Use this folder as the workspace instead of a temp one. */
  workspace?: string;
  /** Counterfactual replays: the model that takes over where the harness leaves the recording. */
  then?: Model;
}

/** True when the cassette was imported from another harness's recording. */
export function isImported(cassette: Cassette): boolean {
  return Boolean((cassette.meta as { imported?: unknown }).imported) || Boolean(cassette.meta.source);
}

/** Replays one cassette under one configuration. Never throws: an exception becomes status `error`. */
export async function runRecording(
  cassette: Cassette,
  file: string,
  base: { name: string; config: HarnessConfig },
  options: RecordingOptions = {},
): Promise<RecordingRun> {
  const started = performance.now();
  const imported = isImported(cassette);
  const match = options.match === 'counterfactual' ? 'sequential' : (options.match ?? (imported ? 'sequential' : 'strict'));
  const caseBase = {
    id: `recording/${cassette.meta.id}`,
    kind: 'recording' as const,
    config: base.name,
    file,
    title: cassette.meta.title,
    tags: ['recording', ...(imported ? ['imported'] : [])],
  };
  let temp: string | undefined;
  try {
    if (isOwnRecording(cassette)) {
      const replay = await replayRecorded(cassette, base.config, {
        match: options.match ?? 'strict',
        ...(options.workspace ? { workspace: options.workspace } : {}),
        ...(options.then ? { then: options.then } : {}),
      });
      return { result: ownRecordingResult(replay, caseBase, options.match ?? 'strict', started), run: replay.run, model: replay.model, comparison: replay.comparison };
    }
    const model = new ReplayModel(cassette, match);
    const plan = replayPlan(cassette, { model });
    const workspace = options.workspace ? await realpath(options.workspace) : (temp = await realpath(await mkdtemp(path.join(tmpdir(), 'hb-replay-'))));
    const files = (cassette.meta.workspace as { files?: Record<string, string> } | undefined)?.files;
    if (temp && files)
      for (const [relative, content] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(workspace, relative)), { recursive: true });
        await writeFile(path.join(workspace, relative), content);
      }
    const config = mergeConfig(base.config, {
      ...(typeof cassette.meta.config === 'object' && !imported ? cassette.meta.config : {}),
      model: { name: plan.model, settings: {} },
      systemPrompt: '',
    });
    const seed = cassette.deps;
    const deps = deterministicDeps({ ...(seed?.clock?.[0] !== undefined ? { startMs: seed.clock[0] } : {}), ...(typeof seed?.randomSeed === 'number' ? { seed: seed.randomSeed } : {}) });
    const run = await runHarness({
      task: plan.task,
      config,
      model,
      tools: plan.tools,
      sandbox: new LocalSandbox({ allowExec: false }),
      workspace,
      deps,
      initialMessages: plan.initialMessages,
      toolSchemas: plan.toolSchemas,
      settings: plan.settings,
    });
    const calls = run.ledger.calls;
    const schemaInvalid = calls.filter((c) => c.errorType === 'invalid_arguments' || c.errorType === 'invalid_json').map((c) => `${c.tool}(${c.callId}): ${c.errorType}`);
    const unknownTools = calls.filter((c) => c.errorType === 'unknown_tool').map((c) => c.tool);
    const unused = model.unusedExchanges().length;
    const divergences = model.divergences;
    const divergenceCount = divergences.reduce((n, d) => n + (d.kind === 'omitted' ? (d.omitted ?? 0) : 1), 0);
    const errored = run.stopReason === 'model_error' && /recording_mismatch/.test(run.stopDetail ?? '') && imported;
    const checks: Check[] = [
      { name: 'replay.completed', pass: !errored, expected: 'the run ends without a harness error', observed: run.stopDetail ?? run.stopReason },
    ];
    if (!imported) {
      checks.push({ name: 'replay.divergences', pass: divergenceCount === 0, expected: 0, observed: divergenceCount });
      checks.push({ name: 'replay.unusedExchanges', pass: unused === 0, expected: 0, observed: unused });
    }
    const failed = checks.find((c) => !c.pass);
    const first = divergences[0];
    const result: CaseResult = {
      ...caseBase,
      status: failed ? 'fail' : 'pass',
      stopReason: run.stopReason,
      ...(run.stopDetail ? { stopDetail: run.stopDetail } : {}),
      checks,
      usage: {
        modelCalls: run.usage.modelCalls,
        turns: run.usage.turns,
        toolCalls: run.usage.toolCalls,
        promptTokens: run.usage.promptTokens,
        completionTokens: run.usage.completionTokens,
        totalTokens: run.usage.totalTokens,
        costUsd: Number(run.usage.costUsd.toFixed(6)),
        durationMs: Math.round(performance.now() - started),
      },
      verdicts: countVerdicts(calls.map((c) => c.verdict)),
      divergences,
      ...(failed ? { firstFailure: describeFailure(failed) } : {}),
      findings: {
        toolCalls: calls.length,
        schemaInvalidCalls: schemaInvalid,
        unknownTools,
        unusedExchanges: unused,
        divergenceCount,
        ...(first ? { firstDivergence: `exchange ${first.exchange} ${first.path}` } : {}),
      },
    };
    return { result: temp ? scrubPaths(result, [[temp, '$WS']]) : result, run, model };
  } catch (error) {
    return {
      result: {
        ...caseBase,
        status: 'error',
        stopReason: null,
        checks: [],
        usage: { modelCalls: 0, turns: 0, toolCalls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, durationMs: Math.round(performance.now() - started) },
        verdicts: countVerdicts([]),
        divergences: [],
        error: { message: (error as Error)?.message ?? String(error) },
        firstFailure: `error: ${((error as Error)?.message ?? String(error)).split('\n')[0]}`,
      },
    };
  } finally {
    if (temp) await rm(temp, { recursive: true, force: true });
  }
}

/**
 * The case result of one of our cassettes: it passes when the replayed ledger equals the
 * recorded one, every request matched and every exchange was used. A counterfactual replay
 * passes when the run completes (differences are its findings).
 */
function ownRecordingResult(replay: RecordedReplay, caseBase: Omit<CaseResult, 'status' | 'stopReason' | 'checks' | 'usage' | 'verdicts' | 'divergences'>, match: MatchMode, started: number): CaseResult {
  const { run, comparison } = replay;
  const calls = run.ledger.calls;
  const divergenceCount = comparison.requestDivergences.reduce((n, d) => n + (d.kind === 'omitted' ? (d.omitted ?? 0) : 1), 0);
  const broke = run.stopReason === 'model_error' && /recording_(mismatch|exhausted)|script_exhausted/.test(run.stopDetail ?? '');
  const checks: Check[] = [];
  if (match !== 'counterfactual') {
    checks.push({ name: 'replay.ledger', pass: comparison.ledgerDifferences.length === 0, expected: 'the recorded ledger', observed: comparison.ledgerDifferences.length === 0 ? 'the recorded ledger' : `${comparison.ledgerDifferences.length} differences; first: ${comparison.headline}` });
    checks.push({ name: 'replay.divergences', pass: divergenceCount === 0, expected: 0, observed: divergenceCount });
    checks.push({ name: 'replay.unusedExchanges', pass: comparison.unusedExchanges === 0, expected: 0, observed: comparison.unusedExchanges });
  }
  checks.push({ name: 'replay.completed', pass: match !== 'counterfactual' || !broke, expected: 'the run ends without a replay error', observed: run.stopDetail ?? run.stopReason });
  const failed = checks.find((c) => !c.pass);
  const first = comparison.requestDivergences[0];
  return {
    ...caseBase,
    status: failed ? 'fail' : 'pass',
    stopReason: run.stopReason,
    ...(run.stopDetail ? { stopDetail: run.stopDetail } : {}),
    checks,
    usage: {
      modelCalls: run.usage.modelCalls,
      turns: run.usage.turns,
      toolCalls: run.usage.toolCalls,
      promptTokens: run.usage.promptTokens,
      completionTokens: run.usage.completionTokens,
      totalTokens: run.usage.totalTokens,
      costUsd: Number(run.usage.costUsd.toFixed(6)),
      durationMs: Math.round(performance.now() - started),
    },
    verdicts: countVerdicts(calls.map((c) => c.verdict)),
    divergences: comparison.requestDivergences,
    ...(failed ? { firstFailure: describeFailure(failed) } : {}),
    findings: {
      toolCalls: calls.length,
      schemaInvalidCalls: calls.filter((c) => c.errorType === 'invalid_arguments' || c.errorType === 'invalid_json').map((c) => `${c.tool}(${c.callId}): ${c.errorType}`),
      unknownTools: calls.filter((c) => c.errorType === 'unknown_tool').map((c) => c.tool),
      unusedExchanges: comparison.unusedExchanges,
      divergenceCount,
      ...(first ? { firstDivergence: `exchange ${first.exchange} ${first.path}` } : {}),
    },
  };
}
