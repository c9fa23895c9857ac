/**
 * The wire transport: bodies cut anywhere come back whole, and a streamed turn with multi-byte
 * text, an astral character (a surrogate pair) and two parallel calls assembles to the scripted
 * turn through the live client for *every* single cut point of its SSE body (inside a UTF-8
 * sequence, inside `"index":1`, inside an id) and for cuts every 1–3 bytes.
 */
import { describe, expect, it } from 'vitest';
import { deterministicDeps } from '../../harness/deps.ts';
import { ScriptedModel, type ScriptedResponseTurn } from '../../harness/model/scripted-model.ts';
import type { ModelRequest } from '../../harness/model/types.ts';
import { assembleChunks } from '../../harness/model/stream-assembler.ts';
import { cutText, shapedChunks } from './deltas.ts';
import { completionBody, cutBytes, MAX_PIECES, sseText, turnMismatch, WireModel } from './wire.ts';

const TURN: ScriptedResponseTurn = {
  content: 'é 😀 日本',
  tool_calls: [
    { id: 'call_1', name: 'write_file', arguments: '{"path":"ü.txt","content":"😀é"}' },
    { id: 'call_2', name: 'search', arguments: { query: '日本' } },
  ],
  usage: { prompt_tokens: 12, completion_tokens: 3 },
  stream: true,
};
const REQUEST: ModelRequest = { model: 'm', messages: [{ role: 'user', content: 'go' }] };

async function viaWire(turn: ScriptedResponseTurn, cuts: number[]) {
  const model = new WireModel([turn], cuts, deterministicDeps());
  const response = await model.generate(REQUEST);
  return { response, mismatches: model.mismatches };
}

describe('wire transport', () => {
  it('cuts bytes at the given points (modulo the length) or every k bytes, never losing one', () => {
    const bytes = new TextEncoder().encode('aé😀b');
    expect(cutBytes(bytes, [1, 3, 3, 100 + 6]).map((p) => p.length)).toEqual([1, 1, 1, 5]);
    expect(cutBytes(bytes, [-1])).toHaveLength(bytes.length);
    const big = new Uint8Array(100_000);
    const pieces = cutBytes(big, [-1]);
    expect(pieces.length).toBeLessThanOrEqual(MAX_PIECES);
    expect(pieces.reduce((n, p) => n + p.length, 0)).toBe(big.length);
  });

  it('assembles the scripted turn for every cut inside a UTF-8 character or an index or id field', async () => {
    const expected = await new ScriptedModel([TURN]).generate(REQUEST);
    const text = sseText(TURN, 1);
    const bytes = new TextEncoder().encode(text);
    const cuts = new Set<number>();
    // Inside every multi-byte character: before each continuation byte (10xxxxxx).
    bytes.forEach((byte, i) => {
      if ((byte & 0xc0) === 0x80) cuts.add(i);
    });
    // Inside every "index": and "id": field and its value.
    const ascii = Buffer.from(bytes).toString('latin1');
    for (const field of ['"index":', '"id":'])
      for (let at = ascii.indexOf(field); at >= 0; at = ascii.indexOf(field, at + 1))
        for (let k = 1; k < field.length + 8; k += 1) cuts.add(at + k);
    for (let i = 1; i < bytes.length; i += 25) cuts.add(i);
    expect(text).toContain('"index":1');
    expect(cuts.size).toBeGreaterThan(100);
    for (const cut of cuts) {
      const { response, mismatches } = await viaWire(TURN, [cut]);
      expect(mismatches, `cut at byte ${cut}`).toEqual([]);
      expect(turnMismatch(response, expected), `cut at byte ${cut}`).toBeUndefined();
    }
  });

  it('assembles the scripted turn when the body arrives 1, 2 or 3 bytes at a time, streamed or whole', async () => {
    for (const stream of [true, false])
      for (const step of [1, 2, 3]) {
        const { mismatches } = await viaWire({ ...TURN, stream }, [-step]);
        expect(mismatches, `stream ${stream}, every ${step} bytes`).toEqual([]);
      }
    expect(completionBody(TURN, 1)).toMatchObject({ choices: [{ finish_reason: 'tool_calls' }] });
  });

  it('every delta shape (cuts inside surrogate pairs, ids repeated, indexes missing or from 1, packed) assembles the turn', async () => {
    expect(cutText('a😀b', [2])).toEqual(['a\ud83d', '\ude00b']);
    const expected = await new ScriptedModel([TURN]).generate(REQUEST);
    for (const repeatId of [false, true])
      for (const omitIndex of [false, true])
        for (const pack of [false, true])
          for (const indexBase of [0, 1] as const)
            for (const cuts of [[], [1], [2], [1, 2, 3, 5, 8, 13]]) {
              const shape = { cuts, repeatId, omitIndex, indexBase, pack };
              const mismatch = turnMismatch(assembleChunks(shapedChunks(TURN, 1, shape)), expected);
              expect(mismatch, JSON.stringify(shape)).toBeUndefined();
            }
  });

  it('reports a turn that differs, and an error on one side only', async () => {
    const expected = await new ScriptedModel([TURN]).generate(REQUEST);
    expect(turnMismatch({ ...expected, content: 'é 😀 日' }, expected)).toMatch(/the live client assembled/);
    const model = new WireModel([{ error: { status: 400, body: 'bad' } }], [], deterministicDeps());
    await expect(model.generate(REQUEST)).rejects.toThrow(/400/);
    expect(model.mismatches).toEqual([]);
  });
});
