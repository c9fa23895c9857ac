/**
 * The rule of `path-cache.ts`, on the cache alone (a fake component reader that counts calls)
 * and through the dispatcher in real runs (the real reader, counted): answers are kept from one
 * turn to the next exactly while the run is quiet, only for existing components, only for the
 * checks of the file tools, only while the workspace is the same folder, and never in a
 * subagent or on a sandbox that is not a host sandbox.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModelRequest, ModelResponse } from '../model/types.ts';
import type { PathEntry } from '../policy/paths.ts';
import { resolvePath } from '../policy/paths.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { InlineModel, runScript, tempWorkspace, testConfig, toolResult } from '../testing/scripted-runs.ts';
import { BUILTIN_TOOLS } from './builtin/index.ts';
import { TurnPathCache } from './path-cache.ts';
import type { ToolDefinition } from './types.ts';

const counted = vi.hoisted(() => ({ reads: [] as string[] }));
vi.mock('../policy/paths.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../policy/paths.ts')>();
  return {
    ...real,
    entrySync: (file: string) => {
      counted.reads.push(file);
      return real.entrySync(file);
    },
  };
});

/** A fake tree: path → entry; reads counted. */
function fakeTree(tree: Record<string, PathEntry>) {
  const reads: string[] = [];
  const read = (file: string): PathEntry => {
    reads.push(file);
    return tree[file] ?? { kind: 'missing' };
  };
  return { reads, read };
}

const DIR: PathEntry = { kind: 'other', links: 2, file: false };
const FILE: PathEntry = { kind: 'other', links: 1, file: true };

describe('TurnPathCache, the rule', () => {
  const tree = { '/w': DIR, '/w/a': FILE, '/w/d': DIR };
  it('keeps existing components across quiet turns and reads each once', () => {
    const fake = fakeTree(tree);
    const cache = new TurnPathCache(fake.read, () => '1:1');
    cache.startTurn('/w', true);
    cache.entry('/w');
    cache.entry('/w/a');
    cache.entry('/w/a');
    cache.startTurn('/w', true);
    cache.entry('/w');
    cache.entry('/w/a');
    expect(fake.reads).toEqual(['/w', '/w/a']);
  });

  it('drops missing and unreadable components at every turn', () => {
    const fake = fakeTree({ ...tree, '/w/x': { kind: 'error', message: 'EACCES' } });
    const cache = new TurnPathCache(fake.read, () => '1:1');
    cache.startTurn('/w', true);
    cache.entry('/w/new');
    cache.entry('/w/x');
    cache.entry('/w/new');
    cache.startTurn('/w', true);
    cache.entry('/w/new');
    cache.entry('/w/x');
    expect(fake.reads).toEqual(['/w/new', '/w/x', '/w/new', '/w/x']);
  });

  it('keeps nothing across turns when the run may not carry, or after endCarry, for the rest of the run', () => {
    for (const stop of ['no-carry', 'end'] as const) {
      const fake = fakeTree(tree);
      const cache = new TurnPathCache(fake.read, () => '1:1');
      const carry = stop !== 'no-carry';
      cache.startTurn('/w', carry);
      cache.entry('/w/a');
      if (stop === 'end') cache.endCarry();
      cache.entry('/w/a'); // within the turn: still kept
      cache.startTurn('/w', carry);
      cache.entry('/w/a');
      cache.startTurn('/w', carry);
      cache.entry('/w/a');
      expect(fake.reads, stop).toEqual(['/w/a', '/w/a', '/w/a']);
    }
  });

  it('drops everything when the workspace is another folder than the turn before', () => {
    const fake = fakeTree(tree);
    let identity = '1:1';
    const cache = new TurnPathCache(fake.read, () => identity);
    cache.startTurn('/w', true);
    cache.entry('/w/a');
    identity = '1:2';
    cache.startTurn('/w', true);
    cache.entry('/w/a');
    cache.startTurn('/w', true);
    cache.entry('/w/a');
    expect(fake.reads).toEqual(['/w/a', '/w/a']);
  });

  it('freshen drops answers of an earlier turn only', () => {
    const fake = fakeTree(tree);
    const cache = new TurnPathCache(fake.read, () => '1:1');
    cache.startTurn('/w', true);
    cache.entry('/w/a');
    cache.freshen(); // nothing carried yet: this turn's answers stay
    cache.entry('/w/a');
    cache.startTurn('/w', true);
    cache.freshen();
    cache.entry('/w/a');
    cache.freshen(); // read in this turn after the drop: stays
    cache.entry('/w/a');
    expect(fake.reads).toEqual(['/w/a', '/w/a']);
  });

  it('remembers whole resolutions with the lifetime of their answers, frozen', async () => {
    const fake = fakeTree({ '/': DIR, '/w': DIR, '/w/a': FILE });
    const cache = new TurnPathCache(fake.read, () => '1:1');
    cache.startTurn('/w', true);
    const first = await resolvePath('/w', 'a', cache);
    const missing = await resolvePath('/w', 'nope/x', cache);
    const reads = fake.reads.length;
    expect(await resolvePath('/w', 'a', cache)).toBe(first);
    expect(await resolvePath('/w', 'nope/x', cache)).toBe(missing);
    expect(fake.reads.length).toBe(reads);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => {
      (first as { inside: boolean }).inside = false;
    }).toThrow(TypeError);
    cache.startTurn('/w', true);
    expect(await resolvePath('/w', 'a', cache)).toBe(first);
    expect(fake.reads.length).toBe(reads);
    // The resolution that read a missing component is made again (its missing answer too).
    expect(await resolvePath('/w', 'nope/x', cache)).toEqual(missing);
    expect(fake.reads.slice(reads)).toEqual(['/w/nope']);
    cache.clear();
    expect(cache.recall('/w', 'a')).toBeUndefined();
    expect(cache.recall('/other', 'a')).toBeUndefined();
  });

  it('caches and remembers nothing while held', async () => {
    const fake = fakeTree({ '/': DIR, '/w': DIR, '/w/a': FILE });
    const cache = new TurnPathCache(fake.read, () => '1:1');
    cache.startTurn('/w', true);
    await resolvePath('/w', 'a', cache);
    cache.hold();
    expect(cache.recall('/w', 'a')).toBeUndefined();
    await resolvePath('/w', 'a', cache);
    await resolvePath('/w', 'a', cache);
    cache.release();
    expect(cache.recall('/w', 'a')).toBeUndefined();
    expect(fake.reads).toEqual(['/w', '/w/a', '/w', '/w/a', '/w', '/w/a']);
  });
});

