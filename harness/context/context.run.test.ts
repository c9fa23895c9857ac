import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CompactionEvent } from '../events.ts';
import { expectRunConsistent, expectTranscriptInvariants, runScript, tempWorkspace } from '../testing.ts';
import type { ChatMessage, ModelRequest, ModelResponse } from '../model/types.ts';
import { ScriptedModel } from '../model/scripted-model.ts';
import { FILE_TOOLS } from '../tools/builtin/files.ts';
import { writeTodosTool } from '../tools/builtin/memory-tools.ts';
import type { ToolDefinition } from '../tools/types.ts';
import { SUMMARY_INSTRUCTIONS } from './compaction.ts';
import { CONTEXT_NOTE_PREFIX } from './groups.ts';
import { REMINDER_PREFIX } from './reminder.ts';
import { countRequest } from './tokens.ts';
import { contentText } from '../model/content.ts';

let space: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  space = tempWorkspace();
});
afterEach(() => space.dispose());

const tools = [...Object.values(FILE_TOOLS), writeTodosTool as unknown as ToolDefinition];
const TASK =
  'Rename parseCfg to parseConfig in src/config.ts only. Do not touch tests/. Keep parseCfg exported as a deprecated alias.';
const todos = {
  todos: [
    { content: 'rename in config.ts', activeForm: 'renaming in config.ts', status: 'completed' },
    { content: 'add alias', activeForm: 'adding the alias', status: 'in_progress' },
    { content: 'update docs', activeForm: 'updating the docs', status: 'pending' },
  ],
};
const read = (id: string, file: string) => ({
  tool_calls: [{ id, name: 'read_file', arguments: JSON.stringify({ path: file }) }],
});

describe('compaction in a run (handed case D01, openai/codex#18720)', () => {
  it('the next request keeps the task verbatim, the todo list, a marked summary and whole call groups, under compactAt × window', async () => {
    for (let i = 1; i <= 6; i += 1) {
      mkdirSync(path.join(space.ws, 'src'), { recursive: true });
      writeFileSync(
        path.join(space.ws, 'src', `mod${i}.ts`),
        Array.from(
          { length: 60 },
          (_, k) => `export const v${i}_${k} = 'alpha beta gamma delta epsilon zeta';`,
        ).join('\n'),
      );
    }
    const result = await runScript(
      space.ws,
      [
        { tool_calls: [{ id: 'call_t1', name: 'write_todos', arguments: JSON.stringify(todos) }] },
        ...[1, 2, 3, 4, 5].map((i) => read(`call_f${i}`, `src/mod${i}.ts`)),
        { content: 'Working on a config refactor.' },
        read('call_f6', 'src/mod6.ts'),
        { content: 'done' },
      ],
      {
        task: TASK,
        tools: [FILE_TOOLS.read_file!, writeTodosTool as unknown as ToolDefinition],
        config: {
          systemPrompt: 'sys',
          permissions: { mode: 'auto' },
          context: { windowTokens: 6000, compactAt: 0.8, toolOutputMaxShare: 0.2, layers: { stub: false } },
        },
      },
    );
    expect(result.stopReason).toBe('final_answer');
    expect(result.usage).toMatchObject({ modelCalls: 9, turns: 8 });
    const summaryCall = result.requests[6]!;
    expect(summaryCall.tools).toBeUndefined();
    expect(summaryCall.messages[0]).toEqual({ role: 'system', content: SUMMARY_INSTRUCTIONS });
    const next = result.requests[7]!.messages;
    expect(next[1]).toEqual({ role: 'user', content: TASK });
    const note = next[2]!;
    expect(note.role).toBe('system');
    expect(note.content).toMatch(new RegExp(`^\\${CONTEXT_NOTE_PREFIX}`));
    expect(note.content).toContain('Working on a config refactor.');
    for (const line of [
      '[x] rename in config.ts',
      '[>] add alias (now: adding the alias)',
      '[ ] update docs',
      'src/mod1.ts',
    ])
      expect(note.content).toContain(line);
    expect(
      next.filter(
        (m) => m.role !== 'system' && contentText(m.content).includes('Working on a config refactor.'),
      ),
    ).toEqual([]);
    expect(countRequest({ messages: next, tools: result.requests[7]!.tools! })).toBeLessThan(4800);
    const compaction = result.events.find(
      (e): e is CompactionEvent => e.type === 'compaction' && e.layer === 'summary',
    )!;
    expect(compaction).toMatchObject({ trigger: 'auto', pinned: expect.arrayContaining(['task', 'todos']) });
    expect(compaction.beforeTokens).toBeGreaterThan(4800);
    expect(compaction.afterTokens).toBeLessThan(4800);
    for (const request of result.requests) expectTranscriptInvariants(request.messages);
    expect(result.ledger.turns.find((t) => t.turn === 7)).toMatchObject({ toolCalls: 0 });
  });
});

