import { describe, expect, it } from 'vitest';
import { detectTextToolCall } from './notes.ts';

describe('detectTextToolCall', () => {
  it.each([
    ['{"name": "read_file", "arguments": {"path": "package.json"}}', 'read_file'],
    ['<tool_call>{"name":"read_file","arguments":{"path":"package.json"}}</tool_call>', 'read_file'],
    ['Let me look.\n```json\n{"name": "list_dir", "parameters": {"path": "."}}\n```', 'list_dir'],
    ['{"function": {"name": "write_file"}}', 'write_file'],
  ])('finds the tool name in %j', (content, name) => {
    expect(detectTextToolCall(content)).toBe(name);
  });

  it.each([
    null,
    '',
    'The version is 1.2.3.',
    '{"name": "x"}',
    '{"arguments": {}}',
    '{ not json }',
    'use {braces} freely',
  ])('finds nothing in %j', (content) => {
    expect(detectTextToolCall(content)).toBeUndefined();
  });
});
