import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InlineModel, runScript, tempWorkspace } from '../testing/scripted-runs.ts';
import { wireBody } from './openai-model.ts';
import { reasoningFields, wireMessages } from './reasoning.ts';
import type { AssistantMessage, ChatMessage, ModelResponse } from './types.ts';

let space: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  space = tempWorkspace();
  writeFileSync(path.join(space.ws, 'a.txt'), 'A\n');
});
afterEach(() => space.dispose());

const readA = {
  id: 'call_1',
  type: 'function',
  function: { name: 'read_file', arguments: '{"path":"a.txt"}' },
};
const assistants = (messages: readonly ChatMessage[]) =>
  messages.filter((m): m is AssistantMessage => m.role === 'assistant');

describe('reasoning the provider requires back', () => {
  it('keeps each field under the name the provider used', () => {
    const base: ModelResponse = { content: null, toolCalls: [], finishReason: 'stop' };
    expect(reasoningFields(base)).toEqual({});
    expect(reasoningFields({ ...base, reasoningContent: 'r' })).toEqual({ reasoning_content: 'r' });
    expect(reasoningFields({ ...base, reasoningContent: 'r', reasoningField: 'reasoning' })).toEqual({
      reasoning: 'r',
    });
    const details = [{ type: 'reasoning.text', text: 't', signature: 'S' }];
    expect(reasoningFields({ ...base, reasoningDetails: details })).toEqual({ reasoning_details: details });
  });

  it('DeepSeek: reasoning_content goes back on tool-call turns and not on plain answers', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: 'answer', reasoning_content: 'old thought' },
      { role: 'user', content: 'q2' },
      { role: 'assistant', content: null, tool_calls: [readA as never], reasoning_content: 'why the call' },
      { role: 'tool', tool_call_id: 'call_1', content: 'A' },
    ];
    const wire = wireMessages(messages);
    expect(wire[1]).toEqual({ role: 'assistant', content: 'answer' });
    expect(wire[3]).toBe(messages[3]);
    expect(messages[1]).toHaveProperty('reasoning_content', 'old thought');
    expect((wireBody({ model: 'deepseek-reasoner', messages }).messages as ChatMessage[])[1]).toEqual(
      wire[1],
    );
  });

  it("Mistral's thinking parts stay in the content and go back as they came; the final answer is the text", async () => {
    const parts = [
      { type: 'thinking', thinking: [{ type: 'text', text: '12 * 12 = 144' }], closed: true },
      { type: 'text', text: '144' },
    ];
    const model = new InlineModel(() => ({
      content: '144',
      contentParts: parts,
      toolCalls: [],
      finishReason: 'stop',
    }));
    const result = await runScript(space.ws, model);
    expect(result.finalAnswer).toBe('144');
    expect(assistants(result.messages)[0]!.content).toEqual(parts);
    expect(
      reasoningFields({ content: '144', contentParts: parts, toolCalls: [], finishReason: 'stop' }),
    ).toEqual({
      content: parts,
    });
  });

  it('the loop keeps reasoning and reasoning_details in the history and sends them with the next request', async () => {
    const details = [
      { type: 'reasoning.text', text: 'Let me read it.', signature: 'EvAB', format: 'anthropic-claude-v1' },
    ];
    const model = new InlineModel((_request, i) =>
      i === 0
        ? {
            content: 'Sure!',
            toolCalls: [readA],
            finishReason: 'tool_calls',
            reasoningContent: 'Let me read it.',
            reasoningField: 'reasoning',
            reasoningDetails: details,
          }
        : {
            content: 'A',
            toolCalls: [],
            finishReason: 'stop',
            reasoningContent: 'done',
            reasoningField: 'reasoning',
          },
    );
    const result = await runScript(space.ws, model, { config: { permissions: { mode: 'auto' } } });
    expect(result.stopReason).toBe('final_answer');
    // The history keeps both; the request carries the blocks, whose text is the same reasoning.
    expect(assistants(result.messages)[0]).toMatchObject({
      reasoning: 'Let me read it.',
      reasoning_details: details,
    });
    const sent = wireMessages(model.requests[1]!.messages).find((m) => m.role === 'assistant')!;
    expect(sent).toMatchObject({ reasoning_details: details });
    expect(sent).not.toHaveProperty('reasoning');
    expect(sent).not.toHaveProperty('reasoning_content');
    expect(assistants(result.messages).at(-1)).toMatchObject({ content: 'A', reasoning: 'done' });
  });
});