/** Counted component reads of each turn's dispatch, in a real run over a scripted model. */
async function readsPerTurn(
  ws: string,
  turns: ModelResponse['toolCalls'][],
  options: { tools?: ToolDefinition[]; sandbox?: Sandbox; subagent?: boolean } = {},
) {
  const perTurn: string[][] = [];
  counted.reads.length = 0;
  const model = new InlineModel((_request: ModelRequest, index: number) => {
    if (index > 0) perTurn.push(counted.reads.splice(0).map((f) => path.relative(ws, f) || '.'));
    const calls = turns[index];
    return calls
      ? {
          content: '',
          toolCalls: calls,
          finishReason: 'tool_calls',
          usage: { prompt_tokens: 1, completion_tokens: 1 },
        }
      : {
          content: 'done',
          toolCalls: [],
          finishReason: 'stop',
          usage: { prompt_tokens: 1, completion_tokens: 1 },
        };
  });
  const result = await runScript(ws, model, {
    tools: options.tools ?? [BUILTIN_TOOLS.read_file!, BUILTIN_TOOLS.write_file!, BUILTIN_TOOLS.list_dir!],
    config: { permissions: { mode: 'auto' } },
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    ...(options.subagent ? { ancestors: [testConfig({ permissions: { mode: 'auto' } })] } : {}),
  });
  // Only the components below the workspace: its ancestors follow the same rule.
  return { perTurn: perTurn.map((r) => r.filter((f) => !f.startsWith('..'))), result };
}

const call = (id: string, name: string, args: Record<string, unknown>) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: JSON.stringify(args) },
});

