/**
 * Why a request the harness sent differs from the recorded one, when the reason is known. An
 * imported recording was made by another client, so some differences are expected: a decision of
 * the harness under test (it answered a call itself, cut a result, dropped reasoning a provider
 * ignores), or a habit of the recorded client the harness does not copy (it labels messages with
 * an agent name, changes its settings after the first request, grows its tool list). Such a
 * divergence is *explained*: a finding with its reason, never a failure, counted apart in the
 * table. The reason starts with `harness decision:` or `client habit:`. Anything else stays
 * unexplained, and a replay with an unexplained divergence is not faithful.
 */
import { contentText } from '../../harness/model/content.ts';
import type { ChatMessage } from '../../harness/model/types.ts';
import { canonicalJson } from '../cassette/canonical.ts';
import type { Divergence } from './request-diff.ts';

/**
 * The tool-result error types that are decisions of the harness under test (validation,
 * policy, loop detection), not failures of the replay to answer a call from the recording.
 */
export const HARNESS_DECISIONS: ReadonlySet<string> = new Set([
  'invalid_json',
  'invalid_arguments',
  'unknown_tool',
  'truncated_call',
  'policy_violation',
  'path_outside_workspace',
  'approval_denied',
  'repeated_call',
  'subagent_depth_exceeded',
]);

/** The error type of a harness tool-result envelope when it is one of {@link HARNESS_DECISIONS}. */
function harnessDecision(content: string): string | undefined {
  try {
    const type = (JSON.parse(content) as { error?: { type?: unknown } }).error?.type;
    return typeof type === 'string' && HARNESS_DECISIONS.has(type) ? type : undefined;
  } catch {
    return undefined;
  }
}

/** What {@link explainDivergence} looks at besides the divergence. */
export interface ExplainContext {
  /** The messages the harness sent (wire form). */
  sent: readonly ChatMessage[];
  /** The same messages as the harness keeps them, before the wire form (`wireMessages`). */
  history: readonly ChatMessage[];
  /** The request the harness sent, normalised (`normaliseBody`). */
  normalisedSent: Record<string, unknown>;
  /**
   * The recorded requests of the conversation, normalised, the one the run's settings and tools
   * were planned from first (`planStart`).
   */
  conversation: readonly Record<string, unknown>[];
  /** The recorded request, normalised. */
  normalisedRecorded: Record<string, unknown>;
  /** The recorded result the replay's tools served for a call id (`RecordedToolbox.servedResult`). */
  servedResult: (callId: string) => string | undefined;
  /** True when some recorded model response of the cassette made this call (name, arguments). */
  modelMadeCall: (name: string, args: unknown) => boolean;
}

/** The value at a JSON pointer (RFC 6901), `undefined` when absent. */
function at(value: unknown, pointer: string): unknown {
  let here = value;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof here !== 'object' || here === null) return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}

const same = (a: unknown, b: unknown) =>
  a !== undefined && b !== undefined && canonicalJson(a) === canonicalJson(b);

/**
 * `divergence` with `explained` set when one of the rules below gives its reason, else as it is:
 * - a tool message the harness wrote itself by a decision ({@link HARNESS_DECISIONS}: a
 *   validation error, a denial, a repeated call; also for a call the recorded client dropped) or
 *   shaped (the recorded result cut by the output cap), and a call of a served turn the harness
 *   kept where the recorded client dropped it (crewAI runs only the first of parallel calls),
 *   with the tool message answering it. Any other call the replay could not answer from the
 *   recording (`not_executed`) is not a decision: unexplained;
 * - reasoning left out of an assistant turn without tool calls where the client sent
 *   `reasoning_content` back: the harness's rule (`harness/model/reasoning.ts`: DeepSeek ignores
 *   it there, the legacy `deepseek-reasoner` refused it);
 * - the arguments of a call the model made (some recorded response made it with the arguments the
 *   harness sent) that the recorded client sent back as the value of its only argument
 *   (langchaingo's functions agent): the harness keeps the model's call. Any other rewrite of
 *   the arguments stays unexplained (it cannot be told from a replay that left the recording);
 * - a `name` on an assistant message only the recording has: the client labels the model's
 *   messages with an agent name (AutoGen); the harness is one participant;
 * - a tool call only the recording has that no recorded model response made, and its result:
 *   the client inserted a call of its own (pydantic-ai's `search_tools` for deferred tools);
 * - a top-level field (a setting, `tool_choice`, `tools`) where the harness sends what the
 *   conversation's first request had and the client changed it later (a reflection request
 *   without tools), and a tool the harness declares that another request of the conversation
 *   declared (a client growing its tool list): the harness keeps one set of settings and tools
 *   per conversation.
 */
export function explainDivergence(divergence: Divergence, context: ExplainContext): Divergence {
  const why = reason(divergence, context);
  return why ? { ...divergence, explained: why } : divergence;
}

