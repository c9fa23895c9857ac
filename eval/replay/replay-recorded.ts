/**
 * Replay of a cassette *we* recorded (`harness-bench record`, `chat --record`): the same task,
 * the built-in tools of the current configuration running for real on a fresh copy of the
 * workspace fixture, the recorded deps (clock values, id and random seeds), the live client over
 * the recorded HTTP exchanges, and the answers a person gave to approvals read back from the
 * recorded ledger. The workspace's path is `$WORKSPACE` in the cassette and is swapped for the
 * replay's folder both ways. The replayed ledger is compared with the recorded one, and the configuration
 * the cassette was made with with the current one, to say what changed each decision.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HarnessConfig } from '../../harness/config.ts';
import type { HarnessDeps } from '../../harness/deps.ts';
import type { Ledger, RunResult } from '../../harness/ledger.ts';
import { runHarness } from '../../harness/loop/run.ts';
import type { ChatMessage, Model, UserMessage } from '../../harness/model/types.ts';
import type { ApprovalAnswer, ApprovalRequest } from '../../harness/policy/types.ts';
import { createSandbox } from '../../harness/sandbox/factory.ts';
import { builtinTools } from '../../harness/tools/builtin/index.ts';
import type { Cassette } from '../cassette/types.ts';
import { bodyMessages } from '../import/common.ts';
import { replaceInStrings, WORKSPACE_PLACEHOLDER } from '../record/redact.ts';
import { replayDeps } from '../record/recording-deps.ts';
import { diffConfigs, type ConfigChange } from './config-diff.ts';
import { HttpReplayModel, type MatchMode } from './http-replay.ts';
import {
  compareLedgers,
  formatLedgerDifference,
  mergeLedgers,
  type LedgerDifference,
} from './ledger-diff.ts';
import { formatDivergence, type Divergence } from './request-diff.ts';
import { contentText } from '../../harness/model/content.ts';

/** True for a cassette made by our recorder: not imported, with a recorded ledger and configuration. */
export function isOwnRecording(cassette: Cassette): boolean {
  return (
    !cassette.meta.imported &&
    !cassette.meta.source &&
    cassette.ledger !== undefined &&
    typeof cassette.meta.config === 'object'
  );
}

/** What a replay found, compared with the recording. */
export interface ReplayComparison {
  /** Configuration keys that differ between the recording and now (`model` excluded). */
  configChanges: ConfigChange[];
  /** Every step whose decisions differ, in run order. */
  ledgerDifferences: LedgerDifference[];
  /** Every request that differs from the recorded one. */
  requestDivergences: Divergence[];
  /** Recorded exchanges the replay never reached. */
  unusedExchanges: number;
  /** The first divergence as one line (a decision when one differs, else a request); absent when the replay matches. */
  headline?: string;
  /** Counterfactual replays: the exchange where the harness left the recording. */
  handoverAt?: number;
}

/** Options of {@link replayRecorded}. */
export interface RecordedReplayOptions {
  match: MatchMode;
  /** A real folder to use as the workspace (the fixture is not written into it). */
  workspace?: string;
  /** Counterfactual: the model that takes over at the first divergence. */
  then?: Model;
}

/**
 * The outcome of {@link replayRecorded}. `run` combines the session's runs (ledger merged) with
 * the workspace path written `$WORKSPACE`, as in the cassette; `runs` are as they ran.
 */
export interface RecordedReplay {
  runs: RunResult[];
  run: RunResult;
  model: HttpReplayModel;
  comparison: ReplayComparison;
}

/**
 * The configuration a replay runs under: the current one, with the `model` block (name and
 * request settings such as `stream`) taken from the recording, since the model is frozen.
 */
export function replayConfig(cassette: Cassette, current: HarnessConfig): HarnessConfig {
  const recorded =
    typeof cassette.meta.config === 'object' ? (cassette.meta.config as Partial<HarnessConfig>) : {};
  const model = recorded.model ?? { name: cassette.meta.modelRequested ?? current.model.name, settings: {} };
  return { ...current, model: structuredClone(model) };
}

/**
 * Answers approvals as the recording did: a call the recorded ledger shows as `ask:approved`
 * is approved, anything else is denied (a call that was never asked while recording has no
 * recorded answer, and nobody is there to give one).
 */
export function recordedApprover(ledger: Ledger): (request: ApprovalRequest) => Promise<ApprovalAnswer> {
  const answered = new Set<number>();
  return async (request) => {
    const index = ledger.calls.findIndex((call, i) => !answered.has(i) && call.callId === request.callId);
    if (index < 0) return 'deny';
    answered.add(index);
    return ledger.calls[index]!.verdict === 'ask:approved' ? 'approve' : 'deny';
  };
}

