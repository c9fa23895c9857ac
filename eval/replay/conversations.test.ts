import { describe, expect, it } from 'vitest';
import {
  clientContinuation,
  clientEdits,
  groupConversations,
  messageSignature,
  sharedPrefix,
  splitThink,
} from './conversations.ts';
import { cassetteOf, completion, exchange } from './fixtures.test-helpers.ts';

const sys = (content: string) => ({ role: 'system', content });
const user = (content: string) => ({ role: 'user', content });
const answer = (content: string) => ({ role: 'assistant', content });
const call = (id: string) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name: 'f', arguments: '{"a": 1}' } }],
});
const result = (id: string, content = 'r') => ({ role: 'tool', tool_call_id: id, content });

describe('conversations', () => {
  it('signatures ignore ids, null vs empty content, cache markers, and reasoning in a <think> block', () => {
    expect(messageSignature(call('a'))).toBe(messageSignature({ ...call('b'), content: '' }));
    expect(
      messageSignature({ ...call('a'), tool_calls: [{ function: { name: 'f', arguments: '{"a":1}' } }] }),
    ).toBe(messageSignature(call('x')));
    expect(messageSignature(user('q'))).toBe(
      messageSignature({
        role: 'user',
        content: [{ type: 'text', text: 'q', cache_control: { type: 'ephemeral' } }],
      }),
    );
    expect(messageSignature(answer('<think>\nhm\n</think>hi'))).toBe(messageSignature(answer('hi')));
    expect(messageSignature(user('q'))).not.toBe(messageSignature(answer('q')));
    expect(splitThink('<think> a </think>\nb')).toEqual({ think: 'a', rest: 'b' });
    expect(sharedPrefix([user('a'), user('b')], [user('a'), user('c')])).toBe(1);
  });

  it('groups interleaved requests by the history they continue; a retry joins its own conversation', () => {
    const ok = completion({ content: 'x' });
    const busy = { status: 429, headers: {}, body: { error: { message: 'slow down' } } };
    const cassette = cassetteOf([
      exchange([sys('manager'), user('task')], ok),
      exchange([sys('writer'), user('write')], ok),
      exchange([sys('manager'), user('task'), call('a'), result('a')], ok),
      exchange([sys('writer'), user('write'), answer('done'), sys('writer'), user('next')], busy),
      exchange([sys('writer'), user('write'), answer('done'), sys('writer'), user('next')], ok),
      exchange([sys('researcher'), user('find')], ok),
      // The same prompt again after it was answered: a new session, not a retry.
      exchange([sys('researcher'), user('find')], ok),
      exchange([sys('researcher'), user('find'), answer('x'), user('more')], ok),
    ]);
    expect(groupConversations(cassette, [0, 1, 2, 3, 4, 5, 6, 7])).toEqual([
      { index: 0, exchanges: [0, 2] },
      { index: 1, exchanges: [1, 3, 4] },
      { index: 2, exchanges: [5] },
      { index: 3, exchanges: [6, 7] },
    ]);
  });

  it('a side conversation started inside a tool call gives the turn back to the agent', () => {
    const ok = completion({ content: 'x' });
    // An MCP server samples the model during call `a` with the agent's history as context; the
    // agent's next request, with the result, continues the agent's conversation.
    const cassette = cassetteOf([
      exchange([sys('agent'), user('task')], ok),
      exchange([sys('agent'), user('task'), call('a'), user('summarise the page for the tool')], ok),
      exchange([sys('agent'), user('task'), call('a'), result('a')], ok),
      exchange([sys('agent'), user('task'), call('a'), result('a'), answer('x'), user('more')], ok),
    ]);
    expect(groupConversations(cassette, [0, 1, 2, 3])).toEqual([
      { index: 0, exchanges: [0, 2, 3] },
      { index: 1, exchanges: [1] },
    ]);
  });

  it('a request that edits the history but answers the calls a conversation was served continues it', () => {
    const served = completion(
      {
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a": 1}' } }],
      },
      'tool_calls',
    );
    const ok = completion({ content: 'x' });
    const cassette = cassetteOf([
      exchange([sys('agent'), user('task')], served),
      // The client dropped its system prompt before asking again: an edit the replay must compare.
      exchange([user('task'), call('c1'), result('c1')], ok),
      // A new task with the same model turn copied in but its calls not answered next: its own.
      exchange([user('other'), call('c1'), user('what now?')], ok),
    ]);
    expect(groupConversations(cassette, [0, 1, 2])).toEqual([
      { index: 0, exchanges: [0, 1] },
      { index: 1, exchanges: [2] },
    ]);
  });

  it('what the client adds between turns: trailing user and system messages after the same role', () => {
    const history = [user('q'), call('a'), result('a')];
    expect(clientContinuation(history, [...history, user('Analyze the tool result.')])).toEqual([
      user('Analyze the tool result.'),
    ]);
    // The harness answered a call the client dropped: the history differs, the nudge still follows a tool result.
    expect(clientContinuation([...history, result('b', 'denied')], [...history, user('nudge')])).toEqual([
      user('nudge'),
    ]);
    expect(
      clientContinuation([user('q'), answer('x')], [user('q'), answer('x'), sys('s'), user('next')]),
    ).toEqual([sys('s'), user('next')]);
    expect(clientContinuation([user('q'), answer('x')], [user('q'), answer('x')])).toEqual([]);
    expect(clientContinuation(history, [...history])).toEqual([]);
    expect(clientContinuation([user('q')], [user('q'), user('more')])).toBeUndefined();
    expect(clientContinuation(history, [user('q'), call('a')])).toBeUndefined();
    expect(clientContinuation([...history, user('nudge')], [...history, user('nudge')])).toEqual([]);
  });

  it("edits only a client makes: client messages inserted, the model's last text message rewritten", () => {
    const history = [sys('s'), user('q'), answer('Action: look\nAction Input: {"a": 1}')];
    // crewAI: the image its tool returned goes before the model's message.
    expect(clientEdits(history, [sys('s'), user('q'), user('image'), history[2]!])).toEqual([
      { at: 2, kind: 'inserted' },
    ]);
    // LlamaIndex ReAct: the model's message re-rendered, the observation appended.
    const rerendered = answer("Action: look\nAction Input: {'a': 1}");
    expect(clientEdits(history, [sys('s'), user('q'), rerendered, user('Observation: 6')])).toEqual([
      { at: 2, kind: 'rewritten' },
    ]);
    // Appending only is no edit.
    expect(clientEdits(history, [...history, user('next')])).toEqual([]);
    // The recorded message is what the model returned: the harness changed it, not the client.
    expect(clientEdits(history, [sys('s'), user('q'), rerendered], rerendered)).toBeUndefined();
    // Only the last message, only text, only client messages inserted.
    expect(
      clientEdits(
        [user('q'), answer('a'), user('r'), answer('b')],
        [user('q'), answer('A'), user('r'), answer('b')],
      ),
    ).toBeUndefined();
    expect(clientEdits([user('q'), call('a')], [user('q'), answer('x')])).toBeUndefined();
    expect(clientEdits(history, [sys('s'), user('q'), answer('inserted'), history[2]!])).toBeUndefined();
    expect(clientEdits(history, [sys('s'), user('q')])).toBeUndefined();
    expect(clientEdits(history, [...history, answer('more')])).toBeUndefined();
  });
});
