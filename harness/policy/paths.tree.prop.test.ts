/**
 * For generated directory trees with links (relative and absolute, chained, dangling, looping,
 * pointing inside or outside), the path policy never allows a path whose real path is outside
 * the workspace. The ground truth is the kernel: the write is really performed (parents created
 * as `write_file` does) and the file's real path is checked.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, mergeConfig } from '../config.ts';
import { resolvePath } from './paths.ts';
import { decide } from './policy.ts';

const NAMES = ['a', 'b', 'c', 'link', 'up'];
type Entry = { kind: 'dir' | 'file'; at: string[] } | { kind: 'link'; at: string[]; target: string };

const inside = fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 });
const target = fc.oneof(
  fc.array(fc.constantFrom(...NAMES, '..', '.'), { minLength: 1, maxLength: 4 }).map((p) => p.join('/')),
  fc.array(fc.constantFrom(...NAMES), { maxLength: 2 }).map((p) => ['$OUT', ...p].join('/')),
  fc.array(fc.constantFrom(...NAMES), { maxLength: 2 }).map((p) => ['$WS', ...p].join('/')),
  fc.constant('$ROOT'),
);
const entry: fc.Arbitrary<Entry> = fc.oneof(
  inside.map((at): Entry => ({ kind: 'dir', at })),
  inside.map((at): Entry => ({ kind: 'file', at })),
  fc.tuple(inside, target).map(([at, t]): Entry => ({ kind: 'link', at, target: t })),
);
const request = fc.tuple(
  fc.array(fc.constantFrom(...NAMES, '..', '.', 'new'), { minLength: 1, maxLength: 5 }),
  fc.boolean(),
);

let base: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-tree-prop-')));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

let counter = 0;
function build(entries: Entry[]): { root: string; ws: string; out: string } {
  const root = path.join(base, String((counter += 1)));
  const ws = path.join(root, 'ws');
  const out = path.join(root, 'out');
  mkdirSync(ws, { recursive: true });
  mkdirSync(out);
  for (const e of entries) {
    const at = path.join(ws, ...e.at);
    try {
      mkdirSync(path.dirname(at), { recursive: true });
      if (e.kind === 'link')
        symlinkSync(e.target.replace('$OUT', out).replace('$WS', ws).replace('$ROOT', root), at);
      else if (e.kind === 'dir') mkdirSync(at, { recursive: true });
      else writeFileSync(at, 'x', { flag: 'wx' });
    } catch {
      // a later entry collides with an earlier one (or a link in the way): skip it, the tree stays valid
    }
  }
  return { root, ws, out };
}

/** Performs the write as write_file would; returns where the file really is, or undefined when the OS refused. */
function realWrite(absoluteRequested: string): string | undefined {
  try {
    mkdirSync(path.dirname(absoluteRequested), { recursive: true });
    writeFileSync(absoluteRequested, 'written');
    // The native realpath: Node's JS realpathSync applies `..` lexically before following links (`link/../a` → `a`), the kernel does not.
    return realpathSync.native(absoluteRequested);
  } catch {
    return undefined;
  }
}

const stats = { inside: 0, outside: 0, written: 0 };

describe('path policy over generated trees (property)', () => {
  it('a write the policy does not deny as outside lands inside the workspace', async () => {
    const config = mergeConfig(DEFAULT_CONFIG, {
      permissions: { mode: 'auto', paths: [{ pattern: '**', access: 'write', action: 'allow' }] },
    });
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { maxLength: 10 }), request, async (entries, [segments, absolute]) => {
        const { ws } = build(entries);
        const requested = `${absolute ? `${ws}/` : ''}${segments.join('/')}`;
        const resolved = await resolvePath(ws, requested);
        const decision = decide(
          { tool: 'write_file', effect: 'write', paths: [{ ...resolved, access: 'write' }] },
          config,
        );
        const outside = decision.errorType === 'path_outside_workspace';
        stats[outside ? 'outside' : 'inside'] += 1;
        // Only perform writes the policy places under this test's temp folder (`..` can climb above it).
        if (outside && !resolved.absolute.startsWith(`${base}${path.sep}`)) return;
        const landed = realWrite(path.isAbsolute(requested) ? requested : `${ws}/${requested}`);
        if (landed === undefined) return;
        stats.written += 1;
        const landedInside = landed === ws || landed.startsWith(`${ws}${path.sep}`);
        if (!outside)
          expect(
            landedInside,
            `${requested} → policy ${resolved.absolute}, kernel ${landed}; tree ${JSON.stringify(entries)}`,
          ).toBe(true);
        expect(landed, `${requested}; tree ${JSON.stringify(entries)}`).toBe(resolved.absolute);
      }),
      { numRuns: 300 },
    );
    // The generator reaches both sides (a property that only sees inside paths proves nothing).
    expect(stats.outside).toBeGreaterThan(20);
    expect(stats.inside).toBeGreaterThan(20);
    expect(stats.written).toBeGreaterThan(20);
  });
});
