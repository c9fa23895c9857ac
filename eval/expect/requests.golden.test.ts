import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../harness/model/types.ts';
import { fixtureRun, golden } from './fixtures.test-helpers.ts';

const system: ChatMessage = { role: 'system', content: 'You are a coding agent.' };
const task: ChatMessage = { role: 'user', content: 'Fix the failing test in src/sum.ts.' };
const reminder: ChatMessage = { role: 'user', content: '<reminder>todo: [in_progress] fix sum</reminder>' };
const call: ChatMessage = {
  role: 'assistant',
  content: null,
  tool_calls: [
    { id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/sum.ts"}' } },
  ],
};
const result: ChatMessage = {
  role: 'tool',
  tool_call_id: 'c1',
  content: 'export const sum = (a, b) => a - b;',
};
const summary: ChatMessage = { role: 'user', content: 'Summary of the work so far: read src/sum.ts.' };

/** Three requests: the reminder is appended to each, never stored; request 3 follows a compaction that lost the task. */
const run = fixtureRun({
  requests: [
    { model: 'm', messages: [system, task, reminder] },
    { model: 'm', messages: [system, task, call, result, reminder] },
    { model: 'm', messages: [system, summary, reminder] },
  ],
  messages: [system, summary, { role: 'assistant', content: 'Fixed.' }],
});

describe('requests', () => {
  it('contains over all requests names the requests that lack a pattern', async () => {
    expect(await golden('requests', [{ contains: ['fix sum', 'failing test'] }], run)).toEqual([
      {
        name: 'requests.0.contains',
        pass: false,
        reason: '"failing test" missing in request 3 (looked in the messages of every request)',
      },
    ]);
    expect(
      await golden('requests', [{ at: 2, role: 'tool', contains: [{ regex: '/A - B/i' }] }], run),
    ).toEqual([
      {
        name: 'requests.0.contains',
        pass: true,
        reason: 'every pattern is in the tool messages of request 2 (1 checked)',
      },
    ]);
  });

  it('a reminder present in the last message but never in older messages nor the stored conversation', async () => {
    expect(
      await golden(
        'requests',
        [
          { messages: 'last', contains: ['<reminder>'] },
          { messages: 'older', absent: ['<reminder>'] },
          { at: 'stored', absent: ['<reminder>'] },
        ],
        run,
      ),
    ).toEqual([
      {
        name: 'requests.0.contains',
        pass: true,
        reason: 'every pattern is in the last message of every request (3 checked)',
      },
      {
        name: 'requests.1.absent',
        pass: true,
        reason: 'no pattern is in the older messages of every request (3 checked)',
      },
      {
        name: 'requests.2.absent',
        pass: true,
        reason: 'no pattern is in the messages of the stored conversation (1 checked)',
      },
    ]);
    const leaked = fixtureRun({ ...run, messages: [system, task, reminder] });
    expect(await golden('requests', [{ at: 'stored', absent: ['<reminder>'] }], leaked)).toEqual([
      {
        name: 'requests.0.absent',
        pass: false,
        reason:
          '"<reminder>" found in the stored conversation (looked in the messages of the stored conversation)',
      },
    ]);
  });

  it('tool calls are searched as name(arguments)', async () => {
    expect(await golden('requests', [{ at: 'last', absent: ['read_file('] }], run)).toEqual([
      {
        name: 'requests.0.absent',
        pass: true,
        reason: 'no pattern is in the messages of the last request (1 checked)',
      },
    ]);
    expect(await golden('requests', [{ at: 2, absent: ['read_file('] }], run)).toEqual([
      {
        name: 'requests.0.absent',
        pass: false,
        reason: '"read_file(" found in request 2 (looked in the messages of request 2)',
      },
    ]);
  });

  it('maxTokens bounds each selected request; a request that does not exist fails every check', async () => {
    const [small] = await golden('requests', [{ at: 'first', maxTokens: 1000 }], run);
    expect(small).toMatchObject({ name: 'requests.0.maxTokens', pass: true });
    expect(small!.reason).toMatch(/^the largest selected request counts \d+ tokens, bound 1000$/);
    const [tiny] = await golden('requests', [{ maxTokens: 5 }], run);
    expect(tiny!.pass).toBe(false);
    expect(tiny!.reason).toMatch(
      /^request 1 counts \d+, request 2 counts \d+, request 3 counts \d+ tokens, bound 5$/,
    );
    expect(await golden('requests', [{ at: 9, contains: ['x'], maxTokens: 1 }], run)).toEqual([
      { name: 'requests.0.contains', pass: false, reason: 'there is no request 9: the run sent 3' },
      { name: 'requests.0.maxTokens', pass: false, reason: 'there is no request 9: the run sent 3' },
    ]);
  });
});
