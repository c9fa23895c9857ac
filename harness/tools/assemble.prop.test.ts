/**
 * assembleCalls against its plain definition (a copy of the function before the per-call
 * savings: signatures built for every call, every call kept under its id, spreads): the same
 * calls, ids, normalisations, wire calls, loop keys and dropped ids, with the keys in the same
 * order, on turns of repeated, missing and reused ids and re-emitted calls.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deterministicDeps } from '../deps.ts';
import type { RawToolCall } from '../model/types.ts';
import { type AssembledCall, type AssembleOptions, assembleCalls } from './assemble.ts';
import { canonicalJson, parseArguments } from './arguments.ts';
import { FILE_TOOLS } from './builtin/files.ts';
import { ToolRegistry } from './registry.ts';

const registry = new ToolRegistry(Object.values(FILE_TOOLS));

function reference(raw: readonly RawToolCall[], options: AssembleOptions) {
  const calls: AssembledCall[] = [];
  const dropped: string[] = [];
  const seenInTurn = new Map<string, Map<string, AssembledCall>>();
  for (const item of raw) {
    const call = typeof item === 'object' && item !== null ? item : {};
    const fn = typeof call.function === 'object' && call.function !== null ? call.function : {};
    const name = typeof fn.name === 'string' ? fn.name : '';
    const rawArguments = fn.arguments;
    const signature = `${name}\u0000${typeof rawArguments === 'string' ? rawArguments : canonicalJson(rawArguments)}`;
    const normalisations: string[] = [];
    const modelId = typeof call.id === 'string' && call.id.trim() !== '' ? call.id : undefined;
    const kept = modelId !== undefined ? seenInTurn.get(modelId)?.get(signature) : undefined;
    if (modelId !== undefined && kept) {
      dropped.push(modelId);
      kept.normalisations.push('duplicate_dropped');
      continue;
    }
    let callId: string;
    let originalId: string | null | undefined;
    if (modelId === undefined) {
      callId = options.deps.newId('call_');
      while (options.usedIds.has(callId)) callId = options.deps.newId('call_');
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
    normalisations.push(...parsed.normalisations);
    const replayed = parsed.ok ? parsed.text : '{}';
    if (!parsed.ok) normalisations.push('invalid_arguments_replaced_by_placeholder');
    const assembled: AssembledCall = {
      callId,
      ...(originalId !== undefined ? { originalId } : {}),
      name,
      rawArguments,
      parsed,
      normalisations,
      position: calls.length,
      truncated: options.truncated,
      wire: { id: callId, type: 'function', function: { name, arguments: replayed } },
      loopKey: `${name}\u0000${parsed.ok ? canonicalJson(parsed.args) : String(typeof rawArguments === 'string' ? rawArguments : canonicalJson(rawArguments))}`,
    };
    calls.push(assembled);
    if (modelId !== undefined) {
      const bySignature = seenInTurn.get(modelId) ?? new Map<string, AssembledCall>();
      bySignature.set(signature, assembled);
      seenInTurn.set(modelId, bySignature);
    }
  }
  return { calls, dropped };
}

const id = fc.constantFrom(undefined, '', ' ', 'call_1', 'call_2', 'call_1~2', 7, null);
const name = fc.constantFrom('read_file', 'list_dir', 'nope', '', 3);
const args = fc.oneof(
  fc.constantFrom('{"path":"a"}', '{"path":"b","limit":2}', '', '{bad', '"{\\"path\\":\\"a\\"}"', '[]'),
  fc.constantFrom(undefined, null, { path: 'a' }, { limit: 2, path: 'b' }, [1]),
);
const rawCall: fc.Arbitrary<RawToolCall> = fc.oneof(
  fc.record(
    { id, type: fc.constant('function'), function: fc.record({ name, arguments: args }) },
    {
      requiredKeys: ['type', 'function'],
    },
  ) as fc.Arbitrary<RawToolCall>,
  fc.constantFrom(null, 3, {}, { function: null }) as fc.Arbitrary<RawToolCall>,
);

describe('assembleCalls (property)', () => {
  it('equals its plain definition, keys in the same order, over turns with repeated and reused ids', () => {
    // Turns drawn from a small pool of calls, so re-emitted calls and reused ids are common.
    const pooled = fc
      .tuple(
        fc.array(rawCall, { minLength: 1, maxLength: 3 }),
        fc.array(fc.array(fc.nat(5), { maxLength: 6 }), { minLength: 1, maxLength: 3 }),
      )
      .map(([pool, picks]) => picks.map((turn) => turn.map((i) => pool[i % pool.length]!)));
    fc.assert(
      fc.property(pooled, (turns) => {
        const ours = { registry, deps: deterministicDeps(), usedIds: new Set<string>(), truncated: false };
        const theirs = { registry, deps: deterministicDeps(), usedIds: new Set<string>(), truncated: false };
        for (const turn of turns) {
          const a = assembleCalls(turn, ours);
          const b = reference(turn, theirs);
          expect(JSON.stringify(a)).toBe(JSON.stringify(b));
          expect(a).toEqual(b);
        }
        expect([...ours.usedIds]).toEqual([...theirs.usedIds]);
      }),
      { numRuns: 1500 },
    );
  });
});
