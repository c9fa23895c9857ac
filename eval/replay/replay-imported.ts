/**
 * Replay of a recording another harness made (an imported cassette): the harness under test is
 * driven the way the recorded client drove its model, conversation by conversation.
 *
 * - Only model exchanges are served (`traffic.ts`); the rest is listed as non-model traffic.
 * - Each conversation (`conversations.ts`: the main one and every side conversation recorded
 *   interleaved with it) is one harness run, or several: the run starts from the whole history
 *   of the conversation's first request (a recording that starts mid-conversation keeps all of
 *   it); before every turn the harness is given the user and system messages the recorded
 *   client added there (crewAI's "Analyze the tool result…" nudges, an image sent after a tool
 *   result); and when a run ends with a final answer and the recording continues the same
 *   conversation (pydantic-ai's re-prompt after a text answer, a crew's next task, a second user
 *   turn), the next run continues it, from the recorded history when the client edited it in a
 *   way only a client does (`ReplayModel.nextHistory`: an inserted image message, a ReAct
 *   observation written into the model's message; each edit an explained divergence). So every
 *   recorded user turn is replayed. A run is answered from its own conversation's exchanges
 *   only (`ReplayModel.scope`). When a run ends otherwise (an error, a content filter, a harness
 *   decision) and the conversation has more exchanges, a new run starts only from a request of
 *   client messages only (the client's new attempt or new session); a history with model turns
 *   the harness did not reach is never forced on it: those exchanges stay unused.
 * - Tools the recording used serve their recorded results; each has an effect class from the
 *   configuration or the cassette's sidecar (`tool-effects.ts`), so the policy decides recorded
 *   calls; an `ask` is approved when the recorded client ran the call (the recording holds its
 *   result), denied otherwise.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mergeConfig, type HarnessConfig } from '../../harness/config.ts';
import { deterministicDeps } from '../../harness/deps.ts';
import type { RunResult } from '../../harness/ledger.ts';
import { runHarness } from '../../harness/loop/run.ts';
import type { ChatMessage } from '../../harness/model/types.ts';
import type { ApprovalAnswer, ApprovalRequest } from '../../harness/policy/types.ts';
import { LocalSandbox } from '../../harness/sandbox/local.ts';
import type { Cassette } from '../cassette/types.ts';
import { runnerPathLabels } from '../path-labels.ts';
import { groupConversations, type Conversation } from './conversations.ts';
import { planStart, recordedToolbox, type RecordedToolbox } from './recorded-tools.ts';
import { combineRuns } from './replay-recorded.ts';
import { ReplayModel, type ReplayMode } from './replay-model.ts';
import { toolEffect, type ToolEffect, type ToolEffectRule } from './tool-effects.ts';
import { nonModelTraffic, type ListedNonModel } from '../import/classify.ts';

/** Options of {@link replayImported}. */
export interface ImportedReplayOptions {
  /** @default `sequential` for imported cassettes, `strict` otherwise */
  match?: ReplayMode;
  /** Use this folder as the workspace instead of a temp one (the fixture is not written into it). */
  workspace?: string;
  /** Tool-effect rules of the cassette's sidecar (`<cassette>.tools.json`), before the configuration's. */
  toolEffects?: readonly ToolEffectRule[];
}

/** What {@link replayImported} did. */
export interface ImportedReplay {
  /** Every run, in the order they ran. */
  runs: RunResult[];
  /**
   * The runs as one result (`combineRuns`): ledger merged, usage summed; the final answer is the
   * main conversation's last run's (the main conversation: the one the recording's last model
   * exchange belongs to, where the client ended), and so is the stop reason unless another run
   * ended otherwise (`caseStop`: then that run's, the detail naming it).
   */
  run: RunResult;
  model: ReplayModel;
  /** The conversations found, with the runs each took. */
  conversations: (Conversation & { runs: number })[];
  nonModel: ListedNonModel[];
  /** The effect class given to each recorded tool, and the rule that gave it. */
  toolEffects: ToolEffect[];
  /** The temp workspace (already removed), to scrub from results; absent with `options.workspace`. */
  tempWorkspace?: string;
}

