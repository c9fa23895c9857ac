/**
 * The bubblewrap command line: a small box built from nothing. Only what commands need comes from
 * the host, read-only: `/usr` and the `/bin`, `/sbin`, `/lib*` links or folders into it, and a
 * minimal `/etc` (the dynamic loader's cache, `alternatives`, time zone and locale data, TLS
 * certificates, a few tool configurations) with a synthetic `passwd`, `group` and `hosts` that
 * name no host user. Everything else — home folders, `/root`, `/etc/shadow`, `/var`, `/srv`,
 * `/opt`, `/mnt`, other users' files, sockets under `/run` — is simply not there. A private
 * `/tmp` and an empty home are tmpfs with a size cap (`--size`, bubblewrap 0.5+), the workspace is
 * bound read-write last. git is replaced by the guard shim (`git-guard.ts`).
 */
import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import { MIN_PID_MAX, prlimitArguments, type SandboxLimits } from './limits.ts';

/**
 * How the process count is bounded: `rlimit` (`RLIMIT_NPROC`, any non-root user) or
 * `pid-namespace` (`pid_max` of the sandbox's PID namespace, for the real root on Linux 6.14+,
 * set by a root-only setup step before the capabilities are dropped with `setpriv`).
 */
export type ProcessBound = 'rlimit' | 'pid-namespace';

/** `setpriv` options that drop every capability for good (bounding set, inheritable, ambient, securebits locked). */
export const DROP_CAPABILITIES = [
  '--inh-caps=-all',
  '--ambient-caps=-all',
  '--bounding-set=-all',
  '--securebits=+noroot,+noroot_locked,+no_setuid_fixup,+no_setuid_fixup_locked,+keep_caps_locked',
  '--no-new-privs',
];

/** Top-level host folders a command may need, read-only (each a folder or a link into `/usr`). */
export const SYSTEM_FOLDERS = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/lib32', '/libx32'];

/** `/etc` entries bound read-only when they exist: loader, alternatives, time, locale, certificates, tool defaults. */
export const ETC_ENTRIES = [
  'alternatives',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'nsswitch.conf',
  'localtime',
  'timezone',
  'os-release',
  'lsb-release',
  'debian_version',
  'mime.types',
  'magic',
  'magic.mime',
  'inputrc',
  'terminfo',
  'ssl',
  'ca-certificates',
  'ca-certificates.conf',
  'protocols',
  'services',
  'host.conf',
  'locale.alias',
  'locale.conf',
  'shells',
  'bash.bashrc',
  'vim',
  'perl',
  'python3',
];

/** One host folder as it appears in the box: bound, or a link recreated (`/bin → usr/bin`). */
export type SystemMount = { kind: 'bind'; path: string } | { kind: 'symlink'; path: string; target: string };

/** The system folders of this host as they should appear in the box (existing ones only). */
export function systemMounts(folders: readonly string[] = SYSTEM_FOLDERS): SystemMount[] {
  const out: SystemMount[] = [];
  for (const folder of folders) {
    try {
      const stats = lstatSync(folder);
      if (stats.isSymbolicLink()) out.push({ kind: 'symlink', path: folder, target: readlinkSync(folder) });
      else if (stats.isDirectory()) out.push({ kind: 'bind', path: folder });
    } catch {
      /* absent */
    }
  }
  return out;
}

/** The `/etc` entries of {@link ETC_ENTRIES} this host has. */
export function etcEntries(): string[] {
  return ETC_ENTRIES.map((name) => `/etc/${name}`).filter((file) => existsSync(file));
}

/** Input of {@link bwrapArguments}. Paths are absolute real paths. */
export interface BwrapInput {
  workspace: string;
  cwd: string;
  /** Folders mounted as empty tmpfs (the home, `/run`); they exist only in the box. */
  hidden: string[];
  limits: SandboxLimits;
  bound: ProcessBound;
  command: string;
  /** The host's system folders (see {@link systemMounts}). @default none (tests) */
  system?: SystemMount[];
  /** `/etc` entries bound read-only. */
  etc?: string[];
  /** Synthetic files bound at `/etc/<name>` (`passwd`, `group`, `hosts`): host paths. */
  etcFiles?: Record<string, string>;
  /** More host folders bound read-only (`BwrapOptions.readOnly`). */
  readOnly?: string[];
  /** The git guard: the real git is bound at `/run/hb-git/git` and the shim over each of `replace`. */
  git?: { real: string; shim: string; replace: string[] };
  /** bubblewrap understands `--size` (0.5 and later): the tmpfs mounts get their caps. */
  sizes?: boolean;
}

