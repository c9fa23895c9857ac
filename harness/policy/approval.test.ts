import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, mergeConfig } from '../config.ts';
import { approvalRequest, grantCovers, isScopedShape, suggestShape } from './approval.ts';
import { decideCommand } from './command-policy.ts';
import { decide } from './policy.ts';

const cfg = mergeConfig(DEFAULT_CONFIG, {
  permissions: {
    bash: [
      { pattern: '*', action: 'ask' },
      { pattern: 'rm *', action: 'deny' },
    ],
  },
});

describe('grants are scoped to the shape shown', () => {
  it('covers a call only when every asking part fits the shape', async () => {
    expect(grantCovers('bash:npm test*', 'bash', await decideCommand('npm test -- --watch', cfg))).toBe(true);
    expect(grantCovers('bash:npm test*', 'bash', await decideCommand('npm test && ./deploy.sh', cfg))).toBe(
      false,
    );
    expect(grantCovers('bash:npm test*', 'bash', await decideCommand('npm test > out.txt', cfg))).toBe(false);
    expect(grantCovers('bash:npm test*', 'bash', await decideCommand('timeout 60 npm test', cfg))).toBe(
      false,
    );
    expect(grantCovers('bash:npm test*', 'other', await decideCommand('npm test', cfg))).toBe(false);
  });

  it('never covers a deny, an analysis finding, or an ask that requires a human', async () => {
    expect(grantCovers('bash:*', 'bash', await decideCommand('rm -rf x', cfg))).toBe(false);
    expect(grantCovers('bash:*', 'bash', await decideCommand('$x', cfg))).toBe(false);
    expect(
      grantCovers(
        'bash:git fetch*',
        'bash',
        await decideCommand('git fetch', cfg, { taintedBy: ['web_fetch'] }),
      ),
    ).toBe(false);
  });

  it('a path grant is a glob over the workspace-relative path', () => {
    const d = decide(
      {
        tool: 'write_file',
        effect: 'write',
        paths: [
          {
            requested: 'src/a.ts',
            absolute: '/ws/src/a.ts',
            inside: true,
            relative: 'src/a.ts',
            access: 'write',
          },
        ],
      },
      cfg,
    );
    expect(grantCovers('write_file:src/**', 'write_file', d)).toBe(true);
    expect(grantCovers('write_file:lib/**', 'write_file', d)).toBe(false);
  });

  it('wildcards alone are not a scoped shape', () => {
    expect(['*', '**', '?', ' * ', '/**'].map(isScopedShape)).toEqual([false, false, false, false, false]);
    expect(['npm test*', 'src/**', 'ls'].map(isScopedShape)).toEqual([true, true, true]);
  });
});

describe('suggestShape', () => {
  it('offers the program and subcommand, or the folder, when every asking part shares it', async () => {
    expect(suggestShape(await decideCommand('npm test -- -u', cfg))).toBe('npm test*');
    expect(suggestShape(await decideCommand('make', cfg))).toBe('make*');
    expect(suggestShape(await decideCommand('npm test && make', cfg))).toBeUndefined();
    expect(suggestShape(await decideCommand('$x', cfg))).toBeUndefined();
    const write = (relative: string) =>
      decide(
        {
          tool: 'write_file',
          effect: 'write',
          paths: [
            { requested: relative, absolute: `/ws/${relative}`, inside: true, relative, access: 'write' },
          ],
        },
        cfg,
      );
    expect(suggestShape(write('src/deep/a.ts'))).toBe('src/deep/**');
    expect(suggestShape(write('README.md'))).toBe('README.md');
  });
});

describe('approvalRequest', () => {
  it('shows every unwrapped command and path, invisible and control characters escaped, nothing cut', async () => {
    const command = `timeout 5 sh -c "rm\u200b -rf x\u202e" > out.txt; echo ${'a'.repeat(3000)}`;
    const decision = await decideCommand(command, cfg, { workspace: '/ws' });
    const request = approvalRequest({
      callId: 'c1',
      tool: 'bash',
      effect: 'write',
      args: { command },
      paths: [{ absolute: '/ws/out\u0007.txt', access: 'write' }],
      command,
      decision,
    });
    expect(request.command).toBe(command.replace('\u200b', '\\u{200b}').replace('\u202e', '\\u{202e}'));
    expect(request.commands).toEqual([
      "timeout 5 sh -c 'rm\\u{200b} -rf x\\u{202e}'",
      "sh -c 'rm\\u{200b} -rf x\\u{202e}'",
      'rm\\u{200b} -rf x\\u{202e}',
      `echo ${'a'.repeat(3000)}`,
    ]);
    expect(request.paths).toEqual([{ path: '/ws/out\\u{7}.txt', access: 'write' }]);
    expect(request.argumentsText).toContain('\\\\u{200b}'.slice(1));
    expect(JSON.stringify(request)).not.toMatch(/[\u200b\u202e\u0007]/);
  });
});
