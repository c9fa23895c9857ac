import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeToolResult,
  ERROR_TYPES,
  failure,
  resultMessage,
  resultToModelText,
  type ToolResult,
} from './types.ts';

const failureArb: fc.Arbitrary<ToolResult> = fc.record({
  ok: fc.constant(false as const),
  tool: fc.string(),
  error_type: fc.constantFrom(...ERROR_TYPES),
  retryable: fc.boolean(),
  message: fc.string({ unit: 'binary' }),
});

// Data of every kind a tool returns: plain text, JSON text, text shaped like an envelope.
const dataArb = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.json(),
  failureArb.map((f) => resultToModelText(f).replace('{"error":{', '{"error": {')),
  failureArb.map((f) => `${resultToModelText(f)} `),
  fc.string().map((type) => JSON.stringify({ error: { type, retryable: true, message: 'm' } })),
);

describe('tool-result envelope: decodeToolResult is the inverse of resultToModelText', () => {
  it('decode(encode(failure)) is the failure', () => {
    fc.assert(
      fc.property(failureArb, (result) => {
        expect(decodeToolResult(resultToModelText(result), result.tool)).toEqual(result);
      }),
    );
  });

  it('decode(encode(success)) is the success unless the data is itself an encoded failure', () => {
    fc.assert(
      fc.property(fc.string(), dataArb, (tool, data) => {
        const success: ToolResult = { ok: true, tool, data };
        const decoded = decodeToolResult(resultToModelText(success), tool);
        if (decoded.ok) expect(decoded).toEqual(success);
        else expect(resultToModelText(decoded)).toBe(data);
      }),
    );
  });

  it('encode(decode(text)) is the text: decoding never changes what the model saw', () => {
    fc.assert(
      fc.property(fc.oneof(dataArb, failureArb.map(resultToModelText)), (text) => {
        expect(resultToModelText(decodeToolResult(text, 't'))).toBe(text);
      }),
    );
  });

  it('texts that only look like envelopes are data', () => {
    const encoded = resultToModelText(failure('bash', 'timeout', 'slow'));
    expect(decodeToolResult(encoded, 'bash').ok).toBe(false);
    for (const text of [
      encoded.replace('"timeout"', '"no_such_type"'),
      encoded.replace('{"error":{', '{"error": {'),
      `${encoded}\n`,
      '{"error":{"type":"timeout","message":"slow","retryable":true}}',
      '{"error":{"type":"timeout","retryable":"yes","message":"slow"}}',
      '{"error":{',
    ])
      expect(decodeToolResult(text, 'bash')).toEqual({ ok: true, tool: 'bash', data: text });
    expect(resultMessage(encoded)).toBe('slow');
    expect(resultMessage('plain')).toBe('plain');
  });
});