/** True for a run that ended the way a replayed conversation ends by itself. */
const endedPlainly = (run: RunResult): boolean =>
  run.stopReason === 'final_answer' ||
  (run.stopReason === 'model_error' && /recording_exhausted/.test(run.stopDetail ?? ''));

/**
 * The stop reason of the case, from all its conversations: the main conversation's last run's,
 * unless another run ended otherwise (a content filter, an error, a budget, a loop stop); then
 * the first such run's, its detail naming the run, its conversation and how the main one ended,
 * so a refused first conversation is visible in the summary line, the matrix and `show`.
 */
function caseStop(
  runs: readonly RunResult[],
  conversations: readonly { index: number; runs: number }[],
  main: RunResult,
): Pick<RunResult, 'stopReason' | 'stopDetail'> {
  const plain = {
    stopReason: main.stopReason,
    ...(main.stopDetail !== undefined ? { stopDetail: main.stopDetail } : {}),
  };
  const at = runs.findIndex((run) => run !== main && !endedPlainly(run));
  if (at < 0 || !endedPlainly(main)) return plain;
  const other = runs[at]!;
  let conversation = 0;
  for (let seen = 0, c = 0; c < conversations.length; c++) {
    seen += conversations[c]!.runs;
    if (at < seen) {
      conversation = conversations[c]!.index;
      break;
    }
  }
  return {
    stopReason: other.stopReason,
    stopDetail: `run ${at + 1} of ${runs.length} (conversation ${conversation + 1}) ended ${other.stopReason}${other.stopDetail ? ` (${other.stopDetail})` : ''}; the main conversation ended ${main.stopReason}`,
  };
}

/** Approves an `ask` when the recorded client ran the call (the recording holds its result), else denies. */
export function recordedClientApprover(
  toolbox: Pick<RecordedToolbox, 'hasRecordedResult'>,
): (request: ApprovalRequest) => Promise<ApprovalAnswer> {
  return async (request) => {
    let args: unknown = request.argumentsText;
    try {
      args = JSON.parse(request.argumentsText);
    } catch {
      // Compared as text.
    }
    return toolbox.hasRecordedResult(request.tool, args, request.callId) ? 'approve' : 'deny';
  };
}

/**
 * Replays an imported cassette under `base` (see the module comment).
 * @throws for harness bugs and misconfiguration only; model failures end a run with `model_error`.
 */
