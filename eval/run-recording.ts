/**
 * Replays one cassette through the live harness with the model frozen: the harness sends what
 * it would send, the replay model answers with the recorded turns and reports every divergence,
 * and tools the recording used serve their *recorded tool results*. An imported recording (made
 * by another harness) passes only when the run completed, at least one recorded model turn was
 * served and no recorded response was invalid; its divergences are findings. A cassette we
 * recorded fails on any divergence (`docs/recording-format.md`, "Replay").
 */
import { roundTripCheck } from './import/round-trip.ts';
import type { HarnessConfig } from '../harness/config.ts';
import type { RunResult } from '../harness/ledger.ts';
import type { Model } from '../harness/model/types.ts';
import type { Cassette } from './cassette/types.ts';
import type { HttpReplayModel, MatchMode } from './replay/http-replay.ts';
import { replayImported, type ImportedReplay } from './replay/replay-imported.ts';
import {
  isOwnRecording,
  replayRecorded,
  type RecordedReplay,
  type ReplayComparison,
} from './replay/replay-recorded.ts';
import type { ReplayModel } from './replay/replay-model.ts';
import type { ToolEffectRule } from './replay/tool-effects.ts';
import { describeNonModel } from './import/classify.ts';
import {
  caseFromRun,
  countDivergences,
  errorCase,
  replayFindings,
  scrubPaths,
  withCheck,
  type CaseResult,
  type Check,
} from './results.ts';

/**
 * The outcome of one replay: the case result, the run, the replay model (divergences, unused
 * exchanges) and, for cassettes we recorded, the comparison with the recorded ledger; for
 * imported ones, the imported replay (conversations, non-model traffic, tool effects).
 */
export interface RecordingRun {
  result: CaseResult;
  run?: RunResult;
  model?: ReplayModel | HttpReplayModel;
  comparison?: ReplayComparison;
  imported?: ImportedReplay;
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
  /** Tool-effect rules of the cassette's sidecar (`<cassette>.tools.json`, see `replay/tool-effects.ts`). */
  toolEffects?: readonly ToolEffectRule[];
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
  const match =
    options.match === 'counterfactual'
      ? 'sequential'
      : (options.match ?? (imported ? 'sequential' : 'strict'));
  const caseBase = {
    id: `recording/${cassette.meta.id}`,
    kind: 'recording' as const,
    config: base.name,
    file,
    title: cassette.meta.title,
    tags: ['recording', ...(imported ? ['imported'] : [])],
  };
  try {
    if (isOwnRecording(cassette)) {
      const replay = await replayRecorded(cassette, base.config, {
        match: options.match ?? 'strict',
        ...(options.workspace ? { workspace: options.workspace } : {}),
        ...(options.then ? { then: options.then } : {}),
      });
      return {
        result: ownRecordingResult(replay, caseBase, options.match ?? 'strict', started),
        run: replay.run,
        model: replay.model,
        comparison: replay.comparison,
      };
    }
    const replay = await replayImported(cassette, base.config, {
      match,
      ...(options.workspace ? { workspace: options.workspace } : {}),
      ...(options.toolEffects ? { toolEffects: options.toolEffects } : {}),
    });
    const replayed = importedResult(replay, caseBase, imported, started);
    // The importer in the main job: a real recording re-imported from its kept source must be the committed one.
    const trip = roundTripCheck(cassette, file);
    const result = trip ? withCheck(replayed, trip) : replayed;
    return {
      result: replay.tempWorkspace ? scrubPaths(result, [[replay.tempWorkspace, '$WS']]) : result,
      run: replay.run,
      model: replay.model,
      imported: replay,
    };
  } catch (error) {
    return { result: errorCase(caseBase, error, started) };
  }
}

/**
 * The case result of a replay through {@link replayImported}. Every cassette: the runs ended
 * without a replay error (`recording_mismatch`), and no recorded response was invalid (an
 * invalid response is a failure, never a finding). Imported: at least one recorded model turn
 * was served (a replay that served none, e.g. a recording holding only telemetry, is hollow).
 * Not imported (strict): no divergence and no unused exchange.
 */