describe('the dispatcher keeps answers across turns exactly by the rule', () => {
  let space: ReturnType<typeof tempWorkspace>;
  beforeEach(() => {
    space = tempWorkspace();
    mkdirSync(path.join(space.ws, 'docs'));
    writeFileSync(path.join(space.ws, 'docs', 'a.txt'), 'a\n');
    writeFileSync(path.join(space.ws, 'docs', 'b.txt'), 'b\n');
  });
  afterEach(() => space.dispose());

  const read = (id: string, file: string) => call(id, 'read_file', { path: file });

  it('a quiet run reads each component once in the whole run, a denied call keeps it quiet', async () => {
    const { perTurn } = await readsPerTurn(space.ws, [
      [read('r1', 'docs/a.txt')],
      [read('r2', 'docs/a.txt'), read('r3', 'docs/b.txt'), read('r4', '../outside/x')],
      [read('r5', 'docs/a.txt'), read('r6', 'docs/b.txt'), call('l1', 'list_dir', { path: 'docs' })],
    ]);
    expect(perTurn).toEqual([['.', 'docs', 'docs/a.txt'], ['docs/b.txt'], []]);
  });

  it('a missing file is looked at again every turn', async () => {
    const { perTurn } = await readsPerTurn(space.ws, [
      [read('r1', 'docs/new.txt')],
      [read('r2', 'docs/new.txt')],
    ]);
    expect(perTurn).toEqual([['.', 'docs', 'docs/new.txt'], ['docs/new.txt']]);
  });

  it('after a write every turn starts empty, for the rest of the run', async () => {
    const { perTurn } = await readsPerTurn(space.ws, [
      [read('r1', 'docs/a.txt')],
      [call('w1', 'write_file', { path: 'docs/c.txt', content: 'c' })],
      [read('r2', 'docs/a.txt')],
      [read('r3', 'docs/a.txt')],
    ]);
    expect(perTurn).toEqual([
      ['.', 'docs', 'docs/a.txt'],
      ['docs/c.txt'],
      ['.', 'docs', 'docs/a.txt'],
      ['.', 'docs', 'docs/a.txt'],
    ]);
  });

  it('a command or a tool of unknown behaviour is checked on fresh answers and ends the carry', async () => {
    const probe: ToolDefinition = {
      name: 'probe',
      description: 'a read tool of unknown behaviour',
      parameters: { type: 'object' },
      effect: 'read',
      paths: () => [{ path: 'docs/a.txt', access: 'read' }],
      execute: async () => ({ ok: true, content: 'ok' }),
    };
    const lister: ToolDefinition = {
      name: 'lister',
      description: 'a command tool',
      parameters: { type: 'object' },
      effect: 'write',
      command: () => 'cat docs/a.txt',
      execute: async () => ({ ok: true, content: 'ok' }),
    };
    for (const tool of [probe, lister]) {
      const { perTurn, result } = await readsPerTurn(
        space.ws,
        [
          [read('r1', 'docs/a.txt')],
          [call('p1', tool.name, {})],
          [read('r2', 'docs/a.txt')],
          [read('r3', 'docs/a.txt')],
        ],
        { tools: [BUILTIN_TOOLS.read_file!, tool] },
      );
      expect(toolResult(result, 'p1').error, tool.name).toBeUndefined();
      expect(perTurn, tool.name).toEqual([
        ['.', 'docs', 'docs/a.txt'],
        ['.', 'docs', 'docs/a.txt'],
        ['.', 'docs', 'docs/a.txt'],
        ['.', 'docs', 'docs/a.txt'],
      ]);
    }
  });

  it('a sandbox that is not a host sandbox, or a subagent, never carries', async () => {
    const { LocalSandbox } = await import('../sandbox/local.ts');
    const host = new LocalSandbox({ allowExec: false });
    const other: Sandbox = {
      kind: 'other',
      readFile: (f, o) => host.readFile(f, o),
      writeFile: (f, c, o) => host.writeFile(f, c, o),
      list: (f, o) => host.list(f, o),
      realpath: (f) => host.realpath(f),
      exists: (f) => host.exists(f),
      exec: (c, o) => host.exec(c, o),
    };
    for (const options of [{ sandbox: other }, { subagent: true }]) {
      const { perTurn } = await readsPerTurn(
        space.ws,
        [[read('r1', 'docs/a.txt')], [read('r2', 'docs/a.txt')]],
        options,
      );
      expect(perTurn).toEqual([
        ['.', 'docs', 'docs/a.txt'],
        ['.', 'docs', 'docs/a.txt'],
      ]);
    }
  });
});
