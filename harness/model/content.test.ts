import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InlineModel, runScript, tempWorkspace } from '../testing/scripted-runs.ts';
import { contentText, isImagePart, nonTextParts } from './content.ts';
import type { ChatMessage } from './types.ts';

let space: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  space = tempWorkspace();
});
afterEach(() => space.dispose());

// The history of pydantic/pydantic-ai `tests/models/cassettes/test_openai/test_image_url_tool_response.yaml`
// (MIT, commit 4fda38988f29): parts in the user messages, an image after the tool result.
const image = {
  type: 'image_url',
  image_url: {
    url: 'https://t3.ftcdn.net/jpg/00/85/79/92/360_F_85799278_0BBGV9OAdQDTLnKwAPBCcg1J7QtiieJY.jpg',
  },
};
const history: ChatMessage[] = [
  {
    role: 'user',
    content: [{ type: 'text', text: 'What food is in the image you can get from the get_image tool?' }],
  },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      {
        id: 'call_SY4nJzPqIcu9XbctxNUfIwyo',
        type: 'function',
        function: { name: 'get_image', arguments: '{}' },
      },
    ],
  },
  {
    role: 'tool',
    tool_call_id: 'call_SY4nJzPqIcu9XbctxNUfIwyo',
    content: [{ type: 'text', text: 'See file bd38f5' }],
  },
  { role: 'user', content: [{ type: 'text', text: 'This is file bd38f5:' }, image] },
];

describe('message content as a list of parts', () => {
  it('reads text and non-text parts', () => {
    expect(contentText(history[3]!.content)).toBe('This is file bd38f5:');
    expect(nonTextParts(history[3]!.content)).toEqual([image]);
    expect(isImagePart(image)).toBe(true);
    expect(contentText(null)).toBe('');
    expect(nonTextParts('text')).toEqual([]);
  });

  it('a history with parts in every role goes through the context stage and is sent as it is', async () => {
    for (const windowTokens of [128_000, 1_400]) {
      const model = new InlineModel(() => ({
        content: 'The image shows a potato.',
        toolCalls: [],
        finishReason: 'stop',
      }));
      const result = await runScript(space.ws, model, {
        initialMessages: history,
        config: { context: { windowTokens, keepRecentTurns: 0 } },
      });
      expect(result.stopReason).toBe('final_answer');
      expect(result.finalAnswer).toBe('The image shows a potato.');
      // The turn's request (after any compaction request) ends with the image message as recorded.
      expect(model.requests.at(-1)!.messages.at(-1)).toEqual(history[3]);
      if (windowTokens > 100_000) expect(model.requests[0]!.messages).toEqual(history);
    }
  });
});
