import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SENSITIVE_PATHS,
  SENSITIVE_MEMO_SIZE,
  type SensitivePath,
  sensitiveMatch,
} from './sensitive-paths.ts';

/** The rule without combined matchers or memo: the first entry of the access whose glob matches. */
const reference = (relative: string, access: 'read' | 'write', list: readonly SensitivePath[]) =>
  list.find(
    (e) => (e.access === 'any' || e.access === access) && picomatch(e.pattern, { dot: true })(relative),
  );

describe('sensitiveMatch', () => {
  it.each([
    ['.git/hooks/pre-commit', 'write'],
    ['sub/.git/hooks/post-checkout', 'write'],
    ['.github/workflows/ci.yml', 'write'],
    ['.gitlab-ci.yml', 'write'],
    ['.npmrc', 'write'],
    ['.npmrc', 'read'],
    ['.env', 'read'],
    ['config/.env.production', 'read'],
    ['.ssh/id_ed25519', 'read'],
    ['keys/server.pem', 'read'],
    ['.aws/credentials', 'read'],
    ['.vscode/tasks.json', 'write'],
  ] as const)('%s (%s) is sensitive', (path, access) => {
    expect(sensitiveMatch(path, access, DEFAULT_SENSITIVE_PATHS)).toBeDefined();
  });

  it.each([
    ['README.md', 'write'],
    ['src/env.ts', 'read'],
    ['.github/workflows/ci.yml', 'read'],
    ['.git/hooks/pre-commit', 'read'],
    ['docs/environment.md', 'read'],
  ] as const)('%s (%s) is not', (path, access) => {
    expect(sensitiveMatch(path, access, DEFAULT_SENSITIVE_PATHS)).toBeUndefined();
  });
});

describe('sensitiveMatch memo', () => {
  const segment = fc.oneof(
    fc.constantFrom(
      '.git',
      'hooks',
      '.env',
      '.npmrc',
      '.ssh',
      'id_rsa',
      'a.pem',
      '.github',
      'workflows',
      'src',
    ),
    fc.string({ minLength: 1, maxLength: 6 }),
  );
  const relative = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
  const access = fc.constantFrom('read', 'write') as fc.Arbitrary<'read' | 'write'>;

  it('gives the uncached answer, asked once or again, for the default list and arbitrary lists', () => {
    const entry = fc.record({
      pattern: fc.oneof(
        fc.constantFrom('**/.env', '**/*.pem', 'src/**', '**/hooks/**'),
        fc.string({ minLength: 1 }),
      ),
      access: fc.constantFrom('read', 'write', 'any') as fc.Arbitrary<SensitivePath['access']>,
    });
    const lists = fc.oneof(fc.constant(DEFAULT_SENSITIVE_PATHS), fc.array(entry, { maxLength: 5 }));
    fc.assert(
      fc.property(
        lists,
        fc.array(fc.tuple(relative, access), { minLength: 1, maxLength: 20 }),
        (list, asks) => {
          for (const [path, a] of [...asks, ...asks])
            expect(sensitiveMatch(path, a, list)).toBe(reference(path, a, list));
        },
      ),
    );
  });

  it('stays right past its bound (oldest answers dropped)', () => {
    const list = [{ pattern: '**/*.pem', access: 'any' as const }];
    for (let i = 0; i < SENSITIVE_MEMO_SIZE + 10; i += 1) sensitiveMatch(`k${i}.pem`, 'read', list);
    expect(sensitiveMatch('k0.pem', 'read', list)).toBe(list[0]);
    expect(sensitiveMatch('k0.txt', 'read', list)).toBeUndefined();
    expect(sensitiveMatch('k0.pem', 'write', list)).toBe(list[0]);
  });
});
