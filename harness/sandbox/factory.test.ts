import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BwrapSandbox } from './bwrap.ts';
import { autoKind, createSandbox } from './factory.ts';
import { LocalSandbox } from './local.ts';
import { SeatbeltSandbox } from './seatbelt.ts';
import { SandboxUnavailableError } from './types.ts';

const ws = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-factory-')));
afterAll(() => rmSync(ws, { recursive: true, force: true }));

const unavailable = async (sandbox: ReturnType<typeof createSandbox>) => {
  const error = await sandbox.exec('touch ran.txt', { cwd: ws, timeoutMs: 5000 }).catch((e: unknown) => e);
  expect(await sandbox.exists(path.join(ws, 'ran.txt'))).toBe(false);
  return error as SandboxUnavailableError;
};

describe('createSandbox', () => {
  it('auto is bwrap on Linux, seatbelt on macOS, nothing elsewhere', () => {
    expect(autoKind('linux')).toBe('bwrap');
    expect(autoKind('darwin')).toBe('seatbelt');
    expect(autoKind('win32')).toBeUndefined();
    expect(createSandbox('auto', ws, { platform: 'linux' })).toBeInstanceOf(BwrapSandbox);
    expect(createSandbox('auto', ws, { platform: 'darwin' })).toBeInstanceOf(SeatbeltSandbox);
  });

  it('auto with bwrap missing: files work, exec is sandbox_unavailable with an install hint, nothing runs unboxed', async () => {
    const sandbox = createSandbox('auto', ws, {
      platform: 'linux',
      bwrapBinary: path.join(ws, 'missing-bwrap'),
    });
    await sandbox.writeFile(path.join(ws, 'a.txt'), 'hi');
    expect(await sandbox.readFile(path.join(ws, 'a.txt'))).toBe('hi');
    const error = await unavailable(sandbox);
    expect(error).toBeInstanceOf(SandboxUnavailableError);
    expect(error.hint).toContain('apt-get install -y bubblewrap');
  });

  it('an unknown platform is unavailable, never unboxed', async () => {
    const error = await unavailable(createSandbox('auto', ws, { platform: 'win32' }));
    expect(error).toBeInstanceOf(SandboxUnavailableError);
    expect(error.message).toContain('win32');
  });

  it('bwrap asked for on macOS is unavailable with a hint', async () => {
    const error = await unavailable(createSandbox('bwrap', ws, { platform: 'darwin' }));
    expect(error).toBeInstanceOf(SandboxUnavailableError);
    expect(error.message).toContain('only on Linux');
  });

  it('none runs commands unboxed, only because it was asked for', async () => {
    const sandbox = createSandbox('none', ws);
    expect(sandbox).toBeInstanceOf(LocalSandbox);
    expect((await sandbox.exec('echo ran', { cwd: ws, timeoutMs: 10_000 })).stdout).toBe('ran\n');
  });
});
