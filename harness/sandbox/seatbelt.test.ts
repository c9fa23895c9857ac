import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_LIMITS } from './limits.ts';
import { sandboxExecArguments, SeatbeltSandbox, seatbeltProfile, SEATBELT_PARAMS } from './seatbelt.ts';
import { SandboxUnavailableError } from './types.ts';

const ws = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-seatbelt-')));
afterAll(() => rmSync(ws, { recursive: true, force: true }));

/** Rules of the profile, comments and blank lines dropped. */
const rules = () =>
  seatbeltProfile()
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trim().startsWith(';'));

describe('seatbeltProfile', () => {
  it('starts from deny default and version 1', () => {
    expect(rules().slice(0, 2)).toEqual(['(version 1)', '(deny default)']);
  });

  it('allows writes only to the workspace and the private temp folder, by parameter', () => {
    const writes = rules().filter((r) => r.includes('file-write'));
    expect(writes).toEqual([
      '(allow file-write* (subpath (param "WORKSPACE")) (subpath (param "PRIVATE_TMP")))',
      '(allow file-write-data file-ioctl (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/dtracehelper"))',
    ]);
  });

  it('hides the real home after the broad read allow and re-allows the workspace after that (last match wins)', () => {
    const r = rules();
    const readAll = r.indexOf('(allow file-read*)');
    const denyHome = r.indexOf('(deny file-read* (subpath (param "HOME")))');
    const reallow = r.indexOf(
      '(allow file-read* (subpath (param "WORKSPACE")) (subpath (param "PRIVATE_TMP")))',
    );
    expect(readAll).toBeGreaterThan(-1);
    expect(denyHome).toBeGreaterThan(readAll);
    expect(reallow).toBeGreaterThan(denyHome);
  });

  it('grants no network at all and ends by denying it', () => {
    expect(rules().filter((r) => r.includes('network'))).toEqual(['(deny network*)']);
    expect(rules().at(-1)).toBe('(deny network*)');
  });

  it('signals and inspects only its own processes', () => {
    expect(rules()).toContain('(allow signal (target same-sandbox))');
    expect(rules().filter((r) => r.startsWith('(allow signal'))).toHaveLength(1);
  });

  it('contains no path: every path is a parameter, and every parameter it reads is defined', () => {
    const text = rules().join('\n');
    expect(text).not.toMatch(/\/(Users|private|var|tmp|home)\b/);
    const used = [...text.matchAll(/\(param "([A-Z_]+)"\)/g)].map((m) => m[1]);
    expect(new Set(used)).toEqual(new Set(SEATBELT_PARAMS));
  });

  it('balances its parentheses', () => {
    let depth = 0;
    for (const char of rules()
      .join('\n')
      .replace(/"[^"]*"/g, '')) {
      if (char === '(') depth += 1;
      if (char === ')') depth -= 1;
      expect(depth).toBeGreaterThanOrEqual(0);
    }
    expect(depth).toBe(0);
  });
});

describe('sandboxExecArguments', () => {
  it('passes paths as -D parameters and the command as $1, never spliced into the profile or the script', () => {
    const nasty = '/Users/a") (allow default) ("';
    const command = 'echo "$(whoami)"; rm -rf ~';
    const args = sandboxExecArguments(
      { WORKSPACE: nasty, PRIVATE_TMP: '/var/folders/x/T/hb', HOME: '/Users/a' },
      DEFAULT_SANDBOX_LIMITS,
      command,
    );
    expect(args[0]).toBe('-p');
    expect(args[1]).toBe(seatbeltProfile());
    expect(args.slice(2, 8)).toEqual([
      '-D',
      `WORKSPACE=${nasty}`,
      '-D',
      'PRIVATE_TMP=/var/folders/x/T/hb',
      '-D',
      'HOME=/Users/a',
    ]);
    expect(args.slice(8, 10)).toEqual(['/bin/bash', '-c']);
    expect(args[10]).toBe(
      `ulimit -t 600 -f ${DEFAULT_SANDBOX_LIMITS.fileSizeBytes / 512} || exit 125; exec /bin/bash -c "$1"`,
    );
    expect(args.slice(11)).toEqual(['hb-sandbox', command]);
  });
});

describe('SeatbeltSandbox off macOS', () => {
  it('exec rejects with SandboxUnavailableError saying why, and runs nothing', async () => {
    const sandbox = new SeatbeltSandbox(ws, { platform: 'linux' });
    const error = await sandbox.exec('touch ran.txt', { cwd: ws, timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxUnavailableError);
    expect((error as Error).message).toContain('only on macOS');
    expect(await sandbox.exists(path.join(ws, 'ran.txt'))).toBe(false);
  });

  it('a missing sandbox-exec on macOS is unavailable too', async () => {
    const sandbox = new SeatbeltSandbox(ws, { platform: 'darwin', binary: path.join(ws, 'no-sandbox-exec') });
    const error = await sandbox.exec('true', { cwd: ws, timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxUnavailableError);
    expect((error as SandboxUnavailableError).hint).toContain('sandbox.kind');
  });
});
