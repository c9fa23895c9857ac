import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  bwrapArguments,
  BwrapSandbox,
  DROP_CAPABILITIES,
  isGlobalRoot,
  planBox,
  type BwrapInput,
} from './bwrap.ts';
import { syntheticEtc } from './bwrap-args.ts';
import { DEFAULT_SANDBOX_LIMITS, hasPerNamespacePidMax, prlimitArguments } from './limits.ts';
import { SandboxUnavailableError } from './types.ts';

const ws = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-bwrap-unit-')));
afterAll(() => rmSync(ws, { recursive: true, force: true }));

const input = (over: Partial<BwrapInput> = {}): BwrapInput => ({
  workspace: '/tmp/hb-ws-1',
  cwd: '/tmp/hb-ws-1',
  hidden: ['/root', '/run'],
  limits: DEFAULT_SANDBOX_LIMITS,
  bound: 'rlimit',
  command: 'echo "$HOME"; rm -rf / # not spliced',
  ...over,
});

describe('bwrapArguments', () => {
  it('unshares user, pid, net, ipc and uts, dies with its parent, starts a new session and drops capabilities', () => {
    const args = bwrapArguments(input());
    for (const flag of [
      '--unshare-user',
      '--unshare-pid',
      '--unshare-net',
      '--unshare-ipc',
      '--unshare-uts',
      '--die-with-parent',
      '--new-session',
    ])
      expect(args).toContain(flag);
    expect(args.slice(args.indexOf('--cap-drop'), args.indexOf('--cap-drop') + 2)).toEqual([
      '--cap-drop',
      'ALL',
    ]);
    expect(args).not.toContain('--share-net');
  });

  it('builds the root from the system folders and a minimal /etc, then /dev, /proc, the tmpfs mounts, the git guard, and binds the workspace last', () => {
    const args = bwrapArguments(
      input({
        system: [
          { kind: 'bind', path: '/usr' },
          { kind: 'symlink', path: '/bin', target: 'usr/bin' },
        ],
        etc: ['/etc/ld.so.cache'],
        etcFiles: { passwd: '/tmp/box/passwd' },
        git: { real: '/usr/bin/git', shim: '/tmp/guard/git', replace: ['/usr/bin/git'] },
        sizes: true,
      }),
    );
    const mounts: string[] = [];
    for (let i = 0; i < args.indexOf('--'); i += 1)
      if (
        ['--ro-bind', '--symlink', '--dir', '--dev', '--proc', '--tmpfs', '--bind', '--remount-ro'].includes(
          args[i]!,
        )
      )
        mounts.push(
          `${args[i]} ${args[i + 1]}${args[i] === '--ro-bind' || args[i] === '--symlink' ? ` ${args[i + 2]}` : ''}`,
        );
    expect(mounts).toEqual([
      '--ro-bind /usr /usr',
      '--symlink usr/bin /bin',
      '--dir /etc',
      '--ro-bind /etc/ld.so.cache /etc/ld.so.cache',
      '--ro-bind /tmp/box/passwd /etc/passwd',
      '--dev /dev',
      '--proc /proc',
      '--tmpfs /tmp',
      '--dir /var',
      '--symlink ../tmp /var/tmp',
      '--tmpfs /root',
      '--tmpfs /run',
      '--ro-bind /usr/bin/git /run/hb-git/git',
      '--ro-bind /tmp/guard/git /usr/bin/git',
      '--bind /tmp/hb-ws-1',
      '--remount-ro /',
    ]);
    // The host's root is never bound: `/` appears only as the box's own root made read-only.
    expect(args.filter((a) => a === '/')).toEqual(['/']);
    expect(args[args.indexOf('/') - 1]).toBe('--remount-ro');
    expect(args.slice(args.indexOf('--bind'), args.indexOf('--bind') + 3)).toEqual([
      '--bind',
      '/tmp/hb-ws-1',
      '/tmp/hb-ws-1',
    ]);
    expect(args.slice(args.indexOf('--chdir'), args.indexOf('--chdir') + 2)).toEqual([
      '--chdir',
      '/tmp/hb-ws-1',
    ]);
  });

  it('caps the tmpfs mounts with --size when bwrap has it: /tmp and the home by the limits', () => {
    const args = bwrapArguments(input({ sizes: true }));
    const tmp = args.indexOf('/tmp');
    expect(args.slice(tmp - 3, tmp)).toEqual(['--size', String(DEFAULT_SANDBOX_LIMITS.tmpBytes), '--tmpfs']);
    const root = args.indexOf('/root');
    expect(args.slice(root - 3, root)).toEqual([
      '--size',
      String(DEFAULT_SANDBOX_LIMITS.homeBytes),
      '--tmpfs',
    ]);
    expect(bwrapArguments(input({ sizes: false }))).not.toContain('--size');
  });

  it('the synthetic /etc names no host user: root, the box user, nobody; localhost only', () => {
    const etc = syntheticEtc({ uid: 1000, gid: 1000, home: '/home/dev' });
    expect(
      etc.passwd
        .trim()
        .split('\n')
        .map((l) => l.split(':')[0]),
    ).toEqual(['root', 'user', 'nobody']);
    expect(etc.passwd).toContain(':1000:1000:sandbox user:/home/dev:');
    expect(etc.hosts).toContain('127.0.0.1\tlocalhost');
    expect(etc.passwd).not.toContain(process.env.USER ?? 'no-such-user-name');
  });

  it('never hides /, /tmp twice or the workspace itself', () => {
    const args = bwrapArguments(input({ hidden: ['/', '/tmp', '/tmp/hb-ws-1', '/root'] }));
    expect(args.filter((a) => a === '--tmpfs')).toHaveLength(2);
  });

  it('passes the command as one argument to bash after prlimit, never spliced into a script', () => {
    const args = bwrapArguments(input());
    const tail = args.slice(args.indexOf('--') + 1);
    expect(tail).toEqual([
      'prlimit',
      ...prlimitArguments(DEFAULT_SANDBOX_LIMITS),
      '--',
      'bash',
      '-c',
      input().command,
    ]);
  });

  it('under the real root: sets pid_max of the PID namespace, then prlimit, then setpriv drops every capability before bash', () => {
    const args = bwrapArguments(
      input({ bound: 'pid-namespace', limits: { ...DEFAULT_SANDBOX_LIMITS, processes: 100 } }),
    );
    expect(args).not.toContain('--cap-drop');
    const tail = args.slice(args.indexOf('--') + 1);
    expect(tail[0]).toBe('/bin/sh');
    expect(tail[2]).toMatch(/^echo 301 > \/proc\/sys\/kernel\/pid_max \|\| \{.*exit 125; \}; exec "\$@"$/);
    const setpriv = tail.indexOf('setpriv');
    expect(tail.slice(4, setpriv)).toEqual([
      'prlimit',
      ...prlimitArguments({ ...DEFAULT_SANDBOX_LIMITS, processes: 100 }),
      '--',
    ]);
    expect(tail.slice(setpriv + 1, setpriv + 1 + DROP_CAPABILITIES.length)).toEqual(DROP_CAPABILITIES);
    expect(tail.slice(-3)).toEqual(['bash', '-c', input().command]);
  });
});

