/**
 * Replays one cassette through the live harness with the model frozen: the harness sends what
 * it would send, the replay model answers with the recorded turns and reports every divergence,
 * and tools the recording used serve their *recorded tool results*. An imported recording (made
 * by another harness) passes unless the run errors; its divergences are findings. A cassette we
 * recorded fails on any divergence (`docs/recording-format.md`, "Replay").
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
import {
  isOwnRecording,
  replayRecorded,
  type RecordedReplay,
  type ReplayComparison,
} from './replay/replay-recorded.ts';
import { runnerPathLabels } from './path-labels.ts';
import { ReplayModel } from './replay/replay-model.ts';
import { replayPlan } from './replay/recorded-tools.ts';
import {
  caseFromRun,
  countDivergences,
  errorCase,
  replayFindings,
  type CaseResult,
  type Check,
} from './results.ts';

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
  let temp: string | undefined;
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
    const model = new ReplayModel(cassette, match);
    const plan = replayPlan(cassette, { model });
    const workspace = options.workspace
      ? await realpath(options.workspace)
      : (temp = await realpath(await mkdtemp(path.join(tmpdir(), 'hb-replay-'))));
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
    const deps = deterministicDeps({
      ...(seed?.clock?.[0] !== undefined ? { startMs: seed.clock[0] } : {}),
      ...(typeof seed?.randomSeed === 'number' ? { seed: seed.randomSeed } : {}),
    });
    deps.pathLabels = runnerPathLabels();
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
    const unused = model.unusedExchanges().length;
    const divergences = model.divergences;
    const divergenceCount = countDivergences(divergences);
    const errored =
      run.stopReason === 'model_error' && /recording_mismatch/.test(run.stopDetail ?? '') && imported;
    const checks: Check[] = [
      {
        name: 'replay.completed',
        pass: !errored,
        expected: 'the run ends without a harness error',
        observed: run.stopDetail ?? run.stopReason,
      },
    ];
    if (!imported) {
      checks.push({
        name: 'replay.divergences',
        pass: divergenceCount === 0,
        expected: 0,
        observed: divergenceCount,
      });
      checks.push({ name: 'replay.unusedExchanges', pass: unused === 0, expected: 0, observed: unused });
    }
    const result: CaseResult = {
      ...caseFromRun({ ...caseBase, divergences }, run, checks, started),
      findings: replayFindings(run.ledger.calls, divergences, unused),
    };
    return { result, run, model };
  } catch (error) {
    return { result: errorCase(caseBase, error, started) };
  } finally {
    if (temp) await rm(temp, { recursive: true, force: true });
  }
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
    });
    checks.push({
      name: 'replay.divergences',
      pass: divergenceCount === 0,
      expected: 0,
      observed: divergenceCount,
    });
    checks.push({
      name: 'replay.unusedExchanges',
      pass: comparison.unusedExchanges === 0,
      expected: 0,
      observed: comparison.unusedExchanges,
    });
  }
  checks.push({
    name: 'replay.completed',
    pass: match !== 'counterfactual' || !broke,
    expected: 'the run ends without a replay error',
    observed: run.stopDetail ?? run.stopReason,
  });
  return {
    ...caseFromRun({ ...caseBase, divergences: comparison.requestDivergences }, run, checks, started),
    findings: replayFindings(run.ledger.calls, comparison.requestDivergences, comparison.unusedExchanges),
  };
}
