/**
 * Parallel calls (`docs/architecture.md` §4 step 9): the read-only calls of a turn run
 * concurrently, other calls run alone and in call order, results and end events come in call
 * order whatever the completion order, and event logs do not depend on timing.
 */
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deterministicDeps } from '../deps.ts';
import { expectTranscriptInvariants, runScript, tempWorkspace, toolResult } from '../testing.ts';
import { FILE_TOOLS } from '../tools/builtin/files.ts';
import type { EffectClass, ToolDefinition } from '../tools/types.ts';

let space: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  space = tempWorkspace();
  writeFileSync(path.join(space.ws, 'a.txt'), 'original');
});
afterEach(() => space.dispose());

/** A journal of what tools did, and tools that wait on each other through it. */
function lab() {
  const log: string[] = [];
  const waiters: { until: () => boolean; resolve: () => void }[] = [];
  const poke = () => {
    for (const w of [...waiters])
      if (w.until()) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  };
  const note = (entry: string) => {
    log.push(entry);
    poke();
  };
  /** Resolves when `until` holds, or after 3 s with `false` (a deadlock shows up as a failed expectation, not a hang). */
  const waitFor = (until: () => boolean) =>
    new Promise<boolean>((resolve) => {
      if (until()) return resolve(true);
      const timer = setTimeout(() => {
        waiters.splice(
          waiters.findIndex((w) => w.until === until),
          1,
        );
        resolve(false);
      }, 3000);
      waiters.push({
        until,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      });
    });
  const tool = (
    name: string,
    effect: EffectClass,
    body: (args: { id: string }) => Promise<string> = async () => 'done',
  ): ToolDefinition => ({
    name,
    description: name,
    parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    effect,
    async execute(args) {
      const { id } = args as { id: string };
      note(`start ${id}`);
      const out = await body({ id });
      note(`end ${id}`);
      return { ok: true, content: `${id}: ${out}` };
    },
  });
  return { log, note, waitFor, tool };
}
const call = (id: string, name: string) => ({ id, name, arguments: { id } });

