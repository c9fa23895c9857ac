/**
 * `chat.completion.chunk` deltas of a scripted turn in the shapes real servers send, beyond the
 * scripted model's own chunker: text and argument strings cut at any UTF-16 position (a cut
 * between the halves of a surrogate pair leaves a lone surrogate in each chunk's JSON, as
 * `\ud83d`), the `id` repeated on every delta or only on the first, continuation deltas without
 * an `index`, indexes that start at 1 (vercel/ai#18382, "irregular or missing indexes"), and
 * several deltas packed into one chunk. Every shape must assemble to the same turn.
 */
import type { ScriptedResponseTurn } from '../../harness/model/scripted-model.ts';

/** How to cut and shape the deltas of one turn. */
export interface DeltaShape {
  /** UTF-16 cut points for text and argument strings (taken modulo each string's length). */
  cuts: number[];
  /** Continuation deltas repeat the call's id. */
  repeatId: boolean;
  /** Continuation deltas carry no `index` (the head delta always does). */
  omitIndex: boolean;
  /** The first call's index: 0 (OpenAI) or 1 (some gateways). */
  indexBase: 0 | 1;
  /** A call's head and first argument piece travel in one chunk. */
  pack: boolean;
}

/** Cuts `text` at `cuts` modulo its length, by UTF-16 code unit (surrogate pairs may be split). */
export function cutText(text: string, cuts: readonly number[]): string[] {
  if (text.length <= 1) return [text];
  const points = [...new Set(cuts.map((c) => c % text.length).filter((c) => c > 0))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let last = 0;
  for (const point of [...points, text.length]) {
    pieces.push(text.slice(last, point));
    last = point;
  }
  return pieces;
}

function finishOf(turn: ScriptedResponseTurn): string | null {
  if (turn.finish_reason !== undefined) return turn.finish_reason;
  return turn.tool_calls && turn.tool_calls.length > 0 ? 'tool_calls' : 'stop';
}

/** The chunk objects of `turn` in `shape`; `seq` makes the chunk id unique. */
export function shapedChunks(turn: ScriptedResponseTurn, seq: number, shape: DeltaShape): unknown[] {
  const id = `chatcmpl-shaped-${seq}`;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const chunks: unknown[] = [chunk({ role: 'assistant' })];
  if (turn.reasoning_content !== undefined)
    for (const piece of cutText(turn.reasoning_content, shape.cuts))
      chunks.push(chunk({ reasoning_content: piece }));
  if (typeof turn.content === 'string')
    for (const piece of cutText(turn.content, shape.cuts)) chunks.push(chunk({ content: piece }));
  (turn.tool_calls ?? []).forEach((call, i) => {
    const index = i + shape.indexBase;
    const head: Record<string, unknown> = {
      index,
      type: 'function',
      function: { name: call.name, arguments: '' },
    };
    if (call.id !== undefined) head.id = call.id;
    const more = (fn: Record<string, unknown>) => ({
      ...(shape.omitIndex ? {} : { index }),
      ...(shape.repeatId && call.id !== undefined ? { id: call.id } : {}),
      function: fn,
    });
    const rest: Record<string, unknown>[] = [];
    if (typeof call.arguments === 'string') {
      if (call.arguments !== '')
        for (const piece of cutText(call.arguments, shape.cuts)) rest.push(more({ arguments: piece }));
    } else if (call.arguments !== null && call.arguments !== undefined)
      rest.push(more({ arguments: structuredClone(call.arguments) }));
    if (shape.pack && rest.length > 0) chunks.push(chunk({ tool_calls: [head, rest.shift()] }));
    else chunks.push(chunk({ tool_calls: [head] }));
    for (const delta of rest) chunks.push(chunk({ tool_calls: [delta] }));
  });
  chunks.push(chunk({}, finishOf(turn)));
  if (turn.usage)
    chunks.push({
      id,
      object: 'chat.completion.chunk',
      choices: [],
      usage: { ...turn.usage, total_tokens: turn.usage.prompt_tokens + turn.usage.completion_tokens },
    });
  return chunks;
}
