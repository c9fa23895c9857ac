/**
 * Shrunk counterexamples the fuzzer found that the scenario format cannot hold (they need a
 * delta shape or a byte split the scripted model does not produce), kept as unit tests. Each
 * failed before its fix; the fix is named beside it.
 */
import { describe, expect, it } from 'vitest';
import { deterministicDeps } from '../../harness/deps.ts';
import { ScriptedModel, type ScriptedResponseTurn } from '../../harness/model/scripted-model.ts';
import { assembleChunks } from '../../harness/model/stream-assembler.ts';
import { shapedChunks } from './deltas.ts';
import { turnMismatch, WireModel } from './wire.ts';

const REQUEST = { model: 'm', messages: [{ role: 'user' as const, content: 'go' }] };

describe('fuzzing regressions', () => {
  // Fixed in harness/model/stream-assembler.ts: a delta without an index continues the call its
  // id started *last*; it used to continue the first, so the second call's arguments went to
  // the first call when a model gave both the same id (stream family, seed 5).
  it('two calls with one id, continuation deltas with the id and no index: each keeps its arguments', async () => {
    const turn: ScriptedResponseTurn = {
      tool_calls: [
        { id: 'call_1', name: 'functions.read_file', arguments: null },
        { id: 'call_1', name: 'READ_FILE', arguments: '{' },
      ],
      stream: true,
    };
    const shape = { cuts: [], repeatId: true, omitIndex: true, indexBase: 0 as const, pack: false };
    const expected = await new ScriptedModel([turn]).generate(REQUEST);
    expect(turnMismatch(assembleChunks(shapedChunks(turn, 1, shape)), expected)).toBeUndefined();
    const wire = new WireModel([turn], [0], deterministicDeps(), shape);
    await wire.generate(REQUEST);
    expect(wire.mismatches).toEqual([]);
  });
});