describe('limits', () => {
  it('prlimit sets CPU seconds, address space and file size in bytes, processes, and no core files', () => {
    expect(
      prlimitArguments({ cpuSeconds: 1.5, addressSpaceBytes: 1024, fileSizeBytes: 2048, processes: 64 }),
    ).toEqual(['--cpu=2', '--as=1024', '--fsize=2048', '--nproc=64', '--core=0']);
  });

  it('knows which kernels keep pid_max per PID namespace (6.14+)', () => {
    expect(hasPerNamespacePidMax('6.18.44-fc-v657')).toBe(true);
    expect(hasPerNamespacePidMax('6.14.0')).toBe(true);
    expect(hasPerNamespacePidMax('6.8.0-45-generic')).toBe(false);
    expect(hasPerNamespacePidMax('5.15.0')).toBe(false);
    expect(hasPerNamespacePidMax('7.0.1')).toBe(true);
    expect(hasPerNamespacePidMax('weird')).toBe(false);
  });
});

describe('planBox', () => {
  it('tells the real root from root of a user namespace', () => {
    expect(isGlobalRoot(0, '         0          0 4294967295\n')).toBe(true);
    expect(isGlobalRoot(0, '         0     100000      65536\n')).toBe(false);
    expect(isGlobalRoot(1000, '         0          0 4294967295\n')).toBe(false);
  });

  it('bounds processes with RLIMIT_NPROC for users, with the PID namespace for root on 6.14+, and refuses root on older kernels', () => {
    expect(planBox({ uid: 1000, globalRoot: false, kernelRelease: '5.10.0', home: '/home/u' })).toEqual({
      ok: true,
      bound: 'rlimit',
    });
    expect(planBox({ uid: 0, globalRoot: true, kernelRelease: '6.18.1', home: '/root' })).toEqual({
      ok: true,
      bound: 'pid-namespace',
    });
    const refused = planBox({ uid: 0, globalRoot: true, kernelRelease: '6.8.0', home: '/root' });
    expect(refused).toMatchObject({ ok: false });
    expect(refused.ok ? '' : refused.reason).toContain('RLIMIT_NPROC');
  });
});

describe('BwrapSandbox without a usable bwrap', () => {
  it('a missing binary: exec rejects with SandboxUnavailableError and an install hint, and runs nothing', async () => {
    const sandbox = new BwrapSandbox(ws, { binary: path.join(ws, 'no-such-bwrap') });
    const error = await sandbox.exec('touch ran.txt', { cwd: ws, timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxUnavailableError);
    expect((error as SandboxUnavailableError).message).toContain('not installed');
    expect((error as SandboxUnavailableError).hint).toContain('apt-get install -y bubblewrap');
    expect(await sandbox.exists(path.join(ws, 'ran.txt'))).toBe(false);
  });

  it('a bwrap that fails (a stand-in binary that exits 1 with a namespace error): the probe reports its message and the user-namespace hint', async () => {
    const fake = path.join(ws, 'fake-bwrap');
    const { writeFileSync, chmodSync } = await import('node:fs');
    writeFileSync(
      fake,
      '#!/bin/sh\necho "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces" >&2\nexit 1\n',
    );
    chmodSync(fake, 0o755);
    const sandbox = new BwrapSandbox(ws, { binary: fake, host: { uid: 1000, globalRoot: false } });
    const probe = await sandbox.probe();
    expect(probe).toMatchObject({ ok: false });
    if (probe.ok) return;
    expect(probe.message).toContain('No permissions to creating new namespace');
    expect(probe.hint).toContain('user namespaces');
    const error = await sandbox.exec('true', { cwd: ws, timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxUnavailableError);
  });

  it('refuses to run as the real root on a kernel without per-namespace pid_max', async () => {
    const sandbox = new BwrapSandbox(ws, {
      host: { uid: 0, globalRoot: true, kernelRelease: '6.8.0-45-generic' },
    });
    const error = await sandbox.exec('true', { cwd: ws, timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxUnavailableError);
    expect((error as Error).message).toContain('RLIMIT_NPROC');
  });

  it('probes once and caches the answer', async () => {
    const sandbox = new BwrapSandbox(ws, { binary: path.join(ws, 'no-such-bwrap') });
    expect(sandbox.probe()).toBe(sandbox.probe());
  });
});
