import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AssistantMessage, ChatMessage, ToolMessage } from '../../harness/model/types.ts';
import { transcriptProblems } from './transcript.ts';

type Segment =
  | { kind: 'user' }
  | { kind: 'text' }
  | { kind: 'calls'; args: Record<string, unknown>[]; withText: boolean };

const argsArb = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
const segmentArb: fc.Arbitrary<Segment> = fc.oneof(
  fc.constant<Segment>({ kind: 'user' }),
  fc.constant<Segment>({ kind: 'text' }),
  fc.record({
    kind: fc.constant('calls' as const),
    args: fc.array(argsArb, { minLength: 1, maxLength: 4 }),
    withText: fc.boolean(),
  }),
);

/** A valid transcript: unique ids, one tool message per call right after its assistant message, in order. */
function build(segments: Segment[]): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'task' },
  ];
  let next = 1;
  for (const segment of segments) {
    if (segment.kind === 'user') messages.push({ role: 'user', content: 'note' });
    else if (segment.kind === 'text') messages.push({ role: 'assistant', content: 'thinking' });
    else {
      const calls = segment.args.map((args) => ({
        id: `call_${next++}`,
        type: 'function' as const,
        function: { name: 'tool', arguments: JSON.stringify(args) },
      }));
      messages.push({ role: 'assistant', content: segment.withText ? 'calling' : null, tool_calls: calls });
      for (const c of calls) messages.push({ role: 'tool', tool_call_id: c.id, content: 'result' });
    }
  }
  return messages;
}

const transcriptArb = fc.array(segmentArb, { maxLength: 8 }).map(build);
const withCalls = (min: number) =>
  transcriptArb.filter((m) => m.filter((x) => x.role === 'tool').length >= min);

function callSites(messages: ChatMessage[]): { message: number; index: number }[] {
  return messages.flatMap((m, i) =>
    m.role === 'assistant' && m.tool_calls ? m.tool_calls.map((_, k) => ({ message: i, index: k })) : [],
  );
}

describe('transcriptProblems (properties)', () => {
  it('finds no problem in a generated valid transcript', () => {
    fc.assert(
      fc.property(transcriptArb, (messages) => {
        expect(transcriptProblems(messages)).toEqual([]);
      }),
    );
  });

  it('catches a duplicated call id (TI-1)', () => {
    fc.assert(
      fc.property(withCalls(2), fc.nat(), fc.nat(), (original, a, b) => {
        const messages = structuredClone(original);
        const sites = callSites(messages);
        const i = a % sites.length;
        let j = b % sites.length;
        if (j === i) j = (i + 1) % sites.length;
        const source = (messages[sites[i]!.message] as AssistantMessage).tool_calls![sites[i]!.index]!;
        const target = (messages[sites[j]!.message] as AssistantMessage).tool_calls![sites[j]!.index]!;
        const answer = messages.find(
          (m): m is ToolMessage => m.role === 'tool' && m.tool_call_id === target.id,
        )!;
        answer.tool_call_id = source.id;
        target.id = source.id;
        expect(transcriptProblems(messages).some((p) => p.startsWith('TI-1'))).toBe(true);
      }),
    );
  });

  it('catches a dropped tool message (TI-2)', () => {
    fc.assert(
      fc.property(withCalls(1), fc.nat(), (original, k) => {
        const tools = original.flatMap((m, i) => (m.role === 'tool' ? [i] : []));
        const drop = tools[k % tools.length]!;
        const messages = original.filter((_, i) => i !== drop);
        expect(transcriptProblems(messages).some((p) => p.startsWith('TI-2'))).toBe(true);
      }),
    );
  });

  it('catches two tool messages of one turn in the wrong order (TI-2)', () => {
    fc.assert(
      fc.property(transcriptArb, fc.nat(), (original, k) => {
        const groups = original.flatMap((m, i) =>
          m.role === 'assistant' && (m.tool_calls?.length ?? 0) >= 2 ? [i] : [],
        );
        fc.pre(groups.length > 0);
        const at = groups[k % groups.length]!;
        const messages = structuredClone(original);
        [messages[at + 1], messages[at + 2]] = [messages[at + 2]!, messages[at + 1]!];
        expect(transcriptProblems(messages).some((p) => p.startsWith('TI-2'))).toBe(true);
      }),
    );
  });

  it('catches a tool message moved away from its assistant message (TI-2 and TI-3)', () => {
    fc.assert(
      fc.property(withCalls(1), fc.nat(), (original, k) => {
        const tools = original.flatMap((m, i) => (m.role === 'tool' ? [i] : []));
        const from = tools[k % tools.length]!;
        const messages = original.filter((_, i) => i !== from);
        messages.push({ role: 'user', content: 'later' }, original[from]!);
        const problems = transcriptProblems(messages);
        expect(problems.some((p) => p.startsWith('TI-2'))).toBe(true);
        expect(problems.some((p) => p.startsWith('TI-3'))).toBe(true);
      }),
    );
  });

  it('catches arguments that are not a string holding a JSON object (TI-4)', () => {
    const bad = fc.constantFrom<unknown>(
      '',
      '[]',
      'null',
      '42',
      '"{}"',
      '{"a" 1}',
      "{'a': 1}",
      { a: 1 },
      null,
    );
    fc.assert(
      fc.property(withCalls(1), fc.nat(), bad, (original, k, value) => {
        const messages = structuredClone(original);
        const sites = callSites(messages);
        const site = sites[k % sites.length]!;
        (
          (messages[site.message] as AssistantMessage).tool_calls![site.index]!.function as {
            arguments: unknown;
          }
        ).arguments = value;
        expect(transcriptProblems(messages).some((p) => p.startsWith('TI-4'))).toBe(true);
      }),
    );
  });

  it('catches a missing call id (TI-1)', () => {
    fc.assert(
      fc.property(withCalls(1), fc.nat(), (original, k) => {
        const messages = structuredClone(original);
        const sites = callSites(messages);
        const site = sites[k % sites.length]!;
        delete (messages[site.message] as { tool_calls: { id?: string }[] }).tool_calls[site.index]!.id;
        expect(transcriptProblems(messages).some((p) => p.startsWith('TI-1'))).toBe(true);
      }),
    );
  });
});