function importedResult(
  replay: ImportedReplay,
  caseBase: Omit<CaseResult, 'status' | 'stopReason' | 'checks' | 'usage' | 'verdicts' | 'divergences'>,
  imported: boolean,
  started: number,
): CaseResult {
  const { run, model, runs } = replay;
  const unused = model.unusedExchanges().length;
  const divergences = model.divergences;
  const mismatch = runs.find(
    (r) => r.stopReason === 'model_error' && /recording_mismatch/.test(r.stopDetail ?? ''),
  );
  const checks: Check[] = [
    {
      name: 'replay.completed',
      pass: !(imported && mismatch),
      expected: 'the run ends without a harness error',
      observed: mismatch?.stopDetail ?? run.stopDetail ?? run.stopReason,
      reason:
        imported && mismatch
          ? `the replay broke off: ${mismatch.stopDetail ?? mismatch.stopReason}`
          : `the replay ran to ${run.stopReason}`,
    },
    {
      name: 'replay.validResponses',
      pass: model.invalid.length === 0,
      expected: 'every recorded model response decodes to a turn',
      observed:
        model.invalid.length === 0
          ? 'all valid'
          : `${model.invalid.length} invalid; first: ${model.invalid[0]!.message}`,
      reason:
        model.invalid.length === 0
          ? 'every recorded response decoded'
          : `${model.invalid.length} recorded response${model.invalid.length === 1 ? '' : 's'} did not decode to a turn; first: ${model.invalid[0]!.message}`,
    },
  ];
  if (imported)
    checks.push({
      name: 'replay.servedModelTurn',
      pass: model.served + model.raised > 0,
      expected:
        'at least one recorded model response served (a turn, or a provider error raised as recorded)',
      observed:
        model.served + model.raised > 0
          ? `${model.served} served${model.raised > 0 ? `, ${model.raised} recorded provider error${model.raised === 1 ? '' : 's'} raised` : ''}`
          : model.modelExchanges.length === 0
            ? `the recording holds no model exchange${replay.nonModel.length > 0 ? ` (only non-model traffic: ${replay.nonModel.map(describeNonModel).join(', ')})` : ''}`
            : 'none served',
      reason:
        model.served + model.raised > 0
          ? 'the replay served recorded model responses to the harness'
          : 'hollow replay: no recorded model response reached the harness, so nothing it did was checked',
    });
  else {
    const count = countDivergences(divergences);
    checks.push({
      name: 'replay.divergences',
      pass: count === 0,
      expected: 0,
      observed: count,
      reason: `${count} requests differ from the recording${divergences[0] ? `; first: exchange ${divergences[0].exchange} ${divergences[0].path}` : ''}`,
    });
    checks.push({
      name: 'replay.unusedExchanges',
      pass: unused === 0,
      expected: 0,
      observed: unused,
      reason: `${unused} recorded exchanges were never requested`,
    });
  }
  return {
    ...caseFromRun({ ...caseBase, divergences }, run, checks, started),
    findings: {
      ...replayFindings(run.ledger.calls, divergences, unused),
      servedTurns: model.served,
      ...(model.raised > 0 ? { raisedErrors: model.raised } : {}),
      conversations: replay.conversations.length,
      nonModelTraffic: replay.nonModel,
      toolEffects: replay.toolEffects,
    },
  };
}

/**
 * The case result of one of our cassettes: it passes when the replayed ledger equals the
 * recorded one, every request matched and every exchange was used. A counterfactual replay
 * passes when the run completes (differences are its findings).
 */
function ownRecordingResult(
  replay: RecordedReplay,
  caseBase: Omit<CaseResult, 'status' | 'stopReason' | 'checks' | 'usage' | 'verdicts' | 'divergences'>,
  match: MatchMode,
  started: number,
): CaseResult {
  const { run, comparison } = replay;
  const divergenceCount = countDivergences(comparison.requestDivergences);
  const broke =
    run.stopReason === 'model_error' &&
    /recording_(mismatch|exhausted)|script_exhausted/.test(run.stopDetail ?? '');
  const checks: Check[] = [];
  if (match !== 'counterfactual') {
    checks.push({
      name: 'replay.ledger',
      pass: comparison.ledgerDifferences.length === 0,
      expected: 'the recorded ledger',
      observed:
        comparison.ledgerDifferences.length === 0
          ? 'the recorded ledger'
          : `${comparison.ledgerDifferences.length} differences; first: ${comparison.headline}`,
      reason:
        comparison.ledgerDifferences.length === 0
          ? 'every decision matches the recorded ledger'
          : `${comparison.ledgerDifferences.length} decisions differ from the recording; first: ${comparison.headline}`,
    });
    checks.push({
      name: 'replay.divergences',
      pass: divergenceCount === 0,
      expected: 0,
      observed: divergenceCount,
      reason: `${divergenceCount} requests differ from the recording`,
    });
    checks.push({
      name: 'replay.unusedExchanges',
      pass: comparison.unusedExchanges === 0,
      expected: 0,
      observed: comparison.unusedExchanges,
      reason: `${comparison.unusedExchanges} recorded exchanges were never requested`,
    });
  }
  checks.push({
    name: 'replay.completed',
    pass: match !== 'counterfactual' || !broke,
    expected: 'the run ends without a replay error',
    observed: run.stopDetail ?? run.stopReason,
    reason:
      match === 'counterfactual' && broke
        ? `the replay broke off: ${run.stopDetail ?? run.stopReason}`
        : `the replay ran to ${run.stopReason}`,
  });
  return {
    ...caseFromRun({ ...caseBase, divergences: comparison.requestDivergences }, run, checks, started),
    findings: replayFindings(run.ledger.calls, comparison.requestDivergences, comparison.unusedExchanges),
  };
}
