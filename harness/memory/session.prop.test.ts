import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../model/types.ts';
import { SessionStore } from './session-store.ts';

const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-session-prop-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Any UTF-16 code units (lone surrogates, NUL, line and paragraph separators included), sometimes huge. */
const text = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 })
      .map((units) => String.fromCharCode(...units)),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '\n',
      '\r\n',
      '\u2028',
      '\ud800',
      '\udfff',
      '\u0000',
      '"}\n{"type":"rewind","to":0}',
      '',
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 3 }), fc.integer({ min: 50_000, max: 200_000 }))
      .map(([s, n]) => `${s}\n`.repeat(Math.ceil(n / (s.length + 1)))),
  },
);

const message: fc.Arbitrary<ChatMessage> = fc.oneof(
  text.map((content) => ({ role: 'user' as const, content })),
  text.map((content) => ({ role: 'system' as const, content })),
  fc
    .tuple(fc.option(text, { nil: null }), fc.array(fc.tuple(text, text, text), { maxLength: 3 }))
    .map(([content, calls]) => ({
      role: 'assistant' as const,
      content,
      ...(calls.length > 0
        ? {
            tool_calls: calls.map(([id, name, args]) => ({
              id,
              type: 'function' as const,
              function: { name, arguments: args },
            })),
          }
        : {}),
    })),
  fc.tuple(text, text).map(([id, content]) => ({ role: 'tool' as const, tool_call_id: id, content })),
);

type Op =
  | { kind: 'append'; messages: ChatMessage[] }
  | { kind: 'rewind'; to: number }
  | { kind: 'compact'; messages: ChatMessage[] };
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .array(message, { minLength: 1, maxLength: 4 })
      .map((messages) => ({ kind: 'append' as const, messages })),
  },
  { weight: 1, arbitrary: fc.nat({ max: 12 }).map((to) => ({ kind: 'rewind' as const, to })) },
  {
    weight: 1,
    arbitrary: fc
      .array(message, { maxLength: 3 })
      .map((messages) => ({ kind: 'compact' as const, messages })),
  },
);

let n = 0;

describe('sessions (property)', () => {
  it('load(save(ops)) gives the conversation the ops describe, for any content, rewinds and compactions', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 8 }), async (ops) => {
        let clock = 0;
        const store = new SessionStore(dir, () => (clock += 1));
        n += 1;
        const writer = await store.create(`p${n}`);
        const expected: ChatMessage[] = [];
        for (const o of ops) {
          if (o.kind === 'append') {
            expected.push(...o.messages);
            void writer.sync(expected);
          } else if (o.kind === 'rewind') {
            expected.length = Math.min(expected.length, o.to);
            void writer.rewind(o.to);
          } else {
            expected.splice(0, expected.length, ...o.messages);
            void writer.compacted(o.messages, { layer: 'summary', beforeTokens: 1, afterTokens: 1 });
          }
        }
        await writer.flush();
        const loaded = await store.load(`p${n}`);
        expect(loaded.skipped).toEqual([]);
        expect(loaded.messages).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });
});
