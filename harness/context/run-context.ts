/**
 * The glue between the run loop and the context and memory layers, so `loop/run.ts` needs one
 * call per concern: `openRunContext` before the history is built opens the session
 * (`run-session.ts`) and the memory (`run-memory.ts`: todos, skills, the first messages), and
 * binds the output shaper (`run-output.ts`: cap and spill) and the context stage
 * (`context-stage.ts`: repair, pins, reminder, layers, session append, `compaction` events);
 * `finish` at the end writes the last session records.
 */
import path from 'node:path';
import type { HarnessConfig } from '../config.ts';
import type { HarnessDeps } from '../deps.ts';
import type { HarnessEvent, UnstampedEvent } from '../events.ts';
import type { SkillCatalog } from '../memory/skills.ts';
import type { TodoStore } from '../memory/todos.ts';
import type { ChatMessage } from '../model/types.ts';
import type { RunOptions } from '../run-types.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import { type ContextStage, contextStage } from './context-stage.ts';
import { openMemory } from './run-memory.ts';
import { type OutputShaper, outputShaper } from './run-output.ts';
import { openSession, type SessionStart, sessionStart } from './run-session.ts';

export type { SessionStart } from './run-session.ts';

/** The context of one run, bound to its history by the loop. */
export interface RunContext {
  /** The first messages, when the context decides them (a resumed session, skills in the system prompt). */
  initialMessages?: ChatMessage[];
  /** Extra fields of `run_start`. */
  runStart: { session?: SessionStart };
  /** Shapes a tool output for the model (cap and spill), for the dispatcher. */
  shapeOutput: OutputShaper;
  /** The run's todo list and skill catalog, for the memory tools (`RunServices`). */
  services: { todos: TodoStore; skills: SkillCatalog };
  /** The context stage before every model call (`context-stage.ts`). */
  prepare: ContextStage['prepare'];
  /** The requests' message lists, as views on the history (`snapshots.ts`). */
  snapshots: ContextStage['snapshots'];
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
 * skills, the output shaper and the context stage.
 * @throws SessionError when `config.session.resume` names a session that does not exist.
 */
export async function openRunContext(args: OpenRunContextArgs): Promise<RunContext> {
  const { options, config, deps, registry, runId, events, emit } = args;
  const session = await openSession(options, config, deps, runId);
  const { todos, skills, initialMessages, unsubscribe } = await openMemory(
    options,
    config,
    registry,
    session,
  );
  const spillFolder = path.join(config.context.spillDir, session.writer?.id ?? runId);
  const stage = contextStage({ options, config, deps, registry, events, emit, session, todos });
  const start = sessionStart(session);
  return {
    ...(initialMessages ? { initialMessages } : {}),
    runStart: start ? { session: start } : {},
    shapeOutput: outputShaper(options, config, spillFolder, emit),
    services: { todos, skills },
    prepare: stage.prepare,
    snapshots: stage.snapshots,
    finish: async (messages) => {
      stage.snapshots.seal(messages);
      unsubscribe();
      const { writer } = session;
      if (!writer) return;
      await writer.sync(messages);
      await writer.flush();
    },
  };
}
