import { describe, expect, it } from 'vitest';
import {
  responseFromCompletion,
  assembleChunks,
  LEGACY_CALL_ID,
} from '../../harness/model/stream-assembler.ts';
import type { Exchange } from '../cassette/types.ts';
import { decodeRecordedResponse } from '../replay/decode.ts';
import { importRealRecording, loadManifest } from './import-real.ts';
import { legacyCallId, rewriteLegacyShapes } from './legacy-shapes.ts';

const exchange = (body: Record<string, unknown>, response: unknown): Exchange => ({
  request: { method: 'POST', path: '/v1/chat/completions', body },
  response: { status: 200, headers: {}, body: response },
});
const completion = (...messages: Record<string, unknown>[]) => ({
  object: 'chat.completion',
  choices: messages.map((message, index) => ({
    index,
    message: { role: 'assistant', ...message },
    finish_reason: 'stop',
  })),
});
const FN = { name: 'get_weather', parameters: { type: 'object' } };
const USER = { role: 'user', content: 'weather?' };

describe('legacy function calling', () => {
  it('becomes tools and tool_calls, the call id the same in the reply and in its echo', () => {
    const call = { name: 'get_weather', arguments: '{"location":"Boston"}' };
    const exchanges = [
      exchange(
        { model: 'm', messages: [USER], functions: [FN], function_call: 'auto' },
        {
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: null, function_call: call },
              finish_reason: 'function_call',
            },
          ],
        },
      ),
      exchange(
        {
          model: 'm',
          functions: [FN],
          messages: [
            USER,
            { role: 'assistant', content: null, function_call: call },
            { role: 'function', name: 'get_weather', content: 'sunny' },
          ],
        },
        completion({ content: 'It is sunny.' }),
      ),
    ];
    const notes = rewriteLegacyShapes(exchanges);
    expect(notes.join()).toMatch(/legacy function calling .* exchanges 0, 1/);
    const [first, second] = exchanges;
    expect(first!.request.body).toMatchObject({
      tools: [{ type: 'function', function: FN }],
      tool_choice: 'auto',
    });
    expect(first!.request.body).not.toHaveProperty('functions');
    const turn = decodeRecordedResponse(first!.response, 0);
    expect(turn.finishReason).toBe('tool_calls');
    expect(turn.toolCalls).toEqual([{ id: legacyCallId(1), type: 'function', function: call }]);
    const messages = second!.request.body!.messages as Record<string, unknown>[];
    expect(messages[1]).toMatchObject({ tool_calls: [{ id: legacyCallId(1), function: call }] });
    expect(messages[2]).toMatchObject({ role: 'tool', tool_call_id: legacyCallId(1), content: 'sunny' });
  });

  it('a streamed function_call: the id on the named delta, arguments appended', () => {
    const events = [
      {
        choices: [
          { index: 0, delta: { role: 'assistant', function_call: { name: 'get_weather', arguments: '' } } },
        ],
      },
      { choices: [{ index: 0, delta: { function_call: { arguments: '{"a":1}' } } }] },
      { choices: [{ index: 0, delta: {}, finish_reason: 'function_call' }] },
    ].map((chunk) => ({ data: JSON.stringify({ object: 'chat.completion.chunk', ...chunk }) }));
    const one: Exchange = {
      request: { method: 'POST', path: '/v1/chat/completions', body: { messages: [USER] } },
      response: { status: 200, headers: {}, events },
    };
    rewriteLegacyShapes([one]);
    const turn = decodeRecordedResponse(one.response, 0);
    expect(turn.toolCalls).toMatchObject([
      { id: legacyCallId(1), function: { name: 'get_weather', arguments: '{"a":1}' } },
    ]);
    expect(turn.finishReason).toBe('tool_calls');
  });

  it('a live reply with function_call is a tool call, never an empty final answer', () => {
    const fn = { name: 'f', arguments: '{}' };
    expect(
      responseFromCompletion({
        choices: [{ message: { function_call: fn }, finish_reason: 'function_call' }],
      }).toolCalls,
    ).toEqual([{ id: LEGACY_CALL_ID, type: 'function', function: fn }]);
    const streamed = assembleChunks([
      { choices: [{ index: 0, delta: { function_call: { name: 'f', arguments: '{' } } }] },
      { choices: [{ index: 0, delta: { function_call: { arguments: '}' } } }] },
    ]);
    expect(streamed.toolCalls).toMatchObject([
      { id: LEGACY_CALL_ID, function: { name: 'f', arguments: '{}' } },
    ]);
  });

  it('the real langchaingo recording imports as one call of get_weather', () => {
    const recording = loadManifest().find((r) => r.file === 'langchaingo-gpt35-legacy-function-call.httprr')!;
    const { cassette } = importRealRecording(recording);
    expect(cassette.meta.imported?.rewritten?.[0]).toMatch(/legacy function calling/);
    expect(decodeRecordedResponse(cassette.exchanges[0]!.response, 0).toolCalls[0]?.function?.name).toBe(
      'get_weather',
    );
  });
});

describe('several choices (n > 1)', () => {
  it('keeps the choice the next request continued', () => {
    const exchanges = [
      exchange({ messages: [USER], n: 2 }, completion({ content: 'A' }, { content: 'B' })),
      exchange(
        { messages: [USER, { role: 'assistant', content: 'B' }, { role: 'user', content: 'more' }] },
        completion({ content: 'C' }),
      ),
    ];
    expect(rewriteLegacyShapes(exchanges).join()).toMatch(
      /kept the one the next request continued \(exchange 0: choice 1 of 2\)/,
    );
    expect(decodeRecordedResponse(exchanges[0]!.response, 0).content).toBe('B');
  });

  it('streamed choices: the chosen one is kept, the others dropped; unassembled, choice 0 only', () => {
    const events = ['x', 'y'].flatMap((text, index) => [
      {
        data: JSON.stringify({
          object: 'chat.completion.chunk',
          choices: [{ index, delta: { content: text } }],
        }),
      },
    ]);
    expect(assembleChunks(events.map((e) => JSON.parse(e.data))).content).toBe('x');
    const exchanges: Exchange[] = [
      {
        request: { method: 'POST', path: '/v1/chat/completions', body: { messages: [USER], n: 2 } },
        response: { status: 200, headers: {}, events },
      },
      exchange({ messages: [USER, { role: 'assistant', content: 'y' }] }, completion({ content: 'z' })),
    ];
    rewriteLegacyShapes(exchanges);
    expect(decodeRecordedResponse(exchanges[0]!.response, 0).content).toBe('y');
  });

  it('with no later request to show the choice, the replay refuses the turn with the reason', () => {
    const exchanges = [exchange({ messages: [USER], n: 2 }, completion({ content: 'A' }, { content: 'B' }))];
    expect(rewriteLegacyShapes(exchanges).join()).toMatch(/no later request shows which one/);
    expect(() => decodeRecordedResponse(exchanges[0]!.response, 0)).toThrow(
      /holds 2 choices \(n > 1\).*refused rather than serving choice 0/,
    );
  });
});
