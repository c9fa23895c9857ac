import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { deterministicDeps } from './deps.ts';
import { buildLedger, type RunResult } from './ledger.ts';
import { runHarness } from './loop/run.ts';
import { ScriptedModel } from './model/scripted-model.ts';
import { messageOrigins } from './policy/taint.ts';
import { LocalSandbox } from './sandbox/local.ts';
import { testConfig, tempWorkspace } from './testing/scripted-runs.ts';
import { FILE_TOOLS } from './tools/builtin/files.ts';

const space = tempWorkspace();
afterAll(() => space.dispose());

/** A run of two reads and an answer, its result as `runHarness` returns it (not spread). */
function twoReads(): Promise<RunResult> {
  writeFileSync(`${space.ws}/a.txt`, 'alpha\n');
  return runHarness({
    task: 'read a.txt',
    config: testConfig(),
    model: new ScriptedModel([
      { tool_calls: [{ id: 'c1', name: 'read_file', arguments: { path: 'a.txt' } }] },
      { tool_calls: [{ id: 'c2', name: 'read_file', arguments: { path: 'missing.txt' } }] },
      { content: 'done' },
    ]),
    tools: [FILE_TOOLS.read_file!],
    sandbox: new LocalSandbox({ allowExec: false }),
    workspace: space.ws,
    deps: deterministicDeps(),
  });
}

describe('a run result’s ledger and provenance', () => {
  it('are the ledger and provenance of the run, in the usual key order', async () => {
    const result = await twoReads();
    expect(Object.keys(result)).toEqual([
      'runId',
      'stopReason',
      'finalAnswer',
      'messages',
      'requests',
      'events',
      'ledger',
      'provenance',
      'taintedBy',
      'usage',
    ]);
    const ledger = buildLedger(result.events);
    expect(result.ledger).toEqual(ledger);
    expect(result.ledger.calls.map((c) => [c.callId, c.ok])).toEqual([
      ['c1', true],
      ['c2', false],
    ]);
    expect(result.provenance).toEqual(messageOrigins(result.messages, () => false));
  });

  it('is a plain object: every field an own data property', async () => {
    const result = await twoReads();
    for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(result)))
      expect(descriptor, key).toMatchObject({
        writable: true,
        enumerable: true,
        value: result[key as keyof RunResult],
      });
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
  });

  it('show the run as it ended, even when the caller goes on using its lists', async () => {
    const result = await twoReads();
    const events = result.events.length;
    const messages = result.messages.length;
    result.messages.push({ role: 'user', content: 'and then?' });
    result.events.push({ ...result.events.at(-1)!, seq: events });
    expect(result.provenance).toHaveLength(messages);
    expect(result.ledger).toEqual(buildLedger(result.events.slice(0, events)));
  });
});
