import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../harness/model/types.ts';
import { palette } from '../reports/color.ts';
import { conversationLines } from './conversation-lines.ts';

const c = palette(false);
const user = { role: 'user', content: 'Read a.txt.' };
const call = {
  role: 'assistant',
  content: null,
  tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: { path: 'a.txt' } } }],
};
const answer = { role: 'tool', tool_call_id: 'c1', content: 'alpha' };
const requests = [
  { model: 'm', messages: [user] },
  { model: 'm', messages: [user, call, answer] },
] as unknown as ModelRequest[];

describe('conversationLines', () => {
  it('shows each request’s new messages: the served calls with their arguments, the tool messages, how it ended', () => {
    const lines = conversationLines(
      requests,
      { harness: { name: 'loop', kind: 'command', ending: 'final_answer', exitCode: 0 } },
      c,
    );
    expect(lines).toEqual([
      'request 1: 1 messages, 1 new',
      '  user: "Read a.txt."',
      'request 2: 3 messages, 2 new',
      '  assistant calls c1 read_file({"path":"a.txt"})',
      '  tool c1: "alpha"',
      'harness loop: it stopped on a final answer, exit code 0',
    ]);
  });

  it('says when the harness sent nothing, or rewrote its history', () => {
    expect(conversationLines([], {}, c)).toEqual(['(it sent no request to the model endpoint)']);
    const shrunk = [requests[1]!, { model: 'm', messages: [user] }] as ModelRequest[];
    expect(conversationLines(shrunk, {}, c)[4]).toBe(
      'request 2: 1 messages, 0 new (it rewrote the history: fewer messages than before)',
    );
  });

  it('ends with the last lines the harness wrote on stderr, blank lines left out', () => {
    const stderr = `${Array.from({ length: 7 }, (_, i) => `log ${i + 1}`).join('\n')}\n\nfatal: bad arguments\n`;
    const lines = conversationLines(
      requests.slice(0, 1),
      { harness: { name: 'loop', kind: 'command', ending: 'tool_calls', exitCode: 1 } },
      c,
      100,
      stderr,
    );
    expect(lines.slice(2)).toEqual([
      'harness loop: it stopped calling the model after a turn with tool calls, exit code 1',
      'stderr: log 4',
      'stderr: log 5',
      'stderr: log 6',
      'stderr: log 7',
      'stderr: fatal: bad arguments',
    ]);
  });
});