describe('the late reminder', () => {
  it('goes last into every request once there are todos, and never into the history', async () => {
    const result = await runScript(
      space.ws,
      [
        { tool_calls: [{ id: 't', name: 'write_todos', arguments: JSON.stringify(todos) }] },
        { tool_calls: [{ id: 'w', name: 'write_file', arguments: '{"path":"a.txt","content":"x"}' }] },
        { content: 'ok' },
      ],
      { tools, config: { permissions: { mode: 'auto' } } },
    );
    expect(result.requests[0]!.messages.at(-1)!.content).not.toContain(REMINDER_PREFIX);
    const second = result.requests[1]!.messages.at(-1)!;
    expect(second.role).toBe('user');
    expect(second.content).toMatch(/^\[harness reminder\]/);
    expect(second.content).toContain('Time: 2025-11-29T');
    expect(second.content).toContain('[>] add alias (now: adding the alias)');
    expect(result.requests[2]!.messages.at(-1)!.content).toContain('Files changed in this session: a.txt');
    expect(result.messages.some((m) => contentText(m.content).includes(REMINDER_PREFIX))).toBe(false);
    expectRunConsistent(result);
  });

  it('shows the git branch from .git/HEAD, and is off with layers.reminder false', async () => {
    mkdirSync(path.join(space.ws, '.git'));
    writeFileSync(path.join(space.ws, '.git', 'HEAD'), 'ref: refs/heads/feature/x\n');
    const on = await runScript(space.ws, [{ content: 'ok' }]);
    expect(on.requests[0]!.messages.at(-1)!.content).toContain('Git branch: feature/x');
    const off = await runScript(space.ws, [{ content: 'ok' }], {
      config: { context: { layers: { reminder: false } } },
    });
    expect(off.requests[0]!.messages.at(-1)).toEqual({ role: 'user', content: 'do the task' });
  });
});

describe('the reminder’s git branch as the run goes on', () => {
  const head = () => path.join(space.ws, '.git', 'HEAD');
  const branchIn = (request: { messages: readonly ChatMessage[] }) =>
    /Git branch: (\S+)/.exec(contentText(request.messages.at(-1)!.content))?.[1];
  /** A tool of unknown behaviour that checks out `branch` (rewrites .git/HEAD). */
  const checkout: ToolDefinition = {
    name: 'checkout',
    description: 'Switch branches.',
    effect: 'write',
    parameters: { type: 'object', properties: { branch: { type: 'string' } }, required: ['branch'] },
    execute: async (args) => {
      writeFileSync(head(), `ref: refs/heads/${(args as { branch: string }).branch}\n`);
      return { ok: true, content: 'switched' };
    },
  };

  it('shows the run’s own checkout at the next turn', async () => {
    mkdirSync(path.join(space.ws, '.git'));
    writeFileSync(head(), 'ref: refs/heads/main\n');
    const result = await runScript(
      space.ws,
      [{ tool_calls: [{ id: 'c', name: 'checkout', arguments: '{"branch":"topic"}' }] }, { content: 'ok' }],
      { tools: [...tools, checkout], config: { permissions: { mode: 'auto' } } },
    );
    expect(result.requests.map(branchIn)).toEqual(['main', 'topic']);
  });

  it('in a run of reads, shows a checkout made by someone else at the next turn', async () => {
    mkdirSync(path.join(space.ws, '.git'));
    writeFileSync(path.join(space.ws, 'a.txt'), 'a\n');
    /** Someone checks out `other` while the model answers the first request. */
    class CheckoutDuringFirstTurn extends ScriptedModel {
      private first = true;
      override async generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
        if (this.first) writeFileSync(head(), 'ref: refs/heads/other\n');
        this.first = false;
        return super.generate(request, signal);
      }
    }
    const reads = () => {
      writeFileSync(head(), 'ref: refs/heads/main\n');
      return runScript(
        space.ws,
        new CheckoutDuringFirstTurn([
          read('r1', 'a.txt'),
          read('r2', 'a.txt'),
          read('r3', 'a.txt'),
          { content: 'ok' },
        ]),
      );
    };
    expect((await reads()).requests.map(branchIn)).toEqual(['main', 'other', 'other', 'other']);
  });
});

