import { describe, expect, it } from 'vitest';
import { DEFAULT_SENSITIVE_PATHS, sensitiveMatch } from './sensitive-paths.ts';

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
