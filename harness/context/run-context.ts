/**
 * The glue between the run loop and the context and memory layers, so `loop/run.ts` needs one
 * call per concern: `openRunContext` before the history is built (session resume, skills in the
 * system prompt), `prepare` before every model call (repair, pins, reminder, layers, session
 * append, `compaction` events), `shapeOutput` for every tool output (cap and spill), the
 * `services` the memory tools use, and `finish` at the end (the last session records).
 */
import path from 'node:path';
import type { HarnessConfig } from '../config.ts';
import type { HarnessDeps } from '../deps.ts';
import type { HarnessEvent, RunStartEvent, UnstampedEvent } from '../events.ts';
import type { RunOptions } from '../run-types.ts';
import type { ChatMessage, ToolSchema, UserMessage } from '../model/types.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import { ignoreFolder, SessionStore, type SessionWriter } from '../memory/session-store.ts';
import type { LoadedSession } from '../memory/session-load.ts';
import { discoverSkills, SkillCatalog } from '../memory/skills.ts';
import { TodoStore } from '../memory/todos.ts';
import type { NoteCounts } from './compaction.ts';
import { TokenMeter } from './meter.ts';
import { PinTracker, renderPins } from './pins.ts';
import { runLayers } from './prepare.ts';
import { RequestSnapshots } from './snapshots.ts';
import { BranchWatch, buildReminder } from './reminder.ts';
import { repairIsEmpty, repairTranscript } from './repair.ts';
import { StubScan } from './trim.ts';
import { approxTokens, shapeOutput, spillWhole } from './spill.ts';
import { countRequest } from './tokens.ts';

/** What `run_start` says about the session. */
export type SessionStart = NonNullable<RunStartEvent['session']>;

/** The context of one run, bound to its history by the loop. */
export interface RunContext {
  /** The first messages, when the context decides them (a resumed session, skills in the system prompt). */
  initialMessages?: ChatMessage[];
  /** Extra fields of `run_start`. */
  runStart: { session?: SessionStart };
  /** Shapes a tool output for the model (cap and spill), for the dispatcher. */
  shapeOutput: (text: string, call: { callId: string; tool: string; fullText?: string }) => Promise<string>;
  /** The run's todo list and skill catalog, for the memory tools (`RunServices`). */
  services: { todos: TodoStore; skills: SkillCatalog };
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
  /** Seals the requests' views, appends what the session has not recorded yet and waits for the writes. @throws the first write error. */
  finish(messages: readonly ChatMessage[]): Promise<void>;
}

/** What `openRunContext` needs from the run. */
export interface OpenRunContextArgs {
  options: RunOptions;
  config: HarnessConfig;
  deps: HarnessDeps;
  registry: ToolRegistry;
  runId: string;
  events: HarnessEvent[];
  emit: (event: UnstampedEvent) => void;
}

/**
 * Opens the run's context: resumes the configured session (`config.session.resume`) or creates
 * one (`config.session.enabled`), discovers skills when `read_skill` is enabled, and binds todos,
 * skills and subagents for the tools.
 * @throws SessionError when `config.session.resume` names a session that does not exist.
 */
