import { describe, expect, it } from 'vitest';
import type { Exchange } from '../cassette/types.ts';
import { decodeRecordedResponse } from '../replay/decode.ts';
import { CUSTOM_INPUT, rewriteCustomTools } from './custom-tools.ts';
import { rewriteLegacyShapes } from './legacy-shapes.ts';

const TOOL = {
  type: 'custom',
  custom: { name: 'apply_patch', description: 'Apply a patch', format: { type: 'text' } },
};
const USER = { role: 'user', content: 'fix it' };
const PATCH = '*** Begin Patch\n+ "quoted" \\ line\n*** End Patch';
const customCall = { id: 'call_1', type: 'custom', custom: { name: 'apply_patch', input: PATCH } };

describe('custom tools (type "custom") at import', () => {
  it('a declared custom tool is a function of one string input; a reply and its echo are function calls', () => {
    const exchanges: Exchange[] = [
      {
        request: {
          method: 'POST',
          path: '/v1/chat/completions',
          body: {
            messages: [USER],
            tools: [TOOL],
            tool_choice: { type: 'custom', custom: { name: 'apply_patch' } },
          },
        },
        response: {
          status: 200,
          headers: {},
          body: {
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: null, tool_calls: [customCall] },
                finish_reason: 'tool_calls',
              },
            ],
          },
        },
      },
      {
        request: {
          method: 'POST',
          path: '/v1/chat/completions',
          body: {
            messages: [
              USER,
              { role: 'assistant', tool_calls: [customCall] },
              { role: 'tool', tool_call_id: 'call_1', content: 'Done!' },
            ],
            tools: [TOOL],
          },
        },
        response: {
          status: 200,
          headers: {},
          body: {
            choices: [
              { index: 0, message: { role: 'assistant', content: 'Patched.' }, finish_reason: 'stop' },
            ],
          },
        },
      },
    ];
    expect(rewriteLegacyShapes(exchanges).join()).toMatch(
      /custom tools .* read as function tools with one string parameter "input" in exchanges 0, 1/,
    );
    const body = exchanges[0]!.request.body!;
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'apply_patch',
          description: 'Apply a patch Input format: {"type":"text"}.',
          parameters: { type: 'object', properties: { input: expect.any(Object) }, required: [CUSTOM_INPUT] },
        },
      },
    ]);
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'apply_patch' } });
    const turn = decodeRecordedResponse(exchanges[0]!.response, 0);
    expect(turn.toolCalls).toEqual([
      {
        id: 'call_1',
        type: 'function',
        function: { name: 'apply_patch', arguments: JSON.stringify({ input: PATCH }) },
      },
    ]);
    const echo = (exchanges[1]!.request.body!.messages as { tool_calls?: unknown[] }[])[1]!.tool_calls;
    expect(echo).toEqual(turn.toolCalls);
  });

  it('streamed input pieces assemble to the JSON of the whole input', () => {
    const pieces = ['*** Begin', ' Patch\n+ "q', 'uoted" \\ li', 'ne\n*** End Patch'];
    const events = [
      {
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                { index: 0, id: 'call_1', type: 'custom', custom: { name: 'apply_patch', input: pieces[0] } },
              ],
            },
          },
        ],
      },
      ...pieces.slice(1).map((input) => ({
        choices: [{ index: 0, delta: { tool_calls: [{ index: 0, type: 'custom', custom: { input } }] } }],
      })),
      { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    ].map((chunk) => ({ data: JSON.stringify({ object: 'chat.completion.chunk', ...chunk }) }));
    const exchanges: Exchange[] = [
      {
        request: { method: 'POST', path: '/v1/chat/completions', body: { messages: [USER], tools: [TOOL] } },
        response: { status: 200, headers: {}, events },
      },
    ];
    expect(rewriteCustomTools(exchanges)).toEqual([0]);
    const turn = decodeRecordedResponse(exchanges[0]!.response, 0);
    expect(turn.toolCalls).toMatchObject([
      { id: 'call_1', function: { name: 'apply_patch', arguments: JSON.stringify({ input: PATCH }) } },
    ]);
    expect(JSON.parse(String(turn.toolCalls[0]!.function!.arguments))).toEqual({ input: PATCH });
  });

  it('leaves function tools and calls alone', () => {
    const fn = { type: 'function', function: { name: 'f', parameters: { type: 'object' } } };
    const exchanges: Exchange[] = [
      {
        request: { method: 'POST', path: '/v1/chat/completions', body: { messages: [USER], tools: [fn] } },
        response: { status: 200, headers: {}, body: { choices: [] } },
      },
    ];
    expect(rewriteCustomTools(exchanges)).toEqual([]);
    expect(exchanges[0]!.request.body!.tools).toEqual([fn]);
  });
});
