import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { plantEvilRepository } from './evil-repo.test-helpers.ts';
import { GIT_GUARD_SETTINGS, gitGuardEnv, gitGuardPathEnv, gitShimFolder, hostGit } from './git-guard.ts';

const git = hostGit();
let ws: string;
beforeEach(() => {
  ws = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-git-guard-test-')));
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

const pwned = () =>
  ['fsmonitor', 'pager', 'extdiff', 'textconv', 'diffcommand', 'clean', 'smudge', 'gpg'].filter((m) =>
    existsSync(path.join(ws, `pwned-${m}`)),
  );

describe('the git guard', () => {
  it('the environment sets every guard setting in the command-line scope', () => {
    const env = gitGuardEnv();
    expect(env.GIT_CONFIG_COUNT).toBe(String(GIT_GUARD_SETTINGS.length));
    expect(env.GIT_CONFIG_KEY_0).toBe('core.fsmonitor');
    expect(env.GIT_PAGER).toBe('cat');
  });

  it('one shim per real git: the box’s git and the host’s git in one process each run their own', () => {
    const box = gitShimFolder('/run/hb-git/git');
    const host = gitShimFolder('/usr/bin/git');
    expect(host).not.toBe(box);
    expect(gitShimFolder('/run/hb-git/git')).toBe(box);
    expect(readFileSync(path.join(box, 'git'), 'utf8')).toContain("real='/run/hb-git/git'");
    expect(readFileSync(path.join(host, 'git'), 'utf8')).toContain("real='/usr/bin/git'");
  });

  it.runIf(git !== undefined)(
    'the shim first on PATH disables what a text-only .git configures (and without it, the repository’s programs run)',
    () => {
      plantEvilRepository(ws);
      const bare = { PATH: '/usr/bin:/bin', HOME: ws };
      for (const args of [['status'], ['diff']])
        spawnSync('git', args, { cwd: ws, env: bare, stdio: 'ignore' });
      expect(pwned().length).toBeGreaterThan(0);
      for (const m of pwned()) rmSync(path.join(ws, `pwned-${m}`));
      const guarded = gitGuardPathEnv(bare);
      for (const args of [
        ['status'],
        ['diff'],
        ['-C', '.', 'diff', '--stat'],
        ['add', 'a.txt'],
        ['diff', '--cached'],
      ])
        execFileSync('git', args, { cwd: ws, env: guarded, stdio: 'ignore' });
      // The shim re-adds the settings even when the guard variables are gone.
      const { GIT_CONFIG_COUNT: _count, ...withoutCount } = guarded;
      execFileSync('git', ['status'], { cwd: ws, env: withoutCount, stdio: 'ignore' });
      expect(pwned()).toEqual([]);
      const diff = execFileSync('git', ['diff', '--cached', '--stat'], {
        cwd: ws,
        env: guarded,
        encoding: 'utf8',
      });
      expect(diff).toContain('a.txt');
    },
  );
});
