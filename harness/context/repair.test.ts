import { describe, expect, it } from 'vitest';
import { expectTranscriptInvariants } from '../testing.ts';
import type { ChatMessage } from '../model/types.ts';
import { repairTranscript } from './repair.ts';

const call = (...ids: string[]): ChatMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: ids.map((id) => ({
    id,
    type: 'function' as const,
    function: { name: 'search', arguments: `{"query":"${id}"}` },
  })),
});
const result = (id: string, content = 'ok'): ChatMessage => ({ role: 'tool', tool_call_id: id, content });
const user = (content: string): ChatMessage => ({ role: 'user', content });

describe('repairTranscript', () => {
  it('G01: a call left without a result gets a synthetic interrupted result right after it', () => {
    const messages = [user('run the test suite'), call('call_u1'), user('actually, just run the linter')];
    const { messages: out, report } = repairTranscript(messages, new Set(['call_u1']));
    expect(out[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_u1' });
    expect(JSON.parse((out[2] as { content: string }).content)).toEqual({
      error: {
        type: 'interrupted',
        retryable: false,
        message: expect.stringContaining('stopped by the user before it finished'),
      },
    });
    expect(out[3]).toEqual(user('actually, just run the linter'));
    expect(report.inserted.map((i) => i.afterCallId)).toEqual(['call_u1']);
    expectTranscriptInvariants(out);
    expect(repairTranscript(messages).messages[2]!.content).toContain('the session ended');
  });

  it('G02: a second result for an answered call, after a user turn, is dropped; the rest is untouched', () => {
    const messages = [
      user('q1'),
      call('c_old'),
      result('c_old', '[cleared]'),
      { role: 'assistant', content: 'answer 1' } as ChatMessage,
      user('q2'),
      result('c_old', '[cleared]'),
      call('c_new'),
      result('c_new'),
    ];
    const { messages: out, report } = repairTranscript(messages);
    expect(report.dropped).toEqual([{ index: 5, toolCallId: 'c_old', reason: expect.any(String) }]);
    expect(out).toEqual([...messages.slice(0, 5), ...messages.slice(6)]);
    expectTranscriptInvariants(out);
  });

  it('G02 cut variant: results whose assistant message is gone are dropped with it', () => {
    const { messages: out, report } = repairTranscript([
      { role: 'system', content: 'summary' },
      result('c_new'),
      user('next'),
    ]);
    expect(out).toEqual([{ role: 'system', content: 'summary' }, user('next')]);
    expect(report.dropped.map((d) => d.index)).toEqual([1]);
  });

  it('results go back in call order; duplicates are dropped; arguments that are not an object become {}', () => {
    const bad: ChatMessage = {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'a', type: 'function', function: { name: 'x', arguments: '[1,2]' } },
        { id: 'b', type: 'function', function: { name: 'x', arguments: '{"ok":1}' } },
      ],
    };
    const { messages: out, report } = repairTranscript([
      user('t'),
      bad,
      result('b'),
      result('a'),
      result('a', 'again'),
    ]);
    expect(out.slice(2).map((m) => (m as { tool_call_id: string }).tool_call_id)).toEqual(['a', 'b']);
    expect(
      (out[1] as { tool_calls: { function: { arguments: string } }[] }).tool_calls[0]!.function.arguments,
    ).toBe('{}');
    expect(report).toMatchObject({ argumentsReplaced: ['a'], dropped: [{ index: 4, toolCallId: 'a' }] });
    expect(report.reordered).toBeGreaterThan(0);
    expectTranscriptInvariants(out);
  });

  it('a sound transcript comes back as the same array', () => {
    const messages = [
      user('t'),
      call('a', 'b'),
      result('a'),
      result('b'),
      { role: 'assistant', content: 'done' } as ChatMessage,
    ];
    expect(repairTranscript(messages).messages).toBe(messages);
  });
});
