import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../model/types.ts';
import { countMessage } from './tokens.ts';
import { StubScan, stubOldOutputs } from './trim.ts';

/** One turn group: an assistant message with `outputs` tool results of the given sizes (words). */
function group(n: number, outputs: number[]): ChatMessage[] {
  const calls = outputs.map((_, k) => ({
    id: `c${n}_${k}`,
    type: 'function' as const,
    function: { name: 'read_file', arguments: `{"path":"f${n}.txt"}` },
  }));
  return [
    { role: 'assistant', content: null, tool_calls: calls },
    ...outputs.map((words, k) => ({
      role: 'tool' as const,
      tool_call_id: `c${n}_${k}`,
      content: Array.from({ length: words }, (_, w) => `w${n}x${w}`).join(' '),
    })),
  ];
}

const sum = (list: readonly ChatMessage[]) => list.reduce((s, m) => s + countMessage(m), 0);

describe('stubOldOutputs with a StubScan (property)', () => {
  it('stubs exactly what a scan from the head stubs, turn after turn, and freed is the drop of the sum', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            outputs: fc.array(fc.integer({ min: 1, max: 120 }), { minLength: 1, maxLength: 3 }),
            toFree: fc.integer({ min: 1, max: 400 }),
            keep: fc.integer({ min: 0, max: 3 }),
          }),
          { minLength: 1, maxLength: 25 },
        ),
        (turns) => {
          const scan = new StubScan();
          let withScan: ChatMessage[] = [
            { role: 'system', content: 'be brief' },
            { role: 'user', content: 'task' },
          ];
          let plain = [...withScan];
          turns.forEach((turn, n) => {
            const added = group(n, turn.outputs);
            withScan = [...withScan, ...added];
            plain = [...plain, ...added];
            const options = { toFree: turn.toFree, keepRecentGroups: turn.keep };
            const a = stubOldOutputs(withScan, { ...options, scan });
            const b = stubOldOutputs(plain, options);
            expect(a.stubbed).toBe(b.stubbed);
            expect(a.freed).toBe(b.freed);
            expect(a.history.map((m) => m.content)).toEqual(b.history.map((m) => m.content));
            expect(sum(withScan) - sum(a.history)).toBe(a.freed);
            withScan = a.history;
            plain = b.history;
          });
        },
      ),
    );
  });

  it('skips the groups it found nothing to stub in', () => {
    const history: ChatMessage[] = [{ role: 'user', content: 'task' }];
    for (let n = 0; n < 50; n += 1) history.push(...group(n, [3]));
    const scan = new StubScan();
    expect(stubOldOutputs(history, { toFree: 1000, keepRecentGroups: 3, scan }).stubbed).toBe(0);
    // Every group but the last three was looked at and found too small to stub.
    expect(scan.index).toBe(history.length - 3 * 2);
    expect(scan.at).toBe(history[history.length - 6]);
  });
});
