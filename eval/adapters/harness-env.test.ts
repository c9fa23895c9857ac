import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { harnessEnv, isSecretName } from './harness-env.ts';
import { DEFAULT_CONFIG } from '../../harness/config.ts';
import type { Scenario } from '../scenario/types.ts';
import { caseLimits } from './applies.ts';
import { launchCommand } from './launch.ts';
import type { CommandAdapter } from './load.ts';

const scratch = mkdtempSync(path.join(tmpdir(), 'hb-env-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the environment of the harness under test', () => {
  it('drops secret-named variables and gives a scratch home and temp folder', () => {
    const env = harnessEnv(
      {
        PATH: '/usr/bin',
        GH_TOKEN: 'x',
        AWS_REGION: 'eu',
        MY_API_KEY: 'k',
        DB_PASSWORD: 'p',
        LANG: 'C',
        HOME: '/root',
      },
      scratch,
    );
    expect(env.PATH).toBe('/usr/bin');
    expect(env.LANG).toBe('C');
    for (const name of ['GH_TOKEN', 'AWS_REGION', 'MY_API_KEY', 'DB_PASSWORD'])
      expect(env[name]).toBeUndefined();
    expect(env.HOME).toBe(path.join(scratch, 'home'));
    expect(env.TMPDIR).toBe(path.join(scratch, 'tmp'));
    expect(env.GIT_CONFIG_GLOBAL).toBe(path.join(scratch, 'home', '.gitconfig'));
  });

  it('names secrets by pattern, not by a list of the ones seen', () => {
    for (const name of ['STRIPE_SECRET', 'SESSION_ID', 'NPM_CONFIG_USERCONFIG', 'X_AUTH', 'SIGNING_KEY'])
      expect(isSecretName(name), name).toBe(true);
    for (const name of ['PATH', 'LANG', 'TERM', 'NODE_OPTIONS', 'PYTHONPATH'])
      expect(isSecretName(name), name).toBe(false);
  });

  it('a command harness that runs env and git config --global shows no host secret and leaves the host home alone', async () => {
    const hasGit = spawnSync('git', ['--version']).status === 0;
    const script = [
      "const { execSync } = require('node:child_process');",
      hasGit ? "execSync('git config --global user.name hb-test');" : '',
      "process.stdout.write(JSON.stringify({ env: process.env, gitconfig: require('node:fs').existsSync(process.env.HOME + '/.gitconfig') }));",
    ].join('\n');
    const adapter = {
      name: 'env-probe',
      kind: 'command',
      argv: [process.execPath, '-e', script],
      task: 'stdin',
      env: {},
      timeoutMs: 20_000,
    } as unknown as CommandAdapter;
    process.env.HB_TEST_SECRET_TOKEN = 'do-not-leak';
    const before = spawnSync('git', ['config', '--global', '--get', 'user.name'], {
      encoding: 'utf8',
    }).stdout;
    try {
      const out = await launchCommand(adapter, {
        task: 't',
        baseURL: 'http://127.0.0.1:9/v1',
        apiKey: 'sk-bench',
        model: 'm',
        workspace: scratch,
        tools: [],
        maxTurns: 1,
        limits: caseLimits({} as Scenario, DEFAULT_CONFIG, 1),
      });
      const seen = JSON.parse(out.stdout ?? '{}') as { env: Record<string, string>; gitconfig: boolean };
      expect(seen.env.HB_TEST_SECRET_TOKEN).toBeUndefined();
      expect(seen.env.OPENAI_API_KEY).toBe('sk-bench');
      expect(seen.env.HOME).not.toBe(homedir());
      if (hasGit) expect(seen.gitconfig).toBe(true);
    } finally {
      delete process.env.HB_TEST_SECRET_TOKEN;
    }
    const after = spawnSync('git', ['config', '--global', '--get', 'user.name'], { encoding: 'utf8' }).stdout;
    expect(after).toBe(before);
  });
});