describe('sessions in a run', () => {
  const G01 = [
    '{"type":"message","role":"user","content":"run the test suite"}',
    '{"type":"message","role":"assistant","content":null,"tool_calls":[{"id":"call_u1","type":"function","function":{"name":"bash","arguments":"{\\"command\\":\\"npm test\\"}"}}]}',
    '{"type":"event","name":"interrupt","target":"call_u1"}',
    '{"type":"message","role":"user","content":"actually, just run the linter"}',
  ];

  it('G01: resuming puts an interrupted result right after the call, persists it, and a second resume sends the same prefix', async () => {
    const dir = path.join(space.ws, '.harness-bench', 'sessions');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 's-001.jsonl'), `${G01.join('\n')}\n`);
    const config = { session: { resume: 's-001' } };
    const first = await runScript(space.ws, [{ content: 'Lint is clean.' }], { task: '', config });
    const sent = first.requests[0]!.messages;
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(sent[2]).toMatchObject({
      role: 'tool',
      tool_call_id: 'call_u1',
      content: expect.stringContaining('"type":"interrupted"'),
    });
    expect(sent[2]!.content).toContain('stopped by the user before it finished');
    expect(sent[3]).toEqual({ role: 'user', content: 'actually, just run the linter' });
    expect(first.events[0]).toMatchObject({
      type: 'run_start',
      session: { id: 's-001', resumed: true, restoredMessages: 3, skippedLines: [] },
    });
    expect(first.events.some((e) => e.type === 'compaction' && e.layer === 'repair')).toBe(true);
    const second = await runScript(space.ws, [{ content: 'again' }], { task: 'and now?', config });
    expect(second.requests[0]!.messages.slice(0, 5)).toEqual([
      ...sent,
      { role: 'assistant', content: 'Lint is clean.' },
    ]);
    expect(second.events.some((e) => e.type === 'compaction')).toBe(false);
    expect(readFileSync(path.join(dir, 's-001.jsonl'), 'utf8').split('\n').slice(0, 4)).toEqual(G01);
  });

  it('session.enabled records the run; resuming by id restores messages and todos', async () => {
    const first = await runScript(
      space.ws,
      [
        { tool_calls: [{ id: 't', name: 'write_todos', arguments: JSON.stringify(todos) }] },
        { content: 'planned' },
      ],
      {
        tools,
        config: { permissions: { mode: 'auto' }, session: { enabled: true } },
      },
    );
    const id = (first.events[0] as { session?: { id: string } }).session!.id;
    expect(id).toBe('session_0001');
    const again = await runScript(space.ws, [{ content: 'continuing' }], {
      tools,
      task: 'go on',
      config: { session: { resume: id } },
    });
    const sent = again.requests[0]!.messages;
    expect(sent.slice(0, first.messages.length)).toEqual(first.messages);
    expect(sent[first.messages.length]).toEqual({ role: 'user', content: 'go on' });
    expect(sent.at(-1)!.content).toContain('[>] add alias');
  });

  it('a session that does not exist is a configuration error', async () => {
    await expect(
      runScript(space.ws, [{ content: 'x' }], { config: { session: { resume: 'missing' } } }),
    ).rejects.toThrow(/no session missing/);
  });
});

describe('spill files in a run', () => {
  it('a capped output is spilled into the workspace, read back with read_file, and reported as a compaction of layer spill', async () => {
    writeFileSync(
      path.join(space.ws, 'big.log'),
      Array.from({ length: 5000 }, (_, i) => `line ${i + 1} of the build log`).join('\n'),
    );
    const result = await runScript(
      space.ws,
      [
        read('c1', 'big.log'),
        {
          tool_calls: [
            {
              id: 'c2',
              name: 'read_file',
              arguments: '{"path":".harness-bench/spill/run_0001/c1.txt","offset":1500,"limit":2}',
            },
          ],
        },
        { content: 'ok' },
      ],
      { config: { context: { windowTokens: 20_000 } } },
    );
    const ledger = (id: string) => result.ledger.calls.find((c) => c.callId === id)!;
    expect(ledger('c1').content).toContain('full output saved in .harness-bench/spill/run_0001/c1.txt');
    expect(ledger('c2')).toMatchObject({
      ok: true,
      verdict: 'allow',
      content: expect.stringContaining('line 1500 of the build log'),
    });
    expect(result.events.find((e) => e.type === 'compaction')).toMatchObject({
      layer: 'spill',
      callId: 'c1',
      artifact: '.harness-bench/spill/run_0001/c1.txt',
    });
    expect(readFileSync(path.join(space.ws, '.harness-bench', '.gitignore'), 'utf8')).toBe('*\n');
  });
});

describe('messages handed in are repaired before the first request', () => {
  it('G02: the misplaced tool message is dropped', async () => {
    const initial: ChatMessage[] = [
      { role: 'user', content: 'q1' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c_old', type: 'function', function: { name: 'read_file', arguments: '{"path":"x"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c_old', content: '[cleared]' },
      { role: 'user', content: 'q2' },
      { role: 'tool', tool_call_id: 'c_old', content: '[cleared]' },
    ];
    const result = await runScript(space.ws, [{ content: 'ok' }], { initialMessages: initial });
    expect(result.requests[0]!.messages).toEqual([...initial.slice(0, 4)]);
    expectTranscriptInvariants(result.messages);
  });
});