export async function openRunContext(args: OpenRunContextArgs): Promise<RunContext> {
  const { options, config, deps, registry, runId } = args;
  const memory = options.memory ?? {};
  const sessionConfig = config.session;
  let loaded: LoadedSession | undefined;
  let writer: SessionWriter | undefined;
  if (!memory.subagent && (sessionConfig.resume || sessionConfig.enabled)) {
    const store = new SessionStore(path.resolve(options.workspace, sessionConfig.dir), deps.now, {
      root: options.workspace,
    });
    if (sessionConfig.resume) ({ loaded, writer } = await store.resume(sessionConfig.resume));
    else writer = await store.create(deps.newId('session_'), { cwd: options.workspace, runId });
  }
  const todos = memory.todos ?? new TodoStore(loaded?.todos ?? []);
  const w = writer;
  const unsubscribe = w ? todos.onChange((list) => void w.todos(list)) : () => undefined;
  const mayReadSkills =
    registry.get('read_skill') !== undefined &&
    (options.allowedTools ?? registry.names()).includes('read_skill');
  const skills =
    memory.skills ??
    (mayReadSkills
      ? await discoverSkills({
          workspace: options.workspace,
          ...(memory.userHome ? { userHome: memory.userHome } : {}),
        })
      : new SkillCatalog());

  let initialMessages: ChatMessage[] | undefined;
  if (loaded)
    initialMessages = [
      ...loaded.messages,
      ...(options.task ? [{ role: 'user' as const, content: options.task }] : []),
    ];
  else if (
    !(options.initialMessages && options.initialMessages.length > 0) &&
    mayReadSkills &&
    skills.skills.length > 0
  ) {
    const prompt = [config.systemPrompt, skills.promptBlock()].filter(Boolean).join('\n\n');
    initialMessages = [
      { role: 'system', content: prompt },
      { role: 'user', content: options.task },
    ];
  }

  const spillFolder = path.join(config.context.spillDir, writer?.id ?? runId);
  let spillReady = false;
  const shape = async (
    text: string,
    call: { callId: string; tool: string; fullText?: string },
  ): Promise<string> => {
    if (call.fullText !== undefined && call.fullText.length > text.length && config.context.layers.spill) {
      // The tool shaped its own output (a command's head and tail): keep the whole of it for paging.
      const kept = await spillWhole(call.fullText, {
        sandbox: options.sandbox,
        workspace: options.workspace,
        folder: spillFolder,
        callId: call.callId,
      });
      if (kept) {
        if (!spillReady) {
          spillReady = true;
          await ignoreFolder(path.join(options.workspace, spillFolder)).catch(() => undefined);
        }
        args.emit({
          type: 'compaction',
          layer: 'spill',
          trigger: 'auto',
          callId: call.callId,
          beforeTokens: approxTokens(call.fullText),
          afterTokens: approxTokens(text),
          detail: `${call.tool} output of ${call.fullText.length} characters shaped by the tool; full output in ${kept}`,
          artifact: kept,
        });
        text = `${text}
[the full output (${call.fullText.length} characters) is saved in ${kept}: page through it with read_file (offset/limit)]`;
      }
    }
    const shaped = await shapeOutput(text, {
      config,
      callId: call.callId,
      spill: { sandbox: options.sandbox, workspace: options.workspace, folder: spillFolder },
    });
    if (shaped.spillFile && !spillReady) {
      spillReady = true;
      await ignoreFolder(path.join(options.workspace, spillFolder)).catch(() => undefined);
    }
    if (shaped.cut > 0)
      args.emit({
        type: 'compaction',
        layer: shaped.spillFile ? 'spill' : 'cap',
        trigger: 'auto',
        callId: call.callId,
        beforeTokens: shaped.totalTokens,
        afterTokens: shaped.keptTokens,
        detail: `${call.tool} output of ${text.length} characters cut to head and tail (${shaped.cut} characters elided)${shaped.spillFile ? `; full output in ${shaped.spillFile}` : ''}`,
        ...(shaped.spillFile ? { artifact: shaped.spillFile } : {}),
      });
    return shaped.text;
  };

  const meter = new TokenMeter();
  const pins = new PinTracker((tool, toolArgs) => registry.get(tool)?.definition.paths?.(toolArgs) ?? []);
  let counts: NoteCounts = { compactions: 0, summarisedTurns: 0, droppedTurns: 0 };
  let first = true;
  const renderPinned = () => renderPins(pins.facts(todos.list()));
  const stubScan = new StubScan();
  const snapshots = new RequestSnapshots();

  const prepare: RunContext['prepare'] = async (messages, call) => {
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
        args.emit({
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
    pins.observeEvents(args.events);
    meter.observeEvents(args.events);
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
      args.emit({
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

  const git = new BranchWatch(options.sandbox, options.workspace);

  return {
    ...(initialMessages ? { initialMessages } : {}),
    runStart: writer
      ? {
          session: {
            id: writer.id,
            resumed: loaded !== undefined,
            restoredMessages: loaded?.messages.length ?? 0,
            skippedLines: loaded?.skipped.map((s) => s.line) ?? [],
            ...(loaded?.quarantineFile ? { quarantineFile: loaded.quarantineFile } : {}),
          },
        }
      : {},
    shapeOutput: shape,
    services: { todos, skills },
    prepare,
    snapshots,
    finish: async (messages) => {
      snapshots.seal(messages);
      unsubscribe();
      if (!writer) return;
      await writer.sync(messages);
      await writer.flush();
    },
  };
}
