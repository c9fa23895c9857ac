/**
 * Property: whatever the stream and however the upstream cuts it into writes, the client gets the
 * upstream's bytes unchanged and the cassette holds the stream's events (`data` joined per the
 * SSE rules) in order.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useStub } from '../../harness/testing/stub-server.ts';
import { type PassthroughServer, startPassthroughServer } from './passthrough.ts';

const stub = useStub();
let proxy: PassthroughServer;
beforeAll(async () => {
  proxy = await startPassthroughServer({
    upstream: stub().baseURL,
    apiKey: 'upstream-key-0123456789',
    env: {},
  });
});
afterAll(() => proxy.close());

/** One SSE event: one or more `data:` lines (no line breaks inside), optionally after a comment. */
const eventArb = fc.record({
  lines: fc.array(
    fc.string({ unit: fc.constantFrom('a', 'é', '∑', '😀', ' ', '{', '"', ':', '0'), maxLength: 12 }),
    { minLength: 1, maxLength: 3 },
  ),
  comment: fc.boolean(),
});

describe('pass-through relay (property)', () => {
  it('relays any stream byte for byte and records its events, however it is split', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(eventArb, { minLength: 1, maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 8 }),
        async (events, cuts) => {
          const wire = events
            .map(
              (e) => `${e.comment ? ': keep-alive\n' : ''}${e.lines.map((l) => `data: ${l}`).join('\n')}\n\n`,
            )
            .join('');
          const bytes = Buffer.from(wire, 'utf8');
          stub().queue.push(async (_req, res) => {
            res.writeHead(200, { 'content-type': 'text/event-stream' });
            let at = 0;
            for (let i = 0; at < bytes.length; i++) {
              const size = cuts[i % cuts.length]!;
              res.write(bytes.subarray(at, at + size));
              at += size;
              if (i % 3 === 0) await new Promise((resolve) => setImmediate(resolve));
            }
            res.end();
          });
          const before = proxy.exchanges.length;
          const response = await fetch(`${proxy.baseURL}/chat/completions`, {
            method: 'POST',
            body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true }),
          });
          const received = Buffer.from(await response.arrayBuffer());
          expect(received.equals(bytes)).toBe(true);
          const recorded = proxy.exchanges[before]!.response.events!.map((e) => e.data);
          expect(recorded).toEqual(events.map((e) => e.lines.join('\n')));
        },
      ),
      { numRuns: 40 },
    );
  });
});
