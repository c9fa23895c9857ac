/**
 * The context stage before every model call: from the working history to the request, layer by
 * layer, cheapest first (`docs/architecture.md` §7), each switchable in
 * `context.layers` so configurations can be compared:
 *
 * 1. `stub`: above `context.stubAt × window`, old tool outputs become one-line stubs;
 * 2. `compact`: above `context.compactAt × window`, the old turns are summarised by the model
 *    (one summarisation call) and replaced by a context note with the summary and the pinned
 *    facts, the recent turns kept verbatim; `drop` instead (or when that is not enough) removes
 *    the oldest turns and keeps the pinned facts in the note;
 * 3. over the window itself, stubs and drops may reach recent turns; if the request still does
 *    not fit, the run stops with `context_overflow` (nothing more can be removed).
 *
 * The reminder is appended to the request, never to the history. The cap and spill layers act
 * earlier, on each tool output (`spill.ts`). Pure apart from the summarisation callback.
 */
import type { HarnessConfig } from '../config.ts';
import type { ChatMessage, SystemMessage, ToolSchema, UserMessage } from '../model/types.ts';
import {
  applyCompaction,
  buildContextNote,
  capSummary,
  planCompaction,
  summaryOfNote,
  summaryRequest,
  type NoteCounts,
} from './compaction.ts';
import { contextNoteIndex, headLength, taskOf } from './groups.ts';
import type { TokenMeter } from './meter.ts';
import { dropOldGroups, type StubScan, stubOldOutputs } from './trim.ts';
import { contentText } from '../model/content.ts';

/** The facts the stage pins, rendered when a note is (re)built. */
export type PinsRenderer = () => string;

/** One thing a layer did, for the `compaction` event. Sizes in tokens (estimated requests). */
export interface ContextAction {
  layer: 'stub' | 'drop' | 'summary';
  trigger: 'auto' | 'overflow';
  beforeTokens: number;
  afterTokens: number;
  detail: string;
  /** The facts kept by the harness (summary and drop). */
  pinned?: string[];
}

/** Inputs of {@link prepareContext}. */
export interface ContextInput {
  history: readonly ChatMessage[];
  /** Tool schemas declared on this call (none on a wrap-up turn). */
  tools?: readonly ToolSchema[];
  config: HarnessConfig;
  meter: TokenMeter;
  reminder?: UserMessage;
  pins: PinsRenderer;
  counts: NoteCounts;
  /** Where the stub layer's scan may start (kept by the caller across turns; `trim.ts`). */
  stubScan?: StubScan;
  /** Sends a summarisation request; resolves with the summary text, or undefined when the call failed. Absent: no compaction (wrap-up turn). */
  summarize?: (messages: ChatMessage[]) => Promise<string | undefined>;
}

/** The request to send and the new working history. */
export interface ContextOutput {
  /** The working history after the layers (the input array itself when nothing changed). */
  history: ChatMessage[];
  /** History plus reminder: the messages of the request. */
  messages: ChatMessage[];
  /** Estimated tokens of the request (messages and tool schemas), calibrated by reported usage. */
  tokens: number;
  /** The tokenizer's count of the request (`countRequest` of `messages` and the tools), uncalibrated. */
  counted: number;
  actions: ContextAction[];
  counts: NoteCounts;
  stop?: { reason: 'context_overflow'; detail: string };
}

/** Stubbing goes down to this fraction of `stubAt × window`. */
export const STUB_LOW_WATER = 0.7;

/** The facts listed in `pinned` of a summary or drop event. */
export const PINNED_FACTS = ['task', 'todos', 'files', 'decisions', 'open_threads'];

/** The history with `note` as its context note (replacing the old one, or right after the task). */
export function withNote(history: readonly ChatMessage[], note: SystemMessage): ChatMessage[] {
  const at = contextNoteIndex(history);
  if (at >= 0) return [...history.slice(0, at), note, ...history.slice(at + 1)];
  const head = headLength(history);
  return [...history.slice(0, head), note, ...history.slice(head)];
}

/** What the layers decide: the request is the history, then the reminder. */
export type LayerOutput = Omit<ContextOutput, 'messages'>;

/** Runs the layers (see the file comment); `messages` is the new history, then the reminder. */
export async function prepareContext(input: ContextInput): Promise<ContextOutput> {
  const out = await runLayers(input);
  return { ...out, messages: input.reminder ? [...out.history, input.reminder] : out.history.slice() };
}

