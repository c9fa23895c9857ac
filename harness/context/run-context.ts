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
import type { RunResult } from '../ledger.ts';
import type { RunOptions } from '../loop/run.ts';
import type { ChatMessage, ToolSchema } from '../model/types.ts';
import { rootScope } from '../policy/child-policy.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { RunServices } from '../tools/types.ts';
import { ignoreFolder, SessionStore, type SessionWriter } from '../memory/session-store.ts';
import type { LoadedSession } from '../memory/session-load.ts';
import { discoverSkills, SkillCatalog } from '../memory/skills.ts';
import { TodoStore } from '../memory/todos.ts';
import { spawnSubagent, SubagentPool, type RunLiveState, type SubagentLink } from '../subagent/spawn.ts';
import type { NoteCounts } from './compaction.ts';
import { TokenMeter } from './meter.ts';
import { PinTracker, renderPins } from './pins.ts';
import { prepareContext } from './prepare.ts';
import { buildReminder, gitBranch } from './reminder.ts';
import { repairIsEmpty, repairTranscript } from './repair.ts';
import { approxTokens, shapeOutput, spillWhole } from './spill.ts';
import { countRequest } from './tokens.ts';

/** Memory options of a run (`RunOptions.memory`). */
export interface RunMemoryOptions {
  /** Home folder whose `.agents/skills/` holds the user's skills. Absent: project skills only (tests stay independent of the machine). */
  userHome?: string;
  /** A todo list shared by the runs of one conversation (a chat). Default: fresh, or the resumed session's. */
  todos?: TodoStore;
  /** A skill catalog to use instead of discovering one (subagents share their parent's). */
  skills?: SkillCatalog;
  /** Set by the `task` tool for a subagent's run: its depth, the shared pool and its policy scope. */
  subagent?: SubagentLink;
}

/** What `run_start` says about the session. */
export type SessionStart = NonNullable<RunStartEvent['session']>;

/** The context of one run, bound to its history by the loop. */
export interface RunContext {
  /** The first messages, when the context decides them (a resumed session, skills in the system prompt). */
  initialMessages?: ChatMessage[];
  /** Extra fields of `run_start`. */
  runStart: { session?: SessionStart };
  /** Fields for the dispatcher. */
  dispatch: {
    services: RunServices;
    shapeOutput: (text: string, call: { callId: string; tool: string; fullText?: string }) => Promise<string>;
  };
  /**
   * Runs the context stage on `messages` (changed in place when a layer rewrites them) and
   * returns the messages of the request, or the stop when nothing more can be removed.
   */
  prepare(
    messages: ChatMessage[],
    call: { tools?: ToolSchema[]; summarize?: (request: ChatMessage[]) => Promise<string | undefined> },
  ): Promise<{
    messages: ChatMessage[];
    tokens: number;
    stop?: { reason: 'context_overflow'; detail: string };
  }>;
  /** Appends what the session has not recorded yet and waits for the writes. @throws the first write error. */
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
  /** The run's live state, read lazily (subagents add their usage to it). */
  state: () => RunLiveState;
  /** The run function itself, for subagents (passed in to keep the module graph acyclic). */
  run: (options: RunOptions) => Promise<RunResult>;
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

  const link: SubagentLink = memory.subagent ?? {
    depth: 0,
    pool: new SubagentPool(config.subagent.maxConcurrency),
    count: { spawned: 0, maxTotal: config.subagent.maxTotal },
    policy: rootScope(config, options.allowedTools ?? registry.names()),
  };
  const services: RunServices = {
    todos,
    skills,
    spawnSubagent: (description, call) =>
      spawnSubagent(
        {
          config,
          registry,
          model: options.model,
          sandbox: options.sandbox,
          workspace: options.workspace,
          deps,
          link,
          skills,
          events: args.events,
          emit: args.emit,
          state: args.state,
          run: args.run,
        },
        description,
        call,
      ),
  };

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

  const prepare: RunContext['prepare'] = async (messages, call) => {
    if (first) {
      first = false;
      const repaired = repairTranscript(messages, loaded?.interrupted ?? new Set());
      if (!repairIsEmpty(repaired.report)) {
        const before = countRequest({ messages });
        messages.splice(0, messages.length, ...repaired.messages);
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
    const reminder = layers.reminder
      ? buildReminder({
          nowMs: deps.now(),
          todos: list,
          changedFiles: [...pins.changed],
          ...(await branchOf()),
        })
      : undefined;
    const out = await prepareContext({
      history: messages,
      ...(call.tools ? { tools: call.tools } : {}),
      config,
      meter,
      ...(reminder ? { reminder } : {}),
      pins: () => renderPins(pins.facts(todos.list())),
      counts,
      ...(call.summarize ? { summarize: call.summarize } : {}),
    });
    counts = out.counts;
    if (out.history !== messages) {
      messages.splice(0, messages.length, ...out.history);
      pins.markSeen(messages);
      const summary = out.actions.filter((a) => a.layer === 'summary').at(-1);
      if (writer) {
        if (summary)
          void writer.compacted(messages, {
            layer: 'summary',
            beforeTokens: summary.beforeTokens,
            afterTokens: summary.afterTokens,
          });
        else writer.markKnown(messages);
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
    return { messages: out.messages, tokens: out.tokens, ...(out.stop ? { stop: out.stop } : {}) };
  };

  const branchOf = async (): Promise<{ branch?: string }> => {
    const branch = await gitBranch(options.sandbox, options.workspace);
    return branch !== undefined ? { branch } : {};
  };

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
    dispatch: { services, shapeOutput: shape },
    prepare,
    finish: async (messages) => {
      unsubscribe();
      if (!writer) return;
      await writer.sync(messages);
      await writer.flush();
    },
  };
}
