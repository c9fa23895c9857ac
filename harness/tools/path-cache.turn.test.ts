/**
 * The lifetime of `path-cache.ts`'s answers, on the cache alone (a fake component reader that
 * counts calls) and through the dispatcher in real runs (the real reader, counted): within a turn
 * each component is read once; every turn reads again, whatever ran before.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModelRequest, ModelResponse } from '../model/types.ts';
import type { PathEntry } from '../policy/paths.ts';
import { resolvePath } from '../policy/paths.ts';
import { InlineModel, runScript, tempWorkspace } from '../testing/scripted-runs.ts';
import { BUILTIN_TOOLS } from './builtin/index.ts';
import { TurnPathCache } from './path-cache.ts';

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

describe('TurnPathCache', () => {
  it('reads each component once, missing and unreadable ones too', () => {
    const fake = fakeTree({ '/w': DIR, '/w/a': FILE, '/w/x': { kind: 'error', message: 'EACCES' } });
    const cache = new TurnPathCache(fake.read);
    for (const file of ['/w', '/w/a', '/w/a', '/w/new', '/w/x', '/w/new', '/w/x']) cache.entry(file);
    expect(fake.reads).toEqual(['/w', '/w/a', '/w/new', '/w/x']);
    cache.clear();
    cache.entry('/w/a');
    expect(fake.reads.slice(4)).toEqual(['/w/a']);
  });

  it('remembers whole resolutions, frozen, until cleared', async () => {
    const fake = fakeTree({ '/': DIR, '/w': DIR, '/w/a': FILE });
    const cache = new TurnPathCache(fake.read);
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
    expect(cache.recall('/other', 'a')).toBeUndefined();
    cache.clear();
    expect(cache.recall('/w', 'a')).toBeUndefined();
  });

  it('caches and remembers nothing while held', async () => {
    const fake = fakeTree({ '/': DIR, '/w': DIR, '/w/a': FILE });
    const cache = new TurnPathCache(fake.read);
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
async function readsPerTurn(ws: string, turns: ModelResponse['toolCalls'][]) {
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
    tools: [BUILTIN_TOOLS.read_file!, BUILTIN_TOOLS.write_file!, BUILTIN_TOOLS.list_dir!],
    config: { permissions: { mode: 'auto' } },
  });
  // Only the components below the workspace: its ancestors follow the same rule.
  return { perTurn: perTurn.map((r) => r.filter((f) => !f.startsWith('..'))), result };
}

const call = (id: string, name: string, args: Record<string, unknown>) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: JSON.stringify(args) },
});

describe('the dispatcher keeps answers for one turn', () => {
  let space: ReturnType<typeof tempWorkspace>;
  beforeEach(() => {
    space = tempWorkspace();
    mkdirSync(path.join(space.ws, 'docs'));
    writeFileSync(path.join(space.ws, 'docs', 'a.txt'), 'a\n');
    writeFileSync(path.join(space.ws, 'docs', 'b.txt'), 'b\n');
  });
  afterEach(() => space.dispose());

  const read = (id: string, file: string) => call(id, 'read_file', { path: file });

  it('the calls of a turn share answers; the next turn reads every component again', async () => {
    const { perTurn } = await readsPerTurn(space.ws, [
      [read('r1', 'docs/a.txt'), read('r2', 'docs/a.txt'), read('r3', 'docs/b.txt')],
      [read('r4', 'docs/a.txt'), read('r5', '../outside/x')],
      [read('r6', 'docs/b.txt'), call('l1', 'list_dir', { path: 'docs' })],
    ]);
    expect(perTurn).toEqual([
      ['.', 'docs', 'docs/a.txt', 'docs/b.txt'],
      ['.', 'docs', 'docs/a.txt'],
      ['.', 'docs', 'docs/b.txt'],
    ]);
  });

  it('a write clears the answers of its turn: the next call reads again', async () => {
    const { perTurn } = await readsPerTurn(space.ws, [
      [
        read('r1', 'docs/a.txt'),
        call('w1', 'write_file', { path: 'docs/c.txt', content: 'c' }),
        read('r2', 'docs/a.txt'),
      ],
    ]);
    expect(perTurn).toEqual([['.', 'docs', 'docs/a.txt', 'docs/c.txt', '.', 'docs', 'docs/a.txt']]);
  });
});
