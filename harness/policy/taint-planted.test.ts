/**
 * What `auto` mode (configs/permissive.json) may not approve: a write to a sensitive path after
 * untrusted content (code planted to run later, the injection suite's I3: a git hook written on a
 * README's instruction), and git run by its path (`git:unguarded`, the repository's configured
 * programs would run). Both go to a human; without untrusted content a sensitive write stays an
 * ask that auto mode approves.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type HarnessConfig, mergeConfig } from '../config.ts';
import { grantCovers } from './approval.ts';
import { decideCommand } from './command-policy.ts';
import { decide, type PolicyInput } from './policy.ts';

const write = (relative: string, taintedBy?: string[]): PolicyInput => ({
  tool: 'write_file',
  effect: 'write',
  paths: [{ requested: relative, absolute: `/ws/${relative}`, inside: true, relative, access: 'write' }],
  ...(taintedBy ? { taintedBy } : {}),
});
const auto: HarnessConfig = mergeConfig(DEFAULT_CONFIG, {
  permissions: { mode: 'auto', effects: { write: 'allow' } },
});

describe('a write to a sensitive path after untrusted content', () => {
  it('needs a human: a taint part names the path, and neither auto mode nor a grant covers it', () => {
    const d = decide(write('.git/hooks/pre-commit', ['read_file:README.md']), auto);
    expect(d.action).toBe('ask');
    expect(d.requiresHuman).toBe(true);
    const taint = d.parts.find((p) => p.rule === 'taint:untrusted-content');
    expect(taint?.reason).toContain('code-planting (a write to the sensitive path ".git/hooks/pre-commit")');
    expect(grantCovers('write_file:.git/**', 'write_file', d)).toBe(false);
  });

  it('is denied when taint.onTainted is deny', () => {
    const strict = mergeConfig(auto, { taint: { onTainted: 'deny' } });
    expect(decide(write('.github/workflows/ci.yml', ['web_fetch']), strict).action).toBe('deny');
  });

  it('without untrusted content stays an ask auto mode may approve; an ordinary write gets no taint part', () => {
    const clean = decide(write('.git/hooks/pre-commit'), auto);
    expect(clean.action).toBe('ask');
    expect(clean.requiresHuman).toBeUndefined();
    const ordinary = decide(write('src/a.ts', ['web_fetch']), auto);
    expect(ordinary.action).toBe('allow');
    expect(ordinary.parts.some((p) => p.rule === 'taint:untrusted-content')).toBe(false);
  });
});

describe('git run by its path', () => {
  it('asks a human in every mode (git:unguarded is human-only)', async () => {
    for (const config of [DEFAULT_CONFIG, mergeConfig(auto, { sandbox: { kind: 'none' } })]) {
      const d = await decideCommand('/usr/bin/git diff', config);
      expect(d.action).toBe('ask');
      expect(d.rule).toBe('git:unguarded');
      expect(d.requiresHuman).toBe(true);
    }
  });
});
