import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, mergeConfig, type HarnessConfig } from '../config.ts';
import type { EffectClass } from '../tools/types.ts';
import { resolvePath } from './paths.ts';
import { decide } from './policy.ts';

const action = fc.constantFrom('allow', 'ask', 'deny') as fc.Arbitrary<'allow' | 'ask' | 'deny'>;
const access = fc.constantFrom('read', 'write') as fc.Arbitrary<'read' | 'write'>;
const effect = fc.constantFrom('read', 'write', 'irreversible') as fc.Arbitrary<EffectClass>;
const pattern = fc.oneof(
  fc.constantFrom(
    '**',
    '*',
    '/**',
    '**/*',
    '../**',
    'outside/**',
    '/tmp/**',
    '**/victim.txt',
    '.*',
    '{a,b}/**',
  ),
  fc.string({ minLength: 1 }),
);

const configArb: fc.Arbitrary<HarnessConfig> = fc
  .record({
    mode: fc.constantFrom('interactive', 'headless', 'plan', 'auto') as fc.Arbitrary<
      'interactive' | 'headless' | 'plan' | 'auto'
    >,
    paths: fc.array(fc.record({ pattern, access, action }), { maxLength: 6 }),
    bash: fc.array(fc.record({ pattern, action }), { maxLength: 4 }),
    effects: fc.record({ read: action, write: action, irreversible: action }),
  })
  .map((permissions) => mergeConfig(DEFAULT_CONFIG, { permissions }));

const outsidePath = fc.record({
  requested: fc.string(),
  absolute: fc.constantFrom('/outside/victim.txt', '/etc/passwd', '/', '/tmp/x', '/ws-evil/a'),
  inside: fc.constant(false),
  access,
});
const insidePath = fc
  .record({ rel: fc.constantFrom('a.txt', 'src/b.ts', '.env', '.'), access })
  .map(({ rel, access: a }) => ({
    requested: rel,
    absolute: `/ws/${rel}`,
    inside: true,
    relative: rel,
    access: a,
  }));

describe('decide (property)', () => {
  it('never allows (or asks for) a call with a path outside the workspace, whatever the rules, effects and mode', () => {
    fc.assert(
      fc.property(
        configArb,
        fc.array(
          fc.oneof(
            insidePath,
            outsidePath.map((p) => ({ ...p, relative: p.absolute })),
          ),
          { minLength: 1, maxLength: 4 },
        ),
        effect,
        fc.array(fc.string(), { maxLength: 2 }),
        (config, paths, eff, commands) => {
          const decision = decide({ tool: 'tool', effect: eff, paths, commands }, config);
          if (paths.some((p) => !p.inside)) {
            expect(decision.action).toBe('deny');
            expect(decision.errorType).toBe('path_outside_workspace');
            expect(decision.rule).toBe('workspace:outside');
          } else expect(decision.errorType).not.toBe('path_outside_workspace');
        },
      ),
      { numRuns: 500 },
    );
  });

  it('the decision is the strictest of its parts and plan mode never allows a non-read call', () => {
    fc.assert(
      fc.property(
        configArb,
        fc.array(insidePath, { maxLength: 3 }),
        effect,
        fc.array(fc.string(), { maxLength: 2 }),
        (config, paths, eff, commands) => {
          const decision = decide({ tool: 'tool', effect: eff, paths, commands }, config);
          const rank = { allow: 0, ask: 1, deny: 2 };
          expect(rank[decision.action]).toBe(Math.max(...decision.parts.map((p) => rank[p.action])));
          if (config.permissions.mode === 'plan' && eff !== 'read') expect(decision.action).toBe('deny');
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('resolvePath + decide (property, real file system)', () => {
  let root: string;
  let ws: string;
  beforeAll(() => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-policy-prop-')));
    ws = path.join(root, 'ws');
    const out = path.join(root, 'outside');
    mkdirSync(path.join(ws, 'docs', 'deep'), { recursive: true });
    mkdirSync(out);
    writeFileSync(path.join(out, 'victim.txt'), 'v');
    writeFileSync(path.join(ws, 'a'), 'a');
    symlinkSync(out, path.join(ws, 'outbox'));
    symlinkSync(path.join(ws, 'docs'), path.join(ws, 'docs-link'));
    symlinkSync('../outbox', path.join(ws, 'docs', 'up'));
    symlinkSync('nope/../outbox', path.join(ws, 'sneaky'));
    symlinkSync(path.join(out, 'victim.txt'), path.join(ws, 'notes.md'));
    symlinkSync('loop-b', path.join(ws, 'loop-a'));
    symlinkSync('loop-a', path.join(ws, 'loop-b'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** Where the OS puts a file at `absolute`: the real path of its deepest existing ancestor, plus the rest. */
  function landing(absolute: string): string {
    let existing = absolute;
    const rest: string[] = [];
    while (!existsSync(existing) && !isLink(existing)) {
      rest.unshift(path.basename(existing));
      existing = path.dirname(existing);
    }
    try {
      return path.join(realpathSync(existing), ...rest);
    } catch {
      return '/dev/null/unresolvable';
    }
  }
  const isLink = (p: string) => {
    try {
      return lstatSync(p).isSymbolicLink();
    } catch {
      return false;
    }
  };

  const segment = fc.constantFrom(
    '..',
    '.',
    'a',
    'docs',
    'deep',
    'outbox',
    'docs-link',
    'up',
    'missing',
    'sneaky',
    'notes.md',
    'loop-a',
    'x.txt',
  );

  it('a path that is not denied as outside really lands inside the workspace', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        configArb,
        async (segments, absolute, config) => {
          const requested = `${absolute ? `${ws}/` : ''}${segments.join('/')}`;
          const resolved = await resolvePath(ws, requested);
          const decision = decide(
            { tool: 'write_file', effect: 'write', paths: [{ ...resolved, access: 'write' }] },
            config,
          );
          if (decision.errorType === 'path_outside_workspace') return;
          expect(resolved.inside).toBe(true);
          const real = landing(resolved.absolute);
          expect(
            real === ws || real.startsWith(`${ws}${path.sep}`),
            `${requested} → ${resolved.absolute} lands at ${real}`,
          ).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });
});
