import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, mergeConfig, type PartialConfig } from '../config.ts';
import { expectTranscriptInvariants } from '../testing.ts';
import type { ChatMessage } from '../model/types.ts';
import { planCompaction, SUMMARY_INSTRUCTIONS } from './compaction.ts';
import { CONTEXT_NOTE_PREFIX, headLength, turnGroups } from './groups.ts';
import { TokenMeter } from './meter.ts';
import { prepareContext, type ContextInput } from './prepare.ts';
import { STUB_PREFIX } from './trim.ts';
import { countRequest } from './tokens.ts';
import { contentText } from '../model/content.ts';

const config = (partial: PartialConfig) =>
  mergeConfig(mergeConfig(DEFAULT_CONFIG, { systemPrompt: 'sys' }), partial);
const words = (n: number, seed = 'w') => Array.from({ length: n }, (_, i) => `${seed}${i % 97}`).join(' ');

/** system, task, then `turns` read turns with outputs of about `tokens` tokens each. */
function history(turns: number, tokens: number): ChatMessage[] {
  const out: ChatMessage[] = [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'the task, verbatim' },
  ];
  for (let i = 1; i <= turns; i += 1) {
    out.push({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: `c${i}`, type: 'function', function: { name: 'read_file', arguments: `{"path":"f${i}.ts"}` } },
      ],
    });
    out.push({ role: 'tool', tool_call_id: `c${i}`, content: words(tokens, `t${i}_`) });
  }
  return out;
}

const input = (
  h: ChatMessage[],
  partial: PartialConfig,
  extra: Partial<ContextInput> = {},
): ContextInput => ({
  history: h,
  config: config(partial),
  meter: new TokenMeter(),
  pins: () => 'PINS',
  counts: { compactions: 0, summarisedTurns: 0, droppedTurns: 0 },
  ...extra,
});

