import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV_ALLOWLIST, LocalSandbox, scrubEnvironment } from './local.ts';
import { SandboxUnavailableError } from './types.ts';

let ws: string;
beforeAll(() => {
  ws = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-sandbox-')));
});
afterAll(() => rmSync(ws, { recursive: true, force: true }));

describe('LocalSandbox.exec', () => {
  it('refuses to run commands without allowExec, with an install hint', async () => {
    const sandbox = new LocalSandbox({ allowExec: false });
    const error = await sandbox.exec('touch ran.txt', { cwd: ws, timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxUnavailableError);
    expect((error as SandboxUnavailableError).hint).toMatch(/bubblewrap|sandbox\.kind/);
    expect(await sandbox.exists(path.join(ws, 'ran.txt'))).toBe(false);
  });

  it('with allowExec runs in cwd and returns exit code, stdout and stderr', async () => {
    const sandbox = new LocalSandbox({ allowExec: true });
    const result = await sandbox.exec('pwd; echo err >&2; exit 3', { cwd: ws, timeoutMs: 10_000 });
    expect(result).toEqual({ exitCode: 3, stdout: `${ws}\n`, stderr: 'err\n', timedOut: false });
  });

  it('kills a command that outlives its timeout and says so', async () => {
    const sandbox = new LocalSandbox({ allowExec: true });
    const started = performance.now();
    const result = await sandbox.exec('sleep 5; echo late', { cwd: ws, timeoutMs: 200 });
    expect(result.timedOut).toBe(true);
    expect(result.stdout).toBe('');
    expect(result.exitCode).not.toBe(0);
    expect(performance.now() - started).toBeLessThan(4000);
  });

  it('kills the command when the signal aborts', async () => {
    const sandbox = new LocalSandbox({ allowExec: true });
    const controller = new AbortController();
    const pending = sandbox.exec('sleep 5; echo late', {
      cwd: ws,
      timeoutMs: 10_000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    const result = await pending;
    expect(result.stdout).toBe('');
    expect(result.timedOut).toBe(false);
  });

  it('passes only allowlisted environment variables by default', async () => {
    process.env.HB_TEST_SECRET = 'sk-should-not-leak';
    try {
      const sandbox = new LocalSandbox({ allowExec: true });
      const result = await sandbox.exec('echo "[$HB_TEST_SECRET]"', { cwd: ws, timeoutMs: 10_000 });
      expect(result.stdout).toBe('[]\n');
    } finally {
      delete process.env.HB_TEST_SECRET;
    }
  });
});

describe('scrubEnvironment', () => {
  it('keeps only allowlisted keys', () => {
    expect(scrubEnvironment({ PATH: '/bin', OPENAI_API_KEY: 'sk', HOME: '/h' })).toEqual({
      PATH: '/bin',
      HOME: '/h',
    });
    expect(ENV_ALLOWLIST).not.toContain('OPENAI_API_KEY');
  });
});

describe('LocalSandbox files', () => {
  it('writes (creating folders), reads, lists, resolves and checks existence', async () => {
    const sandbox = new LocalSandbox({ allowExec: false });
    await sandbox.writeFile(path.join(ws, 'f', 'g', 'h.txt'), 'hi');
    expect(await sandbox.readFile(path.join(ws, 'f', 'g', 'h.txt'))).toBe('hi');
    symlinkSync(path.join(ws, 'f'), path.join(ws, 'link'));
    expect(await sandbox.list(ws)).toEqual([
      { name: 'f', kind: 'dir' },
      { name: 'link', kind: 'symlink' },
    ]);
    expect(await sandbox.list(path.join(ws, 'f', 'g'))).toEqual([{ name: 'h.txt', kind: 'file', size: 2 }]);
    expect(await sandbox.realpath(path.join(ws, 'link', 'g'))).toBe(path.join(ws, 'f', 'g'));
    expect(await sandbox.exists(path.join(ws, 'nope'))).toBe(false);
    await expect(sandbox.readFile(path.join(ws, 'nope'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
