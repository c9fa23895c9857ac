/**
 * The per-turn path cache answers exactly as the file system does (same resolutions for trees of
 * links of every kind), and a tree changed by a call of the turn is seen by the next call's check.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runScript, tempWorkspace, toolResult } from '../testing/scripted-runs.ts';
import { resolvePath } from '../policy/paths.ts';
import { BUILTIN_TOOLS } from './builtin/index.ts';
import { TurnPathCache } from './path-cache.ts';
import type { ToolDefinition } from './types.ts';

const NAMES = ['a', 'b', 'link', 'up'];
const part = fc.constantFrom(...NAMES, '..', '.', 'new');

let base: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-path-cache-')));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

let counter = 0;
describe('TurnPathCache', () => {
  it('resolves every path exactly as the uncached lookups do (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 2 }),
            fc.oneof(
              fc.constant<string | null>(null),
              fc.array(part, { minLength: 1, maxLength: 3 }).map((p) => p.join('/')),
              fc.constant('$OUT'),
            ),
          ),
          { maxLength: 6 },
        ),
        fc.array(fc.array(part, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
        async (entries, requests) => {
          const root = path.join(base, String((counter += 1)));
          const ws = path.join(root, 'ws');
          mkdirSync(ws, { recursive: true });
          mkdirSync(path.join(root, 'out'));
          for (const [at, target] of entries) {
            const where = path.join(ws, ...at);
            try {
              mkdirSync(path.dirname(where), { recursive: true });
              if (target === null) mkdirSync(where);
              else symlinkSync(target === '$OUT' ? path.join(root, 'out') : target, where);
            } catch {
              // collides with an earlier entry: skip
            }
          }
          const cache = new TurnPathCache();
          for (const parts of requests) {
            const requested = parts.join('/');
            // Twice through the cache: the second answer comes from memory.
            const plain = await resolvePath(ws, requested);
            expect(await resolvePath(ws, requested, cache)).toEqual(plain);
            expect(await resolvePath(ws, requested, cache)).toEqual(plain);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('TurnPathCache.hold', () => {
  it('caches nothing while a call that may change the tree is in flight, and forgets what it read then', () => {
    const root = path.join(base, `held-${(counter += 1)}`);
    mkdirSync(path.join(root, 'docs'), { recursive: true });
    const docs = path.join(root, 'docs');
    const cache = new TurnPathCache();
    expect(cache.entry(docs).kind).toBe('other');
    cache.hold();
    rmSync(docs, { recursive: true });
    symlinkSync(base, docs);
    expect(cache.entry(docs).kind).toBe('link');
    rmSync(docs);
    mkdirSync(docs);
    expect(cache.entry(docs).kind).toBe('other');
    cache.release();
    // What was read while the call ran is not reused after it.
    rmSync(docs, { recursive: true });
    symlinkSync(base, docs);
    expect(cache.entry(docs).kind).toBe('link');
  });
});

describe('the dispatcher and the cache', () => {
  let space: ReturnType<typeof tempWorkspace>;
  beforeEach(() => {
    space = tempWorkspace();
    mkdirSync(path.join(space.ws, 'docs'));
    writeFileSync(path.join(space.ws, 'docs', 'secret.txt'), 'inside\n');
    writeFileSync(path.join(space.outside, 'secret.txt'), 'OUTSIDE\n');
  });
  afterEach(() => space.dispose());

  it('a folder a call of the turn replaced by a link is seen by the next call (no stale answer)', async () => {
    // A write tool that replaces docs/ by a link to the outside folder (as `rm -r docs && ln -s …` would).
    const swap: ToolDefinition = {
      name: 'swap',
      description: 'replace docs by a link',
      parameters: { type: 'object' },
      effect: 'write',
      async execute() {
        rmSync(path.join(space.ws, 'docs'), { recursive: true });
        symlinkSync(space.outside, path.join(space.ws, 'docs'));
        return { ok: true, content: 'swapped' };
      },
    };
    const read = (id: string) => ({
      id,
      name: 'read_file',
      arguments: JSON.stringify({ path: 'docs/secret.txt' }),
    });
    const result = await runScript(
      space.ws,
      [
        {
          tool_calls: [read('r1'), { id: 'b1', name: 'swap', arguments: '{}' }, read('r2')],
        },
        { content: 'done' },
      ],
      { tools: [BUILTIN_TOOLS.read_file!, swap], config: { permissions: { mode: 'auto' } } },
    );
    expect(toolResult(result, 'r1').content).toContain('inside');
    expect(toolResult(result, 'b1').error, toolResult(result, 'b1').content).toBeUndefined();
    const second = toolResult(result, 'r2');
    expect(second.content).not.toContain('OUTSIDE');
    expect(second.error?.type).toBe('path_outside_workspace');
  });
});
