/**
 * Property tests of `harness/model/stream-assembler.ts` (the replay model's stream path): any
 * set of tool calls, streamed as `chat.completion.chunk` deltas with the arguments split at
 * arbitrary points, the name whole on the first delta and repeated on any later ones (some
 * gateways repeat it on every chunk; the assembler sets it, as the `openai` SDK's stream helper
 * does, and never concatenates), interleaved across calls, packed into chunks arbitrarily and
 * sent as SSE text, assembles back into the original calls.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembleChunks, parseSseData } from '../../harness/model/stream-assembler.ts';

interface Call {
  id: string;
  name: string;
  args: string;
}

const callArb: fc.Arbitrary<Call> = fc.record({
  id: fc.stringMatching(/^call_[A-Za-z0-9]{1,12}$/),
  name: fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/),
  args: fc.oneof(
    fc.constant(''),
    fc.constant('{}'),
    fc
      .dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 })
      .map((o) => JSON.stringify(o)),
  ),
});

/** Splits `text` at the given cut points (taken modulo its length, duplicates ignored). */
function split(text: string, cuts: number[]): string[] {
  if (text.length === 0) return [];
  const points = [...new Set(cuts.map((c) => c % text.length).filter((c) => c > 0))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let last = 0;
  for (const point of [...points, text.length]) {
    pieces.push(text.slice(last, point));
    last = point;
  }
  return pieces;
}

type Delta = Record<string, unknown>;

/**
 * The deltas of one call: the first carries id, type, index and the name; each later delta
 * repeats the name when `repeat` says so for its position.
 */
function deltasOf(
  call: Call,
  index: number | undefined,
  repeat: boolean[],
  argCuts: number[],
  firstArgsEmpty: boolean,
): Delta[] {
  const args = split(call.args, argCuts);
  const at = index === undefined ? {} : { index };
  const first: Delta = {
    ...at,
    id: call.id,
    type: 'function',
    function: { name: call.name, ...(firstArgsEmpty ? { arguments: '' } : {}) },
  };
  const rest: Delta[] = args.map((piece, i) => ({
    ...at,
    function: { ...(repeat[i % Math.max(repeat.length, 1)] ? { name: call.name } : {}), arguments: piece },
  }));
  return [first, ...rest];
}

const chunk = (deltas: Delta[]): Record<string, unknown> => ({
  object: 'chat.completion.chunk',
  model: 'm',
  choices: [{ index: 0, delta: { tool_calls: deltas }, finish_reason: null }],
});

const expected = (calls: Call[], indexes: number[]) =>
  calls.map((c, i) => ({
    id: c.id,
    type: 'function',
    function: { name: c.name, arguments: c.args },
    index: indexes[i],
  }));

describe('StreamAssembler properties', () => {
  it('reassembles indexed tool calls split, interleaved and packed arbitrarily (also through SSE text)', () => {
    const scenario = fc
      .record({
        calls: fc.uniqueArray(callArb, { minLength: 1, maxLength: 4, selector: (c) => c.id }),
        firstIndex: fc.integer({ min: 0, max: 2 }),
        gaps: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 4, maxLength: 4 }),
        cuts: fc.array(
          fc.record({
            name: fc.array(fc.boolean(), { maxLength: 3 }),
            args: fc.array(fc.nat(), { maxLength: 8 }),
            empty: fc.boolean(),
          }),
          {
            minLength: 4,
            maxLength: 4,
          },
        ),
        crlf: fc.boolean(),
      })
      .chain((s) => {
        const indexes = s.calls.map((_, i) => s.firstIndex + s.gaps.slice(0, i).reduce((a, b) => a + b, 0));
        const perCall = s.calls.map((c, i) =>
          deltasOf(c, indexes[i], s.cuts[i]!.name, s.cuts[i]!.args, s.cuts[i]!.empty),
        );
        // Interleave: a shuffled list of call numbers, one per delta; each call keeps its own order.
        const tokens = perCall.flatMap((deltas, i) => deltas.map(() => i));
        return fc.record({
          s: fc.constant(s),
          indexes: fc.constant(indexes),
          perCall: fc.constant(perCall),
          order: fc.shuffledSubarray(tokens, { minLength: tokens.length, maxLength: tokens.length }),
          breaks: fc.array(fc.boolean(), { minLength: tokens.length, maxLength: tokens.length }),
        });
      });
    fc.assert(
      fc.property(scenario, ({ s, indexes, perCall, order, breaks }) => {
        const cursors = perCall.map(() => 0);
        const stream: Delta[] = order.map((i) => perCall[i]![cursors[i]!++]!);
        // The first delta of each call must come before its others: shuffling tokens keeps that,
        // since each call's deltas are drawn in order.
        const chunks: Record<string, unknown>[] = [
          {
            object: 'chat.completion.chunk',
            model: 'm',
            choices: [{ index: 0, delta: { role: 'assistant', content: null } }],
          },
        ];
        let group: Delta[] = [];
        stream.forEach((delta, i) => {
          group.push(delta);
          if (breaks[i] || i === stream.length - 1) {
            chunks.push(chunk(group));
            group = [];
          }
        });
        chunks.push({
          object: 'chat.completion.chunk',
          model: 'm',
          choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }],
        });
        chunks.push({
          object: 'chat.completion.chunk',
          model: 'm',
          choices: [],
          usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
        });

        const direct = assembleChunks(chunks);
        expect(direct.toolCalls).toEqual(expected(s.calls, indexes));
        expect(direct.finishReason).toBe('tool_calls');
        expect(direct.usage).toEqual({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 });

        const eol = s.crlf ? '\r\n' : '\n';
        const sse =
          [...chunks.map((c) => `data: ${JSON.stringify(c)}`), 'data: [DONE]'].join(`${eol}${eol}`) +
          eol +
          eol;
        const data = parseSseData(sse);
        expect(data.at(-1)).toBe('[DONE]');
        expect(assembleChunks(data.slice(0, -1).map((d) => JSON.parse(d) as unknown))).toEqual(direct);
      }),
      { numRuns: 300 },
    );
  });

  it('reassembles calls sent one after another without any index (a new id starts a new call)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(callArb, { minLength: 1, maxLength: 4, selector: (c) => c.id }),
        fc.array(fc.array(fc.nat(), { maxLength: 6 }), { minLength: 4, maxLength: 4 }),
        (calls, cuts) => {
          const deltas = calls.flatMap((c, i) => deltasOf(c, undefined, [], cuts[i]!, false));
          const response = assembleChunks(deltas.map((d) => chunk([d])));
          expect(response.toolCalls).toEqual(
            expected(
              calls,
              calls.map((_, i) => i),
            ),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