function reason(divergence: Divergence, context: ExplainContext): string | undefined {
  const { path, kind } = divergence;
  if (kind === 'omitted') return undefined;
  if (kind === 'extra' && /^\/messages\/\d+\/tool_calls\/\d+$/.test(path))
    return 'harness decision: the recorded client dropped a call of this turn; the harness answers every call';
  const inMessage = /^\/messages\/(\d+)(\/.*)?$/.exec(path);
  if (inMessage) return messageReason(divergence, inMessage[2] ?? '', Number(inMessage[1]), context);
  const first = context.conversation[0];
  const replayed = at(context.normalisedSent, path);
  if (first && (same(at(first, path), replayed) || (replayed === undefined && at(first, path) === undefined)))
    return `client habit: the recorded client changed ${path.slice(1)} after the conversation's first request; the harness keeps the settings and tools it started with`;
  if (/^\/tools\/[^/]+/.test(path)) {
    const tool = /^\/tools\/[^/]+/.exec(path)![0];
    const mine = at(context.normalisedSent, tool);
    if (context.conversation.some((request) => same(at(request, tool), mine)))
      return 'client habit: the recorded client changed its tool list between requests; the harness declares every tool of the conversation from the start';
  }
  return undefined;
}

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The calls of a (normalised) assistant message that no recorded model response made, or `undefined` if any was. */
function clientMadeCalls(message: unknown, context: ExplainContext): Record<string, unknown>[] | undefined {
  if (!isObj(message) || message.role !== 'assistant' || !Array.isArray(message.tool_calls)) return undefined;
  const calls = message.tool_calls.filter(isObj);
  if (calls.length === 0) return undefined;
  for (const call of calls) {
    const fn = isObj(call.function) ? call.function : {};
    if (context.modelMadeCall(String(fn.name ?? ''), fn.arguments)) return undefined;
  }
  return calls;
}

/**
 * A whole message only the recording has, which the recorded client wrote itself: a tool call
 * no recorded model response made (pydantic-ai's `search_tools` for deferred tools), or the
 * result of such a call.
 */
function insertedByClient(path: string, context: ExplainContext): string | undefined {
  const messages = context.normalisedRecorded.messages;
  const index = Number(path.split('/')[2]);
  if (!Array.isArray(messages) || !isObj(messages[index])) return undefined;
  const message = messages[index] as Record<string, unknown>;
  const habit =
    'client habit: the recorded client inserted a tool call of its own (no recorded model response made it)';
  if (clientMadeCalls(message, context)) return `${habit}; the harness runs only the model's calls`;
  if (message.role !== 'tool') return undefined;
  for (let i = index - 1; i >= 0; i--) {
    const calls = clientMadeCalls(messages[i], context);
    if (calls?.some((call) => call.id === message.tool_call_id)) return `${habit}, and this is its result`;
    if (isObj(messages[i]) && (messages[i] as Record<string, unknown>).role === 'assistant') return undefined;
  }
  return undefined;
}

/**
 * True when the call the harness's tool message `index` answers is absent from every assistant
 * message of the recorded request (calls compare by what they link: `<name>#<position>`), i.e.
 * the recorded client dropped it from the model's turn (crewAI runs only the first of parallel
 * calls).
 */
function droppedByClient(index: number, context: ExplainContext): boolean {
  const link = at(context.normalisedSent, `/messages/${index}/tool_call_id`);
  const recorded = context.normalisedRecorded.messages;
  if (typeof link !== 'string' || !Array.isArray(recorded)) return false;
  return !recorded.some(
    (m) => isObj(m) && Array.isArray(m.tool_calls) && m.tool_calls.some((c) => isObj(c) && c.id === link),
  );
}

/**
 * True when `recorded` is the value of the only argument in `sent` (a JSON object of one key),
 * as a client that stores a one-argument call by its input writes it back (langchaingo's
 * functions agent sends `15 * 4` for `{"__arg1": "15 * 4"}`).
 */
function unwrappedSingleArgument(sent: unknown, recorded: unknown): boolean {
  if (typeof sent !== 'string' || typeof recorded !== 'string') return false;
  try {
    const value: unknown = JSON.parse(sent);
    if (!isObj(value) || Object.keys(value).length !== 1) return false;
    const only = Object.values(value)[0];
    return typeof only === 'string' ? only === recorded : canonicalJson(only) === recorded;
  } catch {
    return false;
  }
}

function messageReason(
  divergence: Divergence,
  rest: string,
  index: number,
  context: ExplainContext,
): string | undefined {
  if (rest === '' && divergence.kind === 'missing') return insertedByClient(divergence.path, context);
  const message = context.sent[index];
  if (message?.role === 'assistant') {
    if (rest === '/name' && divergence.kind === 'missing')
      return "client habit: the recorded client labels the model's messages with a participant name; the harness is one participant";
    const argsOf = /^\/tool_calls\/(\d+)\/function\/arguments$/.exec(rest);
    const call = argsOf ? message.tool_calls?.[Number(argsOf[1])] : undefined;
    if (
      call &&
      divergence.kind === 'changed' &&
      context.modelMadeCall(call.function.name, call.function.arguments) &&
      unwrappedSingleArgument(call.function.arguments, divergence.recorded)
    )
      return "client habit: the recorded client rewrote the arguments of the model's call in its history (langchaingo's functions agent sends back the single argument's value); the harness sends back the call the model made";
    const kept = context.history[index]?.role === 'assistant' ? context.history[index] : undefined;
    if (
      rest === '/reasoning' &&
      divergence.kind === 'missing' &&
      (message.tool_calls ?? []).length === 0 &&
      kept?.role === 'assistant' &&
      kept.reasoning_content !== undefined
    )
      return 'harness decision: reasoning_content of a turn without tool calls is not sent back (DeepSeek ignores it there and its legacy reasoner refused it; harness/model/reasoning.ts)';
    return undefined;
  }
  if (message?.role !== 'tool') return undefined;
  if (rest !== '' && !rest.startsWith('/content')) return undefined;
  if (rest === '' && divergence.kind !== 'extra') return undefined;
  const served = context.servedResult(message.tool_call_id);
  const decision = served === undefined ? harnessDecision(contentText(message.content)) : undefined;
  if (decision)
    return `harness decision: the harness answered this call itself (${decision}) where the recorded client ran it`;
  if (rest === '' && served === undefined && droppedByClient(index, context))
    return 'client habit: the recorded client dropped this call of the turn, so the recording holds no result for it';
  if (served !== undefined && typeof message.content === 'string' && served !== message.content)
    return 'harness decision: the harness shaped the recorded result (output cap)';
  return undefined;
}