describe('dispatchTurn: parallel calls', () => {
  it('the reads of a turn run concurrently: each waits until all three have started', async () => {
    const { log, waitFor, tool } = lab();
    const allStarted = () => log.filter((e) => e.startsWith('start')).length === 3;
    const read = tool('probe', 'read', async () => ((await waitFor(allStarted)) ? 'concurrent' : 'alone'));
    const result = await runScript(
      space.ws,
      [{ tool_calls: [call('r1', 'probe'), call('r2', 'probe'), call('r3', 'probe')] }, { content: 'ok' }],
      { tools: [read] },
    );
    expect(['r1', 'r2', 'r3'].map((id) => toolResult(result, id).content)).toEqual([
      'r1: concurrent',
      'r2: concurrent',
      'r3: concurrent',
    ]);
  });

  it('results are appended in call order whatever the completion order', async () => {
    const { log, waitFor, tool } = lab();
    const slow = tool('slow', 'read', async () => String(await waitFor(() => log.includes('end r3'))));
    const fast = tool('fast', 'read');
    const result = await runScript(
      space.ws,
      [{ tool_calls: [call('r1', 'slow'), call('r2', 'fast'), call('r3', 'fast')] }, { content: 'ok' }],
      { tools: [slow, fast] },
    );
    expect(log.indexOf('end r3')).toBeLessThan(log.indexOf('end r1'));
    const tools = result.messages
      .filter((m) => m.role === 'tool')
      .map((m) => (m as { tool_call_id: string }).tool_call_id);
    expect(tools).toEqual(['r1', 'r2', 'r3']);
    expect(
      result.events.filter((e) => e.type === 'tool_call_end').map((e) => (e as { callId: string }).callId),
    ).toEqual(['r1', 'r2', 'r3']);
    expectTranscriptInvariants(result.messages);
  });

  it('a write waits for the reads before it, runs alone, and the reads after it start only when it is done', async () => {
    const { log, tool } = lab();
    const read = tool(
      'look',
      'read',
      async () => new Promise((resolve) => setTimeout(() => resolve('seen'), 20)),
    );
    const write = tool(
      'change',
      'write',
      async () => new Promise((resolve) => setTimeout(() => resolve('changed'), 20)),
    );
    await runScript(
      space.ws,
      [
        {
          tool_calls: [
            call('r1', 'look'),
            call('r2', 'look'),
            call('w3', 'change'),
            call('r4', 'look'),
            call('w5', 'change'),
          ],
        },
        { content: 'ok' },
      ],
      {
        tools: [read, write],
        config: { permissions: { mode: 'auto' } },
      },
    );
    const at = (entry: string) => log.indexOf(entry);
    expect(Math.max(at('end r1'), at('end r2'))).toBeLessThan(at('start w3'));
    expect(at('end w3')).toBeLessThan(at('start r4'));
    expect(at('end r4')).toBeLessThan(at('start w5'));
  });

  it('a read tool that runs alone (a subagent) never overlaps other calls', async () => {
    const { log, tool } = lab();
    const read = tool(
      'look',
      'read',
      async () => new Promise((resolve) => setTimeout(() => resolve('seen'), 20)),
    );
    const alone = {
      ...tool(
        'delegate',
        'read',
        async () => new Promise((resolve) => setTimeout(() => resolve('reported'), 20)),
      ),
      runsAlone: true,
    };
    await runScript(
      space.ws,
      [{ tool_calls: [call('r1', 'look'), call('t2', 'delegate'), call('r3', 'look')] }, { content: 'ok' }],
      { tools: [read, alone] },
    );
    const at = (entry: string) => log.indexOf(entry);
    expect(at('end r1')).toBeLessThan(at('start t2'));
    expect(at('end t2')).toBeLessThan(at('start r3'));
  });

  it("checks each call after the writes before it ran: a link made by a write is seen by the next call's path policy", async () => {
    const makeLink: ToolDefinition = {
      name: 'make_link',
      description: 'links outbox to the outside folder',
      parameters: { type: 'object', properties: {} },
      effect: 'write',
      async execute() {
        symlinkSync(space.outside, path.join(space.ws, 'outbox'));
        return { ok: true, content: 'linked' };
      },
    };
    const result = await runScript(
      space.ws,
      [
        {
          tool_calls: [
            { id: 'l1', name: 'make_link', arguments: {} },
            { id: 'w2', name: 'write_file', arguments: { path: 'outbox/escaped.txt', content: 'x' } },
          ],
        },
        { content: 'ok' },
      ],
      { tools: [makeLink, ...Object.values(FILE_TOOLS)], config: { permissions: { mode: 'auto' } } },
    );
    expect(toolResult(result, 'w2').error?.type).toBe('path_outside_workspace');
    expect(() => readFileSync(path.join(space.outside, 'escaped.txt'))).toThrow();
  });

  it('a read after a write of the same file sees the write; a second write to it is a write_conflict', async () => {
    const result = await runScript(
      space.ws,
      [
        {
          tool_calls: [
            { id: 'w1', name: 'write_file', arguments: { path: 'a.txt', content: 'first' } },
            { id: 'r2', name: 'read_file', arguments: { path: 'a.txt' } },
            { id: 'w3', name: 'write_file', arguments: { path: './a.txt', content: 'second' } },
          ],
        },
        { content: 'ok' },
      ],
      { config: { permissions: { mode: 'auto' } } },
    );
    expect(toolResult(result, 'r2').content).toBe('1\tfirst');
    expect(toolResult(result, 'w3').error).toMatchObject({ type: 'write_conflict', retryable: false });
    expect(readFileSync(path.join(space.ws, 'a.txt'), 'utf8')).toBe('first');
  });

  it('the event log does not depend on which read finishes first', async () => {
    const runWith = async (delays: number[]) => {
      const { tool } = lab();
      let i = 0;
      const read = tool(
        'look',
        'read',
        () => new Promise((resolve) => setTimeout(() => resolve('seen'), delays[i++]!)),
      );
      const write = tool('change', 'write');
      const result = await runScript(
        space.ws,
        [
          { tool_calls: [call('r1', 'look'), call('r2', 'look'), call('w3', 'change'), call('r4', 'look')] },
          { content: 'ok' },
        ],
        {
          tools: [read, write],
          deps: deterministicDeps(),
          config: { permissions: { mode: 'auto' } },
        },
      );
      return result.events;
    };
    const a = await runWith([40, 0, 0]);
    const b = await runWith([0, 40, 0]);
    expect(b).toEqual(a);
  });

  it('identical reads in one turn meet the loop detector deterministically', async () => {
    const { tool } = lab();
    const read = tool('look', 'read');
    const result = await runScript(
      space.ws,
      [
        {
          tool_calls: [
            call('a1', 'look'),
            { id: 'a2', name: 'look', arguments: { id: 'a1' } },
            { id: 'a3', name: 'look', arguments: { id: 'a1' } },
          ],
        },
        { content: 'ok' },
      ],
      {
        tools: [read],
        config: { loop: { warnAt: 3, stopAt: 9 } },
      },
    );
    expect(result.ledger.calls.map((c) => [c.callId, c.executed, c.errorType ?? null])).toEqual([
      ['a1', true, null],
      ['a2', true, null],
      ['a3', false, 'repeated_call'],
    ]);
  });

  it('a tool that throws is tool_failed and is run exactly once (never retried)', async () => {
    let runs = 0;
    const flaky: ToolDefinition = {
      name: 'send',
      description: 'not idempotent',
      parameters: { type: 'object', properties: {} },
      effect: 'irreversible',
      async execute() {
        runs += 1;
        throw new Error('connection reset');
      },
    };
    const result = await runScript(
      space.ws,
      [{ tool_calls: [{ id: 's1', name: 'send', arguments: {} }] }, { content: 'ok' }],
      { tools: [flaky], config: { permissions: { mode: 'auto' } } },
    );
    expect(runs).toBe(1);
    expect(toolResult(result, 's1').error).toMatchObject({ type: 'tool_failed', retryable: false });
  });
});
