/**
 * Step 1 of the pipeline for a whole turn: give every raw tool call a unique id and a name,
 * parse its arguments, and decide what is replayed to the model. A call without an id gets one
 * from the id generator; the same id with the same name and arguments in one turn is a stream
 * artifact and is kept once; an id already used in the conversation (or in this turn with other
 * arguments) is rewritten to `<id>~2`, `<id>~3`, … (handed case B03, claude-code#20693).
 */
import type { HarnessDeps } from '../deps.ts';
import type { RawToolCall, WireToolCall } from '../model/types.ts';
import { canonicalJson, parseArguments, type ParsedArguments } from './arguments.ts';
import type { ToolRegistry } from './registry.ts';

/** One call after assembly. `wire` is what goes back to the model in the assistant message. */
export interface AssembledCall {
  callId: string;
  /** The id the model sent, when it was replaced (`null`: the model sent none). */
  originalId?: string | null;
  name: string;
  rawArguments: unknown;
  parsed: ParsedArguments;
  normalisations: string[];
  /** The call's place in the turn (0-based, after duplicates were dropped). */
  position: number;
  truncated: boolean;
  wire: WireToolCall;
  /** Identity for loop detection: name + canonical arguments (raw text when they do not parse). */
  loopKey: string;
}

/** Options of {@link assembleCalls}. */
export interface AssembleOptions {
  registry: ToolRegistry;
  deps: HarnessDeps;
  /** Ids already used in the conversation; updated with the ids of this turn. */
  usedIds: Set<string>;
  /** The turn was cut off by the output token limit (`finish_reason: "length"`). */
  truncated: boolean;
}

/** Assembles one turn's calls. Never throws, whatever the shapes. */
export function assembleCalls(
  raw: readonly RawToolCall[],
  options: AssembleOptions,
): { calls: AssembledCall[]; dropped: string[] } {
  const calls: AssembledCall[] = [];
  const dropped: string[] = [];
  // Per model id, the calls kept so far in this turn by signature: a re-emitted call (same id,
  // name and arguments as any earlier call of the turn) is a stream artifact and is dropped.
  const seenInTurn = new Map<string, Map<string, AssembledCall>>();
  for (let index = 0; index < raw.length; index += 1) {
    const item = raw[index];
    const call = typeof item === 'object' && item !== null ? item : {};
    const fn =
      call.type === 'custom'
        ? customAsFunction(call)
        : typeof call.function === 'object' && call.function !== null
          ? call.function
          : {};
    const name = typeof fn.name === 'string' ? fn.name : '';
    const rawArguments = fn.arguments;
    // Built only when a call of the turn is looked up or kept under it (the last call of a turn is not).
    let signature =
      typeof rawArguments === 'string' ? undefined : `${name}\u0000${canonicalJson(rawArguments)}`;
    const normalisations: string[] = [];
    const modelId = typeof call.id === 'string' && call.id.trim() !== '' ? call.id : undefined;
    const sameId = modelId !== undefined ? seenInTurn.get(modelId) : undefined;
    if (sameId) {
      signature ??= `${name}\u0000${rawArguments as string}`;
      const kept = sameId.get(signature);
      if (kept) {
        dropped.push(modelId!);
        kept.normalisations.push('duplicate_dropped');
        continue;
      }
    }
    let callId: string;
    let originalId: string | null | undefined;
    if (modelId === undefined) {
      callId = freshId(options);
      originalId = null;
      normalisations.push('id_assigned');
    } else if (options.usedIds.has(modelId)) {
      let n = 2;
      while (options.usedIds.has(`${modelId}~${n}`)) n += 1;
      callId = `${modelId}~${n}`;
      originalId = modelId;
      normalisations.push('id_rewritten');
    } else callId = modelId;
    options.usedIds.add(callId);

    const tool = options.registry.get(name);
    const parsed = parseArguments(rawArguments, tool ? tool.noRequired : true);
    for (const step of parsed.normalisations) normalisations.push(step);
    const replayed = parsed.ok ? parsed.text : '{}';
    if (!parsed.ok) normalisations.push('invalid_arguments_replaced_by_placeholder');
    const wire: WireToolCall = { id: callId, type: 'function', function: { name, arguments: replayed } };
    const loopKey = `${name}\u0000${parsed.ok ? canonicalJson(parsed.args) : String(typeof rawArguments === 'string' ? rawArguments : canonicalJson(rawArguments))}`;
    const position = calls.length;
    const { truncated } = options;
    const assembled: AssembledCall = {
      callId,
      ...(originalId !== undefined ? { originalId } : {}),
      name,
      rawArguments,
      parsed,
      normalisations,
      position,
      truncated,
      wire,
      loopKey,
    };
    calls.push(assembled);
    if (modelId !== undefined && index < raw.length - 1) {
      signature ??= `${name}\u0000${rawArguments as string}`;
      let bySignature = seenInTurn.get(modelId);
      if (!bySignature) {
        bySignature = new Map<string, AssembledCall>();
        seenInTurn.set(modelId, bySignature);
      }
      bySignature.set(signature, assembled);
    }
  }
  return { calls, dropped };
}

/**
 * A custom tool call (`type: "custom"`, free-form `custom.input`; from a stream, the input
 * assembled under `function.arguments`) read as a call of that name with arguments
 * `{"input": …}`, so it is named and answered (the harness offers no custom tools: the answer
 * is `unknown_tool` unless a tool of that name takes `input`). Imported recordings are rewritten
 * the same way (`eval/import/custom-tools.ts`).
 */
function customAsFunction(call: RawToolCall): { name?: unknown; arguments?: unknown } {
  const object = (value: unknown) =>
    typeof value === 'object' && value !== null
      ? (value as { name?: unknown; input?: unknown; arguments?: unknown })
      : undefined;
  const custom = object(call.custom);
  const fn = object(call.function);
  const input = custom ? custom.input : fn?.arguments;
  return {
    name: (custom ?? fn)?.name,
    arguments: JSON.stringify({ input: typeof input === 'string' ? input : '' }),
  };
}

function freshId(options: AssembleOptions): string {
  let id = options.deps.newId('call_');
  while (options.usedIds.has(id)) id = options.deps.newId('call_');
  return id;
}