/** The user lines that start the next run of a session, when the next unused request continues `messages` with them. */
function nextUserLines(model: HttpReplayModel, messages: ChatMessage[]): UserMessage[] | undefined {
  const next = model.unusedExchanges()[0];
  if (!next) return undefined;
  const sent = bodyMessages(next.exchange.request.body);
  if (sent.length <= messages.length) return undefined;
  const added = sent.slice(messages.length);
  if (!added.every((m) => m.role === 'user' && typeof m.content === 'string')) return undefined;
  return added.map((m) => ({ role: 'user' as const, content: m.content as string }));
}

/**
 * The session's runs as one result: last transcript, requests and events concatenated (event
 * turn numbers offset as `mergeLedgers` offsets the ledger's, so turn N means one turn), ledger
 * merged, usage summed.
 */
export function combineRuns(runs: readonly RunResult[]): RunResult {
  const last = runs.at(-1)!;
  if (runs.length === 1) return last;
  const sum = (key: keyof RunResult['usage']) => runs.reduce((n, r) => n + r.usage[key], 0);
  return {
    ...last,
    requests: runs.flatMap((r) => r.requests),
    events: runs.flatMap((r, i) => {
      // Turn numbers as in the merged ledger: each run's continue after the previous runs'.
      const offset = runs
        .slice(0, i)
        .reduce(
          (n, run) =>
            n + Math.max(0, ...run.ledger.turns.filter((t) => t.scope.length === 0).map((t) => t.turn)),
          0,
        );
      return offset === 0
        ? r.events
        : r.events.map((e) =>
            'turn' in e && typeof e.turn === 'number' ? { ...e, turn: e.turn + offset } : e,
          );
    }),
    ledger: mergeLedgers(runs.map((r) => r.ledger)),
    usage: {
      modelCalls: sum('modelCalls'),
      turns: sum('turns'),
      toolCalls: sum('toolCalls'),
      promptTokens: sum('promptTokens'),
      completionTokens: sum('completionTokens'),
      totalTokens: sum('totalTokens'),
      maxPromptTokens: Math.max(...runs.map((r) => r.usage.maxPromptTokens)),
      costUsd: sum('costUsd'),
      wallMs: sum('wallMs'),
    },
  };
}

/**
 * Replays one of our cassettes under `current` and compares it with the recording.
 * @throws for harness bugs and misconfiguration only (e.g. an unknown built-in tool name);
 *   model failures end the run with `model_error`.
 */
export async function replayRecorded(
  cassette: Cassette,
  current: HarnessConfig,
  options: RecordedReplayOptions,
): Promise<RecordedReplay> {
  const config = replayConfig(cassette, current);
  const recordedLedger = cassette.ledger!;
  const deps: HarnessDeps = { ...replayDeps(cassette.deps), approver: recordedApprover(recordedLedger) };
  let temp: string | undefined;
  try {
    const workspace = options.workspace
      ? await realpath(options.workspace)
      : (temp = await realpath(await mkdtemp(path.join(tmpdir(), 'hb-replay-'))));
    const model = new HttpReplayModel(cassette, {
      mode: options.match,
      deps,
      workspace,
      ...(options.then ? { then: options.then } : {}),
    });
    if (temp)
      for (const [relative, content] of Object.entries(cassette.meta.workspace?.files ?? {})) {
        await mkdir(path.dirname(path.join(workspace, relative)), { recursive: true });
        await writeFile(path.join(workspace, relative), content);
      }
    const tools = builtinTools(config.tools);
    const sandbox = createSandbox(config.sandbox.kind, workspace);
    const runs: RunResult[] = [];
    const grants: string[] = [];
    let initialMessages: ChatMessage[] | undefined;
    let task = cassette.meta.task ?? '';
    for (;;) {
      const run = await runHarness({
        task,
        config,
        model,
        tools,
        sandbox,
        workspace,
        deps,
        grants,
        ...(initialMessages ? { initialMessages } : {}),
      });
      runs.push(run);
      if (model.handedOver || run.stopReason === 'model_error') break;
      const lines = nextUserLines(model, run.messages);
      if (!lines) break;
      initialMessages = [...run.messages, ...lines];
      task = contentText(lines.at(-1)!.content);
    }
    const run = replaceInStrings(combineRuns(runs), [[workspace, WORKSPACE_PLACEHOLDER]]);
    const configChanges = diffConfigs(cassette.meta.config, config);
    const ledgerDifferences = compareLedgers(recordedLedger, run.ledger, configChanges);
    const requestDivergences = model.divergences;
    const first = ledgerDifferences[0];
    const headline = first
      ? formatLedgerDifference(first)
      : requestDivergences[0]
        ? `request ${requestDivergences[0].exchange}: ${formatDivergence(requestDivergences[0])}`
        : undefined;
    const comparison: ReplayComparison = {
      configChanges,
      ledgerDifferences,
      requestDivergences,
      unusedExchanges: model.unusedExchanges().length,
      ...(headline ? { headline } : {}),
      ...(model.source.handoverAt !== undefined ? { handoverAt: model.source.handoverAt } : {}),
    };
    return { runs, run, model, comparison };
  } finally {
    if (temp) await rm(temp, { recursive: true, force: true });
  }
}
