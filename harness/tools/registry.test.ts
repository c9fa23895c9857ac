import { Ajv } from 'ajv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FILE_TOOLS } from './builtin/files.ts';
import { describeValidationErrors, ToolRegistry, ToolRegistryError, typeName } from './registry.ts';
import type { ToolDefinition } from './types.ts';

const searchTool: ToolDefinition = {
  name: 'search',
  description: 'Search the docs.',
  parameters: {
    type: 'object',
    additionalProperties: false,
    required: ['query'],
    properties: {
      query: { type: 'string' },
      tags: { type: 'array', items: { type: 'string' } },
      mode: { enum: ['fast', 'deep'] },
    },
  },
  effect: 'read',
  execute: async () => ({ ok: true, content: '' }),
};
const clockTool: ToolDefinition = {
  name: 'get_time',
  description: 'Now.',
  parameters: { type: 'object', properties: {} },
  effect: 'read',
  execute: async () => ({ ok: true, content: 'now' }),
};

afterEach(() => vi.restoreAllMocks());

describe('ToolRegistry', () => {
  it('compiles each schema once, at registration, never per validation, filter or second registry', () => {
    const compile = vi.spyOn(Ajv.prototype, 'compile');
    const fresh = [
      { ...searchTool, parameters: structuredClone(searchTool.parameters) },
      { ...clockTool, parameters: structuredClone(clockTool.parameters) },
      { ...FILE_TOOLS.read_file!, parameters: structuredClone(FILE_TOOLS.read_file!.parameters) },
    ];
    const registry = new ToolRegistry(fresh);
    expect(compile).toHaveBeenCalledTimes(3);
    const search = registry.get('search')!;
    for (let i = 0; i < 5; i += 1) expect(registry.get('search')!.validate({ query: `q${i}` })).toBe(true);
    expect(registry.get('search')!.validate).toBe(search.validate);
    const subset = registry.filter((d) => d.name !== 'get_time');
    expect(subset.names()).toEqual(['search', 'read_file']);
    expect(subset.get('search')!.validate).toBe(search.validate);
    const again = new ToolRegistry(fresh);
    expect(again.get('search')!.validate).toBe(search.validate);
    expect(compile).toHaveBeenCalledTimes(3);
  });

  it('rejects two tools with the same name with ToolRegistryError', () => {
    expect(() => new ToolRegistry([searchTool, { ...clockTool, name: 'search' }])).toThrow(ToolRegistryError);
    expect(() => new ToolRegistry([searchTool, searchTool])).toThrow('two tools are named "search"');
  });

  it('rejects a schema ajv cannot compile with ToolRegistryError naming the tool', () => {
    const broken = {
      ...clockTool,
      name: 'broken',
      parameters: { type: 'object', properties: { a: { type: 'no-such-type' } } },
    };
    expect(() => new ToolRegistry([broken])).toThrow(/the schema of tool "broken" does not compile/);
  });

  it('knows which tools have no required parameters', () => {
    const registry = new ToolRegistry([searchTool, clockTool]);
    expect(registry.get('search')!.noRequired).toBe(false);
    expect(registry.get('get_time')!.noRequired).toBe(true);
  });

  it('looks names up exactly, keeps registration order and declares schemas as function tools', () => {
    const registry = new ToolRegistry([searchTool, clockTool]);
    expect(registry.get('Search')).toBeUndefined();
    expect(registry.get('functions.search')).toBeUndefined();
    expect(registry.get('__proto__')).toBeUndefined();
    expect(registry.names()).toEqual(['search', 'get_time']);
    expect(registry.schemas()[0]).toEqual({
      type: 'function',
      function: { name: 'search', description: 'Search the docs.', parameters: searchTool.parameters },
    });
  });
});

describe('ToolRegistry.suggest', () => {
  const registry = new ToolRegistry([...Object.values(FILE_TOOLS), searchTool]);

  it.each([
    ['serach', 'search'],
    ['search_', 'search'],
    ['read_fiel', 'read_file'],
    ['functions.read_file', 'read_file'],
    ['tools.str_replace', 'str_replace'],
    ['READ_FILE', 'read_file'],
    ['Read-File', 'read_file'],
    ['readFile', 'read_file'],
  ])('%s → did you mean %s', (wrong, right) => {
    expect(registry.suggest(wrong)).toBe(right);
  });

  it.each(['multi_tool_use.parallel', 'xyz', '', 'delete_everything'])('%j has no suggestion', (wrong) => {
    expect(registry.suggest(wrong)).toBeUndefined();
  });

  it('prefers the closest of several candidates', () => {
    const near = new ToolRegistry([
      { ...clockTool, name: 'abcdx' },
      { ...clockTool, name: 'abcde' },
    ]);
    expect(near.suggest('abcdf')).toBe('abcdx');
    expect(near.suggest('abcdee')).toBe('abcde');
  });
});

describe('describeValidationErrors', () => {
  const registry = new ToolRegistry([searchTool, ...Object.values(FILE_TOOLS)]);
  const explain = (tool: string, args: unknown) => {
    const { validate } = registry.get(tool)!;
    expect(validate(args)).toBe(false);
    return describeValidationErrors(validate.errors);
  };

  it('names the field, the expected type and the type received', () => {
    expect(explain('search', { query: 42 })).toBe('query: expected string, got number');
    expect(explain('search', { query: null })).toBe('query: expected string, got null');
    expect(explain('search', { query: ['a'] })).toBe('query: expected string, got array');
  });

  it('names a missing required property', () => {
    expect(explain('read_file', {})).toBe("required property 'path' is missing");
    expect(explain('write_file', { path: 'a' })).toBe("required property 'content' is missing");
  });

  it('names unknown properties, enum values and nested fields with dots', () => {
    expect(explain('search', { query: 'x', extra: 1 })).toBe("unknown property 'extra'");
    expect(explain('search', { query: 'x', mode: 'slow' })).toBe('mode: must be one of ["fast","deep"]');
    expect(explain('search', { query: 'x', tags: ['ok', 3] })).toBe('tags.1: expected string, got number');
  });

  it('reports every error once, joined with "; "', () => {
    expect(explain('write_file', { path: 1 })).toBe(
      "required property 'content' is missing; path: expected string, got number",
    );
    expect(describeValidationErrors(null)).toBe('');
    expect(describeValidationErrors(undefined)).toBe('');
  });

  it('falls back to ajv messages for other keywords', () => {
    expect(explain('read_file', { path: 'a', offset: 0 })).toBe('offset: must be >= 1');
  });
});

describe('typeName', () => {
  it.each([
    [null, 'null'],
    [[], 'array'],
    [1, 'number'],
    ['s', 'string'],
    [{}, 'object'],
    [false, 'boolean'],
    [undefined, 'undefined'],
  ])('%j is %s', (value, name) => {
    expect(typeName(value)).toBe(name);
  });
});