export async function replayImported(
  cassette: Cassette,
  base: HarnessConfig,
  options: ImportedReplayOptions = {},
): Promise<ImportedReplay> {
  const imported = Boolean(cassette.meta.imported || cassette.meta.source);
  const mode = options.match ?? (imported ? 'sequential' : 'strict');
  const effects = new Map<string, ToolEffect>();
  const effectOf = (tool: string) => {
    const found = toolEffect(tool, base, options.toolEffects);
    effects.set(tool, found);
    return found.effect;
  };
  const holder: { model?: ReplayModel } = {};
  const served = { servedResult: (callId: string) => toolbox.servedResult(callId) };
  const model = new ReplayModel(cassette, mode, served);
  holder.model = model;
  const conversations = groupConversations(cassette, model.modelExchanges);
  const nextOf = new Map<number, number>();
  for (const c of conversations)
    c.exchanges.forEach((e, i) => {
      const following = c.exchanges[i + 1];
      if (following !== undefined) nextOf.set(e, following);
    });
  const toolbox = recordedToolbox(cassette, {
    model: {
      get lastServed() {
        return holder.model?.lastServed;
      },
    },
    exchanges: model.modelExchanges,
    next: (e) => nextOf.get(e),
    effectOf,
  });
  const seed = cassette.deps;
  const deps = {
    ...deterministicDeps({
      ...(seed?.clock?.[0] !== undefined ? { startMs: seed.clock[0] } : {}),
      ...(typeof seed?.randomSeed === 'number' ? { seed: seed.randomSeed } : {}),
    }),
    approver: recordedClientApprover(toolbox),
    pathLabels: runnerPathLabels(),
  };
  let temp: string | undefined;
  try {
    const workspace = options.workspace
      ? await realpath(options.workspace)
      : (temp = await realpath(await mkdtemp(path.join(tmpdir(), 'hb-replay-'))));
    const files = cassette.meta.workspace?.files;
    if (temp && files)
      for (const [relative, content] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(workspace, relative)), { recursive: true });
        await writeFile(path.join(workspace, relative), content);
      }
    const sandbox = new LocalSandbox({ allowExec: false });
    const runs: RunResult[] = [];
    const taken: (Conversation & { runs: number })[] = [];
    let mainLast: RunResult | undefined;
    const lastExchange = model.modelExchanges.at(-1) ?? -1;
    const grants: string[] = [];
    for (const conversation of conversations.length > 0 ? conversations : [{ index: 0, exchanges: [] }]) {
      const scoped = conversations.length > 0;
      model.scope = scoped ? new Set(conversation.exchanges) : undefined;
      const openOf = () => conversation.exchanges.filter((e) => !model.takenExchanges().includes(e));
      if (scoped && openOf().length === 0) continue;
      let initial: ChatMessage[] | undefined;
      let previous: RunResult | undefined;
      let start: ReturnType<typeof planStart> | undefined;
      let count = 0;
      for (let guard = 0; guard <= conversation.exchanges.length; guard++) {
        const open = openOf();
        if (scoped && open.length === 0) break;
        if (!initial || !start) {
          // The first run of the conversation, or a new session the recorded client started where
          // the harness's run did not lead (the same prompt again, a new attempt after an error).
          if (previous && !model.startsFresh(open[0]!)) break;
          start = planStart(cassette, open[0] ?? -1, conversation.exchanges);
          model.plannedFrom = open[0];
          initial = start.initialMessages;
        }
        const config = mergeConfig(base, {
          ...(typeof cassette.meta.config === 'object' && !imported ? cassette.meta.config : {}),
          model: { name: start.model, settings: {} },
          systemPrompt: '',
        });
        const before = model.used;
        const run = await runHarness({
          task: start.task,
          config,
          model,
          tools: toolbox.tools,
          sandbox,
          workspace,
          deps,
          grants,
          initialMessages: initial,
          toolSchemas: start.toolSchemas,
          settings: start.settings,
          interject: (messages) => model.continuation(messages) ?? [],
        });
        runs.push(run);
        count += 1;
        if (conversation.exchanges.includes(lastExchange)) mainLast = run;
        if (model.used === before) break;
        previous = run;
        initial = run.stopReason === 'final_answer' ? model.nextHistory(run.messages) : undefined;
      }
      taken.push({ ...conversation, runs: count });
    }
    model.scope = undefined;
    model.plannedFrom = undefined;
    const combined = combineRuns(runs);
    const main = mainLast ?? runs.at(-1)!;
    const stop = caseStop(runs, taken, main);
    const run: RunResult = {
      ...combined,
      stopReason: stop.stopReason,
      finalAnswer: main.finalAnswer,
      ...(stop.stopDetail !== undefined ? { stopDetail: stop.stopDetail } : {}),
    };
    if (stop.stopDetail === undefined) delete run.stopDetail;
    return {
      runs,
      run,
      model,
      conversations: taken,
      nonModel: nonModelTraffic(cassette),
      toolEffects: [...effects.values()].sort((a, b) => a.tool.localeCompare(b.tool)),
      ...(temp ? { tempWorkspace: temp } : {}),
    };
  } finally {
    if (temp) await rm(temp, { recursive: true, force: true });
  }
}