/** Where the real git is inside the box. */
export const BOX_GIT = '/run/hb-git/git';

/**
 * The bwrap argument vector (after the binary). Mount order matters: later mounts cover earlier
 * ones, so the system folders come first, then `/etc`, `/dev`, `/proc`, the tmpfs mounts, the git
 * guard (over `/usr/bin/git`), and the workspace last (it may live under `/tmp` or the home).
 */
export function bwrapArguments(input: BwrapInput): string[] {
  const { limits } = input;
  const size = (bytes: number) => (input.sizes ? ['--size', String(Math.floor(bytes))] : []);
  const args = [
    '--unshare-user',
    '--unshare-ipc',
    '--unshare-pid',
    '--unshare-net',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--die-with-parent',
    '--new-session',
    ...(input.bound === 'rlimit' ? ['--cap-drop', 'ALL'] : []),
  ];
  for (const mount of input.system ?? [])
    if (mount.kind === 'bind') args.push('--ro-bind', mount.path, mount.path);
    else args.push('--symlink', mount.target, mount.path);
  for (const folder of input.readOnly ?? []) args.push('--ro-bind', folder, folder);
  args.push('--dir', '/etc');
  for (const entry of input.etc ?? []) args.push('--ro-bind', entry, entry);
  for (const [name, file] of Object.entries(input.etcFiles ?? {}))
    args.push('--ro-bind', file, `/etc/${name}`);
  args.push('--dev', '/dev', '--proc', '/proc', ...size(limits.tmpBytes), '--tmpfs', '/tmp');
  args.push('--dir', '/var', '--symlink', '../tmp', '/var/tmp');
  for (const dir of input.hidden)
    if (dir !== '/' && dir !== '/tmp' && dir !== input.workspace)
      args.push(...size(dir === '/run' ? 16 * 1024 ** 2 : limits.homeBytes), '--tmpfs', dir);
  if (input.git) {
    args.push('--ro-bind', input.git.real, BOX_GIT);
    for (const target of input.git.replace) args.push('--ro-bind', input.git.shim, target);
  }
  // The root built from nothing (and the /etc and /var made in it) is read-only once every mount point exists.
  args.push('--bind', input.workspace, input.workspace, '--remount-ro', '/', '--chdir', input.cwd, '--');
  const limited = ['prlimit', ...prlimitArguments(limits), '--'];
  const shell = ['bash', '-c', input.command];
  if (input.bound === 'rlimit') return [...args, ...limited, ...shell];
  const pidMax = Math.max(MIN_PID_MAX, Math.floor(limits.processes));
  const setup = `echo ${pidMax} > /proc/sys/kernel/pid_max || { echo "sandbox: could not cap processes (pid_max of the PID namespace)" >&2; exit 125; }; exec "$@"`;
  return [
    ...args,
    '/bin/sh',
    '-c',
    setup,
    'hb-sandbox-setup',
    ...limited,
    'setpriv',
    ...DROP_CAPABILITIES,
    '--',
    ...shell,
  ];
}

/** Synthetic `/etc` files naming no host user: root, the box's user, nobody; localhost only. */
export function syntheticEtc(user: { uid: number; gid: number; home: string }): {
  passwd: string;
  group: string;
  hosts: string;
} {
  const users = new Map<number, string>([
    [0, `root:x:0:0:root:${user.uid === 0 ? user.home : '/root'}:/bin/bash`],
  ]);
  if (!users.has(user.uid))
    users.set(user.uid, `user:x:${user.uid}:${user.gid}:sandbox user:${user.home}:/bin/bash`);
  if (!users.has(65534)) users.set(65534, 'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin');
  const groups = new Map<number, string>([[0, 'root:x:0:']]);
  if (!groups.has(user.gid)) groups.set(user.gid, `user:x:${user.gid}:`);
  if (!groups.has(65534)) groups.set(65534, 'nogroup:x:65534:');
  return {
    passwd: `${[...users.values()].join('\n')}\n`,
    group: `${[...groups.values()].join('\n')}\n`,
    hosts: '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n',
  };
}
