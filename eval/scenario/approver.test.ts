import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../harness/policy/types.ts';
import { pathSubject, scriptedApprover } from './approver.ts';

const ws = '/tmp/ws';
const decision = { action: 'ask' as const, rule: 'default', reason: 'ask', parts: [] };

function bash(command: string, parts: string[] = []): ApprovalRequest {
  return {
    callId: 'c',
    tool: 'bash',
    effect: 'write',
    argumentsText: JSON.stringify({ command }),
    paths: [],
    command,
    decision: {
      ...decision,
      parts: parts.map((subject) => ({
        subject,
        kind: 'command' as const,
        action: 'ask' as const,
        rule: 'x',
      })),
    },
  };
}

function write(path: string, tool = 'write_file'): ApprovalRequest {
  return {
    callId: 'c',
    tool,
    effect: 'write',
    argumentsText: '{}',
    paths: [{ path, access: 'write' }],
    decision,
  };
}

describe('scriptedApprover', () => {
  it('denies everything when the approver block is absent', async () => {
    expect(await scriptedApprover(undefined, ws)(write('/tmp/ws/a.txt'))).toBe('deny');
  });

  it('uses the default when no rule matches', async () => {
    expect(await scriptedApprover({ default: 'approve' }, ws)(bash('ls'))).toBe('approve');
  });

  it('matches bash commands with command patterns; the last matching rule wins', async () => {
    const approve = scriptedApprover(
      {
        default: 'deny',
        rules: [
          { tool: 'bash', match: 'mkdir *', answer: 'approve' },
          { tool: 'bash', match: 'mkdir /*', answer: 'deny' },
        ],
      },
      ws,
    );
    expect(await approve(bash('mkdir build'))).toBe('approve');
    expect(await approve(bash('mkdir /etc/x'))).toBe('deny');
    expect(await approve(bash('rm -rf build'))).toBe('deny');
  });

  it('approves a compound command only when every simple command matches', async () => {
    const approve = scriptedApprover({ rules: [{ tool: 'bash', match: 'mkdir *', answer: 'approve' }] }, ws);
    expect(await approve(bash('mkdir a && mkdir b', ['mkdir a', 'mkdir b']))).toBe('approve');
    expect(await approve(bash('mkdir a; rm -rf x', ['mkdir a', 'rm -rf x']))).toBe('deny');
    // Without parts from the policy the whole command is matched.
    expect(await approve(bash('mkdir a; rm -rf x'))).toBe('approve');
  });

  it('matches file tools with a dot-aware glob over the path relative to the workspace', async () => {
    const approve = scriptedApprover(
      {
        rules: [
          { tool: 'write_file', match: 'src/**', answer: 'approve' },
          { tool: 'write_file', match: 'src/**/*.lock', answer: 'deny' },
          { tool: '*', match: '/etc/**', answer: 'approve' },
        ],
      },
      ws,
    );
    expect(await approve(write('/tmp/ws/src/.hidden/a.ts'))).toBe('approve');
    expect(await approve(write('/tmp/ws/src/deps/x.lock'))).toBe('deny');
    expect(await approve(write('/tmp/ws/README.md'))).toBe('deny');
    expect(await approve(write('/etc/passwd', 'str_replace'))).toBe('approve');
  });

  it('only applies rules of the same tool (or *), and a rule without match covers every call of the tool', async () => {
    const approve = scriptedApprover({ rules: [{ tool: 'str_replace', answer: 'approve' }] }, ws);
    expect(await approve(write('/tmp/ws/a', 'str_replace'))).toBe('approve');
    expect(await approve(write('/tmp/ws/a', 'write_file'))).toBe('deny');
  });
});

describe('pathSubject', () => {
  it('is relative inside the workspace and absolute outside', () => {
    expect(pathSubject('/tmp/ws/a/b.txt', ws)).toBe('a/b.txt');
    expect(pathSubject('/tmp/ws', ws)).toBe('.');
    expect(pathSubject('/tmp/wsx/a', ws)).toBe('/tmp/wsx/a');
  });
});

describe('approve-shape', () => {
  const offered = { ...bash('npm test -- -u', ['npm test -- -u']), shape: 'npm test*' };

  it('grants the shape the harness offered, or the rule’s own', async () => {
    const approver = scriptedApprover(
      { rules: [{ tool: 'bash', match: 'npm test*', answer: 'approve-shape' }] },
      ws,
    );
    expect(await approver(offered)).toEqual({ approveShape: 'npm test*' });
    const narrow = scriptedApprover(
      { rules: [{ tool: 'bash', answer: 'approve-shape', shape: 'npm test -- -u' }] },
      ws,
    );
    expect(await narrow(offered)).toEqual({ approveShape: 'npm test -- -u' });
  });

  it('is a plain approval when no shape is offered, and works as the default', async () => {
    const approver = scriptedApprover({ default: 'approve-shape' }, ws);
    expect(await approver(bash('npm test'))).toBe('approve');
    expect(await approver(offered)).toEqual({ approveShape: 'npm test*' });
  });
});
