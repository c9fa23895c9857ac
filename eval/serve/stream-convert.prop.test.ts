/**
 * Properties of the stream conversion (`stream-convert.ts`): for any completion with text,
 * reasoning, a refusal and tool calls, body → stream → body keeps every field a conversion must
 * keep, and the openai SDK assembles the stream into the same completion; and however a stream
 * of one completion is cut into deltas, assembling it gives that completion.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { completionFromEvents, eventsFromCompletion } from './stream-convert.ts';
import { essentials, sdkAccumulation } from './stream-convert.test-helpers.ts';

const text = fc.string({
  unit: fc.constantFrom('a', 'é', '∑', '😀', ' ', '{', '"', '\n', '0'),
  minLength: 1,
  maxLength: 20,
});
const call = fc.record({
  id: fc.stringMatching(/^call_[a-z0-9]{1,8}$/),
  type: fc.constant('function'),
  function: fc.record({
    name: fc.stringMatching(/^[a-z_]{1,12}$/),
    arguments: fc.oneof(text, fc.json()),
  }),
});
const message = fc.record(
  {
    role: fc.constant('assistant'),
    content: fc.option(text, { nil: null }),
    reasoning_content: text,
    refusal: fc.option(text, { nil: null }),
    tool_calls: fc.array(call, { minLength: 1, maxLength: 4 }),
  },
  { requiredKeys: ['role', 'content'] },
);
const usage = fc
  .record({ prompt_tokens: fc.nat(5000), completion_tokens: fc.nat(5000) })
  .map((u) => ({ ...u, total_tokens: u.prompt_tokens + u.completion_tokens }));
const completion = fc
  .record(
    {
      id: fc.stringMatching(/^chatcmpl-[A-Za-z0-9]{1,10}$/),
      created: fc.nat(2_000_000_000),
      model: fc.stringMatching(/^[a-z0-9.-]{1,16}$/),
      system_fingerprint: fc.stringMatching(/^fp_[a-z0-9]{1,8}$/),
      usage,
      choices: fc.array(
        fc.record({
          message,
          finish_reason: fc.constantFrom('stop', 'tool_calls', 'length', 'content_filter'),
        }),
        { minLength: 1, maxLength: 2 },
      ),
    },
    { requiredKeys: ['id', 'created', 'model', 'choices'] },
  )
  .map((body) => ({
    ...body,
    object: 'chat.completion',
    choices: body.choices.map((choice, index) => ({ index, ...choice, logprobs: null })),
  }));

/** Cuts a string into pieces at the given code-point positions (never inside a surrogate pair). */
function cut(value: string, at: readonly number[]): string[] {
  const chars = Array.from(value);
  const marks = [...new Set(at.map((n) => n % (chars.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const mark of [...marks, chars.length]) {
    if (mark > from) out.push(chars.slice(from, mark).join(''));
    from = Math.max(from, mark);
  }
  return out;
}

describe('stream conversion (property)', () => {
  it('body → stream → body keeps id, model, created, fingerprint, usage, text, reasoning, refusal, calls, finish', () => {
    fc.assert(
      fc.property(completion, (body) => {
        const events = eventsFromCompletion(body, { includeUsage: true })!;
        expect(events.at(-1)).toBe('[DONE]');
        expect(essentials(completionFromEvents(events))).toEqual(essentials(body));
      }),
      { numRuns: 200 },
    );
  });

  it('the openai SDK assembles the served stream into the same completion (text calls only)', async () => {
    const stringArgs = completion.filter((body) =>
      body.choices.every((c) =>
        (c.message.tool_calls ?? []).every((t) => typeof t.function.arguments === 'string'),
      ),
    );
    await fc.assert(
      fc.asyncProperty(stringArgs, async (body) => {
        const events = eventsFromCompletion(body, { includeUsage: true })!;
        // The SDK keeps the last reasoning piece rather than their concatenation: leave reasoning out.
        expect(essentials(await sdkAccumulation(events), false)).toEqual(essentials(body, false));
      }),
      { numRuns: 60 },
    );
  });

  it('assembles a stream of one completion however its text and arguments are cut into deltas', () => {
    fc.assert(
      fc.property(completion, fc.array(fc.nat(40), { maxLength: 6 }), (body, marks) => {
        const choice = body.choices[0]!;
        const m = choice.message;
        const base = {
          id: body.id,
          object: 'chat.completion.chunk',
          created: body.created,
          model: body.model,
        };
        const at = (delta: Record<string, unknown>, finish: string | null = null) =>
          JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
        const events = [at({ role: 'assistant' })];
        for (const piece of m.content === null ? [] : cut(m.content, marks))
          events.push(at({ content: piece }));
        const calls = (m.tool_calls ?? []).filter((t) => typeof t.function.arguments === 'string');
        calls.forEach((t, index) => {
          events.push(
            at({ tool_calls: [{ index, id: t.id, type: 'function', function: { name: t.function.name } }] }),
          );
          for (const piece of cut(t.function.arguments as string, marks))
            events.push(at({ tool_calls: [{ index, function: { arguments: piece } }] }));
        });
        events.push(at({}, choice.finish_reason), '[DONE]');
        const back = completionFromEvents(events);
        const want = {
          ...body,
          system_fingerprint: undefined,
          usage: undefined,
          choices: [
            {
              ...choice,
              message: { role: 'assistant', content: m.content, refusal: null, tool_calls: calls },
            },
          ],
        };
        expect(essentials(back, false)).toEqual(essentials(want, false));
      }),
      { numRuns: 200 },
    );
  });
});
