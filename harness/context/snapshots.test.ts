import { writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript, tempWorkspace } from '../testing/scripted-runs.ts';
import { ScriptedModel, type ScriptedTurn } from '../model/scripted-model.ts';
import type { ChatMessage, Model, ModelRequest, ModelResponse, UserMessage } from '../model/types.ts';
import { RequestSnapshots } from './snapshots.ts';

describe('RequestSnapshots', () => {
  it('a request reads as the history when it was made, after appends and after a sealed rewrite', () => {
    const snapshots = new RequestSnapshots();
    const history: ChatMessage[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'task' },
    ];
    const reminder: UserMessage = { role: 'user', content: '[harness reminder] now' };
    const first = snapshots.request('m', history, reminder, { tools: [], tool_choice: 'auto' });
    history.push({ role: 'assistant', content: 'a' });
    const second = snapshots.request('m', history, undefined, {});
    snapshots.seal(history);
    history.splice(0, history.length, { role: 'user', content: 'rewritten' });
    expect(first.messages.map((m) => m.content)).toEqual(['s', 'task', '[harness reminder] now']);
    expect(second.messages.map((m) => m.content)).toEqual(['s', 'task', 'a']);
    // Written out as a plain request: model first, then messages, then the other fields.
    expect(JSON.stringify(first)).toBe(
      JSON.stringify({ model: 'm', messages: first.messages, tools: [], tool_choice: 'auto' }),
    );
    expect(structuredClone(second)).toEqual({ model: 'm', messages: second.messages });
    second.messages = [];
    expect(second.messages).toEqual([]);
  });
});

/** A model that writes each request out when it gets it (so its view is read at once), then plays the script. */
class EagerModel implements Model {
  readonly name = 'eager';
  readonly sent: string[] = [];
  constructor(private readonly inner: ScriptedModel) {}
  generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    this.sent.push(JSON.stringify(request));
    return this.inner.generate(request, signal);
  }
}

const space = tempWorkspace();
afterAll(() => space.dispose());

describe('requests of a run (property)', () => {
  it('read at the end exactly as they were sent, whatever the layers rewrote in between', async () => {
    let layered = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 20, max: 2500 }), { minLength: 3, maxLength: 12 }),
        fc.integer({ min: 1500, max: 6000 }),
        fc.record({ stub: fc.boolean(), drop: fc.boolean(), compact: fc.boolean() }),
        async (sizes, window, layers) => {
          sizes.forEach((words, i) => {
            writeFileSync(path.join(space.ws, `f${i}.txt`), `${'word '.repeat(words)}\n`);
          });
          const script: ScriptedTurn[] = [
            ...sizes.map((_, i) => ({
              tool_calls: [
                { id: `r${i}`, name: 'read_file', arguments: JSON.stringify({ path: `f${i}.txt` }) },
              ],
            })),
            ...Array.from({ length: 6 }, () => ({ content: 'done' })),
          ];
          const config = {
            context: { windowTokens: window, layers: { ...layers, cap: true, spill: false } },
            limits: { maxTurns: 40 },
          };
          const eager = new EagerModel(new ScriptedModel(script));
          const a = await runScript(space.ws, eager, { config });
          const b = await runScript(space.ws, new ScriptedModel(script), { config });
          expect(b.stopReason).toBe(a.stopReason);
          expect(b.requests.map((r) => JSON.stringify(r))).toEqual(eager.sent);
          if (a.events.some((e) => e.type === 'compaction' && e.layer !== 'cap')) layered += 1;
        },
      ),
      { numRuns: 25 },
    );
    // The property means something only if layers rewrote histories in some runs.
    expect(layered).toBeGreaterThan(3);
  });
});
