import { describe, expect, it } from 'vitest';
import { responseContentProblems } from './content-check.ts';

const cassette = (response: Record<string, unknown>) => ({
  exchanges: [{ request: {}, response: { status: 200, headers: {}, ...response } }],
});
const reasons = (doc: unknown) => responseContentProblems(doc, 'c.json').map((p) => `${p.path}: ${p.reason}`);

describe('responseContentProblems', () => {
  it('finds a cut-off JSON body, an unreadable body and a malformed event, each at its path', () => {
    expect(reasons(cassette({ body: '{"choices": [{"message": {"content": "hi' }))).toEqual([
      expect.stringMatching(
        /^\/exchanges\/0\/response\/body: a JSON body that does not parse, cut off \(truncated\)/,
      ),
    ]);
    expect(reasons(cassette({ body: '\u001f\ufffd\b\u0000garbage' }))).toEqual([
      expect.stringMatching(/body: the body is not readable text/),
    ]);
    const events = [
      { data: '{"choices":[]}' },
      { data: '{"choices":[{"delta":{"content":"a' },
      { data: '[DONE]' },
    ];
    expect(reasons(cassette({ events }))).toEqual([
      expect.stringMatching(/^\/exchanges\/0\/response\/events\/1\/data: an event whose data is not JSON/),
    ]);
  });

  it('accepts what a model turn can be: JSON bodies, text that is not JSON, whole events, error responses', () => {
    expect(reasons(cassette({ body: { choices: [] } }))).toEqual([]);
    expect(reasons(cassette({ body: 'upstream said: busy' }))).toEqual([]);
    expect(
      reasons(cassette({ events: [{ data: '{"choices":[]}' }, { data: '' }, { data: '[DONE]' }] })),
    ).toEqual([]);
    expect(reasons({ exchanges: [{ response: { status: 502, body: '{"error": cut' } }] })).toEqual([]);
  });
});
