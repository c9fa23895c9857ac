/**
 * A refusal (OpenAI `message.refusal`: the model declined, `content: null`, `finish_reason:
 * "stop"`) is never an empty final answer: the run stops with `content_filter`, the detail
 * quotes the refusal, and the refusal stays on the assistant message of the transcript.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentFilterStop } from '../loop/stop-reasons.ts';
import { InlineModel, runScript, tempWorkspace } from '../testing/scripted-runs.ts';
import type { ModelResponse } from './types.ts';

let space: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  space = tempWorkspace();
});
afterEach(() => space.dispose());

const refusal = (extra: Partial<ModelResponse> = {}): ModelResponse => ({
  content: null,
  refusal: "I'm sorry, I can't help with that.",
  toolCalls: [],
  finishReason: 'stop',
  ...extra,
});

describe('a refusal', () => {
  it('stops the run with content_filter, never a final answer, and keeps the refusal in the transcript', async () => {
    const model = new InlineModel(() => refusal());
    const result = await runScript(space.ws, model);
    expect(result.stopReason).toBe('content_filter');
    expect(result.stopDetail).toBe("the model refused (message.refusal): I'm sorry, I can't help with that.");
    expect(result.finalAnswer).toBeNull();
    expect(result.messages.at(-1)).toEqual({
      role: 'assistant',
      content: null,
      refusal: "I'm sorry, I can't help with that.",
    });
    expect(model.requests).toHaveLength(1);
  });

  it('runs none of the calls of a refused turn; an empty refusal is no refusal', () => {
    expect(
      contentFilterStop(refusal({ toolCalls: [{ function: { name: 'write_file', arguments: '{}' } }] })),
    ).toEqual({
      reason: 'content_filter',
      detail: "the model refused (message.refusal): I'm sorry, I can't help with that.; 1 tool call not run",
    });
    expect(contentFilterStop(refusal({ refusal: '  ', content: 'ok' }))).toBeUndefined();
    expect(contentFilterStop(refusal({ finishReason: 'content_filter' }))!.detail).toMatch(
      /^the provider's content filter stopped the turn \(finish_reason content_filter\); the model refused: I'm sorry/,
    );
  });
});