/** Runs the layers without building the request's message list (the loop makes it a view: `snapshots.ts`). */
export async function runLayers(input: ContextInput): Promise<LayerOutput> {
  const { config, meter, reminder } = input;
  const { context } = config;
  const { layers } = context;
  const window = context.windowTokens;
  const stubAt = Math.floor(context.stubAt * window);
  const compactAt = Math.floor(context.compactAt * window);
  const tools = input.tools && input.tools.length > 0 ? input.tools : undefined;
  let history = input.history as ChatMessage[];
  // Counted in parts (history, reminder, schemas): the history's sum is kept incrementally.
  const first = meter.count(history, reminder, tools);
  let tokens = first + meter.driftTokens;
  // Below every threshold no layer acts: the request is the history (and the reminder) as it is.
  if (tokens <= window && tokens <= compactAt && !(layers.stub && tokens > stubAt))
    return { history, tokens, counted: first, actions: [], counts: { ...input.counts } };
  const estimate = (h: readonly ChatMessage[]) => meter.count(h, reminder, tools) + meter.driftTokens;
  let counts = { ...input.counts };
  const actions: ContextAction[] = [];
  // Layers measure messages with the tokenizer; when the provider reported more (the meter's
  // drift), scale what they must free by the same factor (reported / counted).
  const scale = () => {
    const drift = meter.driftTokens;
    return drift > 0 && tokens > drift ? tokens / (tokens - drift) : 1;
  };

  const stub = (target: number, keepRecentGroups: number, trigger: ContextAction['trigger']) => {
    const result = stubOldOutputs(history, {
      toFree: Math.ceil((tokens - target) / scale()),
      keepRecentGroups,
      ...(input.stubScan ? { scan: input.stubScan } : {}),
    });
    if (result.stubbed === 0) return;
    const before = tokens;
    meter.historyReplaced(history, result.history, result.freed);
    history = result.history;
    meter.invalidate();
    tokens = estimate(history);
    actions.push({
      layer: 'stub',
      trigger,
      beforeTokens: before,
      afterTokens: tokens,
      detail: `${result.stubbed} old tool outputs replaced by stubs (${result.freed} tokens)`,
    });
  };
  const drop = (target: number, trigger: ContextAction['trigger']) => {
    const before = tokens;
    let total = 0;
    for (let round = 0; round < 4 && tokens > target; round += 1) {
      const result = dropOldGroups(history, {
        toFree: Math.ceil((tokens - target) / scale()),
        keepRecentGroups: 1,
      });
      if (result.dropped === 0) break;
      total += result.dropped;
      counts = { ...counts, droppedTurns: counts.droppedTurns + result.dropped };
      const noteAt = contextNoteIndex(result.history);
      const summary = noteAt >= 0 ? summaryOfNote(contentText(result.history[noteAt]!.content)) : undefined;
      history = withNote(
        result.history,
        buildContextNote({ ...(summary !== undefined ? { summary } : {}), counts, pins: input.pins() }),
      );
      meter.invalidate();
      tokens = estimate(history);
    }
    if (total > 0)
      actions.push({
        layer: 'drop',
        trigger,
        beforeTokens: before,
        afterTokens: tokens,
        detail: `${total} oldest turns dropped`,
        pinned: PINNED_FACTS,
      });
  };

  // Hysteresis: once over stubAt, stub down to a low-water mark, so the prefix (and a provider's
  // prompt cache) stays stable for many turns instead of changing at every turn.
  if (layers.stub && tokens > stubAt)
    stub(Math.floor(stubAt * STUB_LOW_WATER), context.keepRecentTurns, 'auto');

  if (tokens > compactAt) {
    if (layers.compact && input.summarize) {
      const plan = planCompaction(history, Math.floor((context.keepRecentShare * window) / scale()));
      if (plan) {
        const before = tokens;
        const request = summaryRequest(
          plan,
          taskOf(history),
          Math.max(500, Math.min(compactAt, Math.floor(window * 0.9)) - 400),
        );
        const summary = await input.summarize(request);
        if (summary !== undefined) {
          counts = {
            ...counts,
            compactions: counts.compactions + 1,
            summarisedTurns: counts.summarisedTurns + plan.oldGroups,
          };
          const note = buildContextNote({
            summary: capSummary(summary, Math.max(200, Math.floor(window * 0.15))),
            counts,
            pins: input.pins(),
          });
          history = applyCompaction(plan, note);
          meter.invalidate();
          tokens = estimate(history);
          actions.push({
            layer: 'summary',
            trigger: 'auto',
            beforeTokens: before,
            afterTokens: tokens,
            detail: `${plan.oldGroups} turns summarised, ${plan.recent.length} recent messages kept verbatim`,
            pinned: PINNED_FACTS,
          });
          if (layers.stub && tokens > compactAt) stub(compactAt, 1, 'auto');
        }
      }
    }
    if (tokens > compactAt && layers.drop) drop(compactAt, 'auto');
  }

  if (tokens > window) {
    if (layers.stub) stub(window, 0, 'overflow');
    if (tokens > window && layers.drop) drop(window, 'overflow');
  }

  const counted = meter.count(history, reminder, tools);
  if (tokens > window) {
    return {
      history,
      tokens,
      counted,
      actions,
      counts,
      stop: {
        reason: 'context_overflow',
        detail: `the next request needs about ${tokens} tokens, over the window of ${window}, and no layer can remove more (head and latest turn kept)`,
      },
    };
  }
  return { history, tokens, counted, actions, counts };
}
