/**
 * The context stage before every model call (`docs/architecture.md` §6): the transcript repaired
 * once at the first call, pins and the token meter brought up to date, the session synced, the
 * reminder built, the layers run (`prepare.ts`), their rewrites applied in place and recorded
 * (session, `compaction` events), and the requests' message lists kept as views on the history.
 */
import type { HarnessConfig } from '../config.ts';
import type { HarnessDeps } from '../deps.ts';
import type { HarnessEvent, UnstampedEvent } from '../events.ts';
import type { TodoStore } from '../memory/todos.ts';
import type { ChatMessage, ToolSchema, UserMessage } from '../model/types.ts';
import type { RunOptions } from '../run-types.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { NoteCounts } from './compaction.ts';
import { TokenMeter } from './meter.ts';
import { PinTracker, renderPins } from './pins.ts';
import { runLayers } from './prepare.ts';
import { BranchWatch, buildReminder } from './reminder.ts';
import { repairIsEmpty, repairTranscript } from './repair.ts';
import type { RunSession } from './run-session.ts';
import { RequestSnapshots } from './snapshots.ts';
import { countRequest } from './tokens.ts';
import { StubScan } from './trim.ts';

/** The context stage of one run. */
export interface ContextStage {
  /**
   * Runs the context stage on `messages` (changed in place when a layer rewrites them) and
   * returns what the request is made of: the history (`messages` itself) and the reminder after
   * it; or the stop when nothing more can be removed.
   */
  prepare(
    messages: ChatMessage[],
    call: { tools?: ToolSchema[]; summarize?: (request: ChatMessage[]) => Promise<string | undefined> },
  ): Promise<{
    history: readonly ChatMessage[];
    reminder?: UserMessage;
    /** Estimated tokens of the request, calibrated by reported usage. */
    tokens: number;
    /** The tokenizer's count of the request (messages and the tools given), uncalibrated. */
    counted: number;
    stop?: { reason: 'context_overflow'; detail: string };
  }>;
  /** The requests' message lists, as views on the history (`snapshots.ts`). */
  snapshots: RequestSnapshots;
}

/** What the context stage reads from the run. */
export interface ContextStageArgs {
  options: RunOptions;
  config: HarnessConfig;
  deps: HarnessDeps;
  registry: ToolRegistry;
  /** The run's events so far (pins and the meter read the new ones at each call). */
  events: readonly HarnessEvent[];
  emit: (event: UnstampedEvent) => void;
  session: RunSession;
  todos: TodoStore;
}

/** The context stage of a run, its state (pins, meter, stub scan, counts) kept between calls. */
export function contextStage(args: ContextStageArgs): ContextStage {
  const { options, config, deps, registry, events, emit, todos } = args;
  const { loaded, writer } = args.session;
  const git = new BranchWatch(options.sandbox, options.workspace);
  const meter = new TokenMeter();
  const pins = new PinTracker((tool, toolArgs) => registry.get(tool)?.definition.paths?.(toolArgs) ?? []);
  let counts: NoteCounts = { compactions: 0, summarisedTurns: 0, droppedTurns: 0 };
  let first = true;
  const renderPinned = () => renderPins(pins.facts(todos.list()));
  const stubScan = new StubScan();
  const snapshots = new RequestSnapshots();

  const prepare: ContextStage['prepare'] = async (messages, call) => {
    if (first) {
      first = false;
      const repaired = repairTranscript(messages, loaded?.interrupted ?? new Set());
      if (!repairIsEmpty(repaired.report)) {
        const before = countRequest({ messages });
        snapshots.seal(messages);
        messages.splice(0, messages.length, ...repaired.messages);
        meter.historyRewritten();
        void writer?.repair(repaired.report);
        const r = repaired.report;
        const parts = [
          ...r.inserted.map((i) => `interrupted result inserted for ${i.afterCallId}`),
          ...r.dropped.map(
            (d) => `tool message for ${d.toolCallId} at index ${d.index} dropped (${d.reason})`,
          ),
          ...(r.argumentsReplaced.length > 0
            ? [`arguments of ${r.argumentsReplaced.join(', ')} replayed as {}`]
            : []),
          ...(r.reordered > 0 ? [`${r.reordered} results put in call order`] : []),
        ];
        emit({
          type: 'compaction',
          layer: 'repair',
          trigger: 'auto',
          beforeTokens: before,
          afterTokens: countRequest({ messages }),
          detail: `transcript repaired: ${parts.join('; ')}`,
        });
      }
    }
    pins.observeMessages(messages);
    pins.observeEvents(events);
    meter.observeEvents(events);
    if (writer) void writer.sync(messages);
    const layers = config.context.layers;
    const list = todos.list();
    let reminder: UserMessage | undefined;
    if (layers.reminder) {
      const nowMs = deps.now();
      const changedFiles = [...pins.changed];
      const branch = await git.current();
      reminder = buildReminder({
        nowMs,
        todos: list,
        changedFiles,
        ...(branch !== undefined ? { branch } : {}),
      });
    }
    const out = await runLayers({
      history: messages,
      stubScan,
      ...(call.tools ? { tools: call.tools } : {}),
      config,
      meter,
      ...(reminder ? { reminder } : {}),
      pins: renderPinned,
      counts,
      ...(call.summarize ? { summarize: call.summarize } : {}),
    });
    counts = out.counts;
    if (out.history !== messages) {
      // Requests sent so far keep the history as it was.
      snapshots.seal(messages);
      // The messages the layers replaced or added (stubs, a note), marked seen and known.
      let fresh: ChatMessage[];
      if (out.history.length === messages.length) {
        // Replaced where they are (stubs): no copy of the history, and its token sum carries over.
        fresh = [];
        for (let i = 0; i < messages.length; i += 1)
          if (messages[i] !== out.history[i]) fresh.push((messages[i] = out.history[i]!));
        meter.historyReplaced(out.history, messages, 0);
      } else {
        messages.splice(0, messages.length, ...out.history);
        meter.historyRewritten();
        fresh = messages;
      }
      pins.markSeen(fresh);
      const summary = out.actions.filter((a) => a.layer === 'summary').at(-1);
      if (writer) {
        if (summary)
          void writer.compacted(messages, {
            layer: 'summary',
            beforeTokens: summary.beforeTokens,
            afterTokens: summary.afterTokens,
          });
        else writer.markKnown(fresh);
      }
    }
    for (const action of out.actions)
      emit({
        type: 'compaction',
        layer: action.layer,
        trigger: action.trigger,
        beforeTokens: action.beforeTokens,
        afterTokens: action.afterTokens,
        detail: action.detail,
        ...(action.pinned ? { pinned: action.pinned } : {}),
      });
    return {
      history: messages,
      ...(reminder ? { reminder } : {}),
      tokens: out.tokens,
      counted: out.counted,
      ...(out.stop ? { stop: out.stop } : {}),
    };
  };

  return { prepare, snapshots };
}
