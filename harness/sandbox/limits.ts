/**
 * Resource limits of a sandboxed command and why each default is what it is. They are set inside
 * the sandbox with `prlimit` (soft = hard, so the command cannot raise them) and, for the process
 * count under root, with the `pid_max` of the sandbox's own PID namespace.
 */

/** Limits of one sandboxed command. All are per process except `processes`. */
export interface SandboxLimits {
  /**
   * CPU seconds per process (`RLIMIT_CPU`; SIGXCPU, then SIGKILL). A backstop behind the
   * wall-clock timeout: a process never gets more CPU than the longest timeout bash allows.
   */
  cpuSeconds: number;
  /**
   * Virtual address space per process in bytes (`RLIMIT_AS`): a memory hog fails its allocation
   * (`ENOMEM`, "memory exhausted") instead of pushing the host into the OOM killer.
   */
  addressSpaceBytes: number;
  /** Largest file a process may write, in bytes (`RLIMIT_FSIZE`; SIGXFSZ past it). */
  fileSizeBytes: number;
  /**
   * Processes and threads (`RLIMIT_NPROC`). The kernel counts this per user, not per sandbox
   * (since Linux 5.14 per user and user namespace, checked up the namespace chain; before 5.14
   * across every process of the user on the host), so it is generous enough not to fail on a
   * busy desktop and finite so a fork bomb cannot fill the host's PID table (`pid_max` is often
   * 32768). The kernel never applies `RLIMIT_NPROC` to the real root user (kernel/fork.c,
   * `copy_process`: the check is skipped for `INIT_USER`), so under root the same number is
   * enforced as the `pid_max` of the sandbox's PID namespace (per namespace since Linux 6.14;
   * the kernel's minimum there is 301).
   */
  processes: number;
  /**
   * Memory of the whole command, every process together, in bytes: the `memory.max` of a cgroup
   * of its own when the host delegates a cgroup v2 subtree with the memory controller
   * (`cgroup.ts`); otherwise only `addressSpaceBytes` per process applies (the stated fallback).
   */
  memoryBytes: number;
  /** Size of the box's private `/tmp` (a RAM-backed tmpfs), in bytes. */
  tmpBytes: number;
  /** Size of the box's empty home folder (a tmpfs), in bytes. */
  homeBytes: number;
}

/**
 * Defaults: 600 CPU seconds (bash's longest timeout), 4 GiB of address space per process (Node,
 * Python and compilers start well below it; V8 and Go reserve virtual memory lazily), 1 GiB per
 * file, 1024 processes/threads, 4 GiB for the whole command (cgroup), 1 GiB of `/tmp`, 64 MiB of
 * home.
 */
export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  cpuSeconds: 600,
  addressSpaceBytes: 4 * 1024 ** 3,
  fileSizeBytes: 1024 ** 3,
  processes: 1024,
  memoryBytes: 4 * 1024 ** 3,
  tmpBytes: 1024 ** 3,
  homeBytes: 64 * 1024 ** 2,
};

/** The smallest `pid_max` the kernel accepts (RESERVED_PIDS + 1). */
export const MIN_PID_MAX = 301;

/** `prlimit` options setting every limit (soft and hard), plus no core dumps. */
export function prlimitArguments(
  limits: Pick<SandboxLimits, 'cpuSeconds' | 'addressSpaceBytes' | 'fileSizeBytes' | 'processes'>,
): string[] {
  return [
    `--cpu=${Math.ceil(limits.cpuSeconds)}`,
    `--as=${Math.floor(limits.addressSpaceBytes)}`,
    `--fsize=${Math.floor(limits.fileSizeBytes)}`,
    `--nproc=${Math.floor(limits.processes)}`,
    '--core=0',
  ];
}

/**
 * Whether this kernel release (`os.release()`, e.g. `6.18.44-fc`) keeps `pid_max` per PID
 * namespace (Linux 6.14 and later). On older kernels writing it would change the host's value.
 */
export function hasPerNamespacePidMax(release: string): boolean {
  const match = /^(\d+)\.(\d+)/.exec(release);
  if (!match) return false;
  const major = Number(match[1]);
  const minor = Number(match[2]);
  return major > 6 || (major === 6 && minor >= 14);
}