describe('prepareContext', () => {
  it('below every threshold it changes nothing and appends the reminder to the request only', async () => {
    const h = history(2, 50);
    const reminder = { role: 'user' as const, content: '[harness reminder] x' };
    const out = await prepareContext(input(h, {}, { reminder }));
    expect(out.history).toBe(h);
    expect(out.messages).toEqual([...h, reminder]);
    expect(out.actions).toEqual([]);
    expect(out.tokens).toBe(countRequest({ messages: out.messages }));
  });

  it('stub: above stubAt old outputs become stubs, oldest first, the recent turns untouched', async () => {
    const h = history(8, 130);
    const out = await prepareContext(
      input(h, {
        context: {
          windowTokens: 5000,
          stubAt: 0.5,
          keepRecentTurns: 2,
          layers: { compact: false, drop: false },
        },
      }),
    );
    expect(out.actions.map((a) => a.layer)).toEqual(['stub']);
    expect(out.tokens).toBeLessThanOrEqual(2500);
    const tools = out.history.filter((m) => m.role === 'tool').map((m) => contentText(m.content));
    expect(tools[0]).toMatch(
      new RegExp(`^\\${STUB_PREFIX} to save context: the result of read_file \\{"path":"f1.ts"\\}`),
    );
    expect(tools.slice(-2).every((c) => !c.startsWith(STUB_PREFIX))).toBe(true);
    expect(out.history).toHaveLength(h.length);
    expectTranscriptInvariants(out.history);
  });

  it('a stub of a spilled output points at the spill file', async () => {
    const h = history(6, 400);
    h[3] = {
      role: 'tool',
      tool_call_id: 'c1',
      content: `${words(400)}\n[… output truncated: 9 characters elided of 99 (1 lines, 99 bytes, ~9 tokens in all); full output saved in .harness-bench/spill/r/c1.txt: page through it …]`,
    };
    const out = await prepareContext(
      input(h, {
        context: { windowTokens: 4000, stubAt: 0.5, keepRecentTurns: 1, layers: { compact: false } },
      }),
    );
    expect(out.history[3]!.content).toContain('the full output is still in .harness-bench/spill/r/c1.txt');
  });

  it('compact: above compactAt the old turns go to the summariser, the note holds summary and pins, recent turns stay verbatim', async () => {
    const h = history(10, 300);
    const asked: ChatMessage[][] = [];
    const out = await prepareContext(
      input(
        h,
        { context: { windowTokens: 4000, compactAt: 0.8, keepRecentShare: 0.2, layers: { stub: false } } },
        {
          summarize: async (request) => {
            asked.push(request);
            return 'SUMMARY TEXT';
          },
        },
      ),
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]![0]).toEqual({ role: 'system', content: SUMMARY_INSTRUCTIONS });
    expect(asked[0]![1]!.content).toContain("Task (the user's first message): the task, verbatim");
    expect(out.actions).toMatchObject([
      { layer: 'summary', trigger: 'auto', pinned: ['task', 'todos', 'files', 'decisions', 'open_threads'] },
    ]);
    expect(out.history.slice(0, 2)).toEqual(h.slice(0, 2));
    expect(out.history[2]).toMatchObject({
      role: 'system',
      content: expect.stringContaining(CONTEXT_NOTE_PREFIX),
    });
    expect(out.history[2]!.content).toContain('SUMMARY TEXT');
    expect(out.history[2]!.content).toContain('PINS');
    expect(out.history.slice(3)).toEqual(h.slice(h.length - (out.history.length - 3)));
    expect(out.tokens).toBeLessThanOrEqual(3200);
    expect(out.counts).toMatchObject({ compactions: 1 });
    expectTranscriptInvariants(out.history);
  });

  it('a second compaction folds the previous summary into the request and replaces the note', async () => {
    const cfg: PartialConfig = {
      context: { windowTokens: 4000, compactAt: 0.8, keepRecentShare: 0.2, layers: { stub: false } },
    };
    const first = await prepareContext(input(history(10, 300), cfg, { summarize: async () => 'FIRST' }));
    const grown = [
      ...first.history,
      ...history(10, 300)
        .slice(2)
        .map((m) =>
          m.role === 'assistant'
            ? { ...m, tool_calls: m.tool_calls!.map((c) => ({ ...c, id: `x${c.id}` })) }
            : m.role === 'tool'
              ? { ...m, tool_call_id: `x${m.tool_call_id}` }
              : m,
        ),
    ];
    let seen = '';
    const second = await prepareContext(
      input(grown, cfg, {
        counts: first.counts,
        summarize: async (r) => {
          seen = contentText(r[1]!.content);
          return 'SECOND';
        },
      }),
    );
    expect(seen).toContain('Summary of even earlier turns:\nFIRST');
    expect(
      second.history.filter(
        (m) => m.role === 'system' && contentText(m.content).startsWith(CONTEXT_NOTE_PREFIX),
      ),
    ).toHaveLength(1);
    expect(second.history[2]!.content).toContain('compacted 2 times');
    expectTranscriptInvariants(second.history);
  });

  it('drop: with compaction off, the oldest whole turns go and the note keeps the pins', async () => {
    const out = await prepareContext(
      input(history(10, 300), { context: { windowTokens: 4000, layers: { stub: false, compact: false } } }),
    );
    expect(out.actions.map((a) => a.layer)).toEqual(['drop']);
    expect(out.tokens).toBeLessThanOrEqual(3200);
    expect(out.history[2]!.content).toMatch(/turns dropped without a summary/);
    expect(out.history[2]!.content).toContain('PINS');
    expectTranscriptInvariants(out.history);
  });

  it('context_overflow when nothing more can be removed (the head alone is bigger than the window)', async () => {
    const h: ChatMessage[] = [{ role: 'user', content: words(3000) }];
    const out = await prepareContext(input(h, { context: { windowTokens: 1000 } }));
    expect(out.stop).toMatchObject({ reason: 'context_overflow' });
  });

  it('with every layer off the request grows until it overflows', async () => {
    const off = { cap: false, spill: false, stub: false, drop: false, compact: false, reminder: false };
    const out = await prepareContext(
      input(
        history(10, 300),
        { context: { windowTokens: 2000, layers: off } },
        { summarize: async () => 'x' },
      ),
    );
    expect(out.actions).toEqual([]);
    expect(out.stop?.reason).toBe('context_overflow');
  });
});

describe('planCompaction', () => {
  it('cuts only between whole groups: the recent part never starts with a tool message (G02 cut variant)', () => {
    const h = history(6, 200);
    h.splice(5, 0, { role: 'tool', tool_call_id: 'c2b', content: 'second result' });
    (h[4] as { tool_calls: unknown[] }).tool_calls.push({
      id: 'c2b',
      type: 'function',
      function: { name: 'read_file', arguments: '{}' },
    });
    for (let budget = 0; budget < 1500; budget += 50) {
      const plan = planCompaction(h, budget);
      if (!plan) continue;
      expect(plan.recent[0]!.role).not.toBe('tool');
      expect(plan.old.length + plan.recent.length + plan.head.length).toBe(h.length);
    }
    expect(turnGroups(h, headLength(h)).map((g) => g.end - g.start)).toEqual([2, 3, 2, 2, 2, 2]);
  });
});

describe('TokenMeter', () => {
  it('adds what the provider reported beyond the count (D04), and drops it when the history is rewritten', () => {
    const meter = new TokenMeter();
    const request = { messages: [{ role: 'user' as const, content: 'hello there' }] };
    const counted = countRequest(request);
    meter.observe(counted, 7400);
    expect(meter.estimate(request)).toBe(7400);
    meter.observe(counted, counted - 5);
    expect(meter.estimate(request)).toBe(counted);
    meter.observe(counted, 7400);
    meter.invalidate();
    expect(meter.estimate(request)).toBe(counted);
  });
});
