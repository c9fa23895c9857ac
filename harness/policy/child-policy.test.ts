import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, mergeConfig } from '../config.ts';
import { childScope, policyChain, rootScope, stricterMode } from './child-policy.ts';
import { decideCall, decideCommand, prepareCall } from './command-policy.ts';
import type { ToolDefinition } from '../tools/types.ts';

const parentConfig = mergeConfig(DEFAULT_CONFIG, {
  permissions: {
    mode: 'interactive',
    bash: [
      { pattern: '*', action: 'ask' },
      { pattern: 'npm test*', action: 'allow' },
      { pattern: 'git push*', action: 'deny' },
    ],
  },
});
const parent = rootScope(parentConfig, ['read_file', 'write_file', 'bash', 'task', 'write_todos']);
const bashTool: ToolDefinition = {
  name: 'bash',
  description: '',
  parameters: { type: 'object' },
  effect: 'write',
  command: (a) => String(a.command),
  execute: async () => ({ ok: true, content: '' }),
};
const decideIn = async (scope: ReturnType<typeof rootScope>, command: string) =>
  decideCall(await prepareCall(bashTool, { command }, { workspace: '/ws' }, true), policyChain(scope));

describe('childScope: a subagent never exceeds its parent', () => {
  it('by default the child gets no writes, no task and no todos', () => {
    expect(childScope(parent).tools).toEqual(['read_file', 'bash']);
  });

  it('tools are intersected: asking for more than the parent has gives nothing extra', () => {
    expect(childScope(parent, { tools: ['bash', 'web_fetch', 'write_file'] }).tools).toEqual([
      'bash',
      'write_file',
    ]);
  });

  it('mode, effects and budgets only get stricter', () => {
    const child = childScope(parent, {
      mode: 'auto',
      effects: { read: 'deny', write: 'allow' },
      maxTurns: 500,
    });
    expect(child.config.permissions.mode).toBe('interactive');
    expect(child.config.permissions.effects).toEqual({ read: 'deny', write: 'ask', irreversible: 'ask' });
    expect(child.config.limits.maxTurns).toBe(parentConfig.subagent.maxTurns);
    expect(stricterMode('auto', 'plan')).toBe('plan');
  });

  it("the parent's deny holds even when the child's own rules allow the command", async () => {
    const child = childScope(parent, { bash: [{ pattern: 'git push*', action: 'allow' }] });
    expect((await decideCommand('git push origin main', child.config)).action).not.toBe('deny');
    expect(await decideIn(child, 'git push origin main')).toMatchObject({
      action: 'deny',
      rule: 'bash:git push*',
    });
  });

  it('the child can narrow: a deny of its own wins over the parent allow', async () => {
    const child = childScope(parent, { bash: [{ pattern: 'npm test*', action: 'deny' }] });
    expect((await decideIn(parent, 'npm test')).action).toBe('allow');
    expect((await decideIn(child, 'npm test')).action).toBe('deny');
  });

  it('grandchildren carry the whole chain', () => {
    const grandchild = childScope(childScope(parent), { tools: ['read_file'] });
    expect(policyChain(grandchild)).toHaveLength(3);
    expect(grandchild.tools).toEqual(['read_file']);
  });
});
