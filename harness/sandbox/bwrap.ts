/**
 * `BwrapSandbox`: commands under Debian's bubblewrap (https://github.com/containers/bubblewrap).
 *
 * What the box is (`bwrap-args.ts`): a root built from nothing, with only `/usr`, the `/bin`,
 * `/sbin`, `/lib*` links into it and a minimal `/etc` (synthetic `passwd`, `group`, `hosts`)
 * from the host, read-only — no home folder, `/root`, `/etc/shadow`, `/var`, `/opt`, `/srv` or
 * socket is there; a private `/tmp` and an empty home and `/run` (tmpfs, size-capped), mounted
 * *before* the workspace is bound read-write, because temp workspaces live under `/tmp` and the
 * home may contain the workspace; git replaced by the guard (`git-guard.ts`); its own user,
 * network (loopback only, not the host's), PID, IPC and UTS namespaces; `--die-with-parent`, so
 * killing bwrap on a timeout tears the PID namespace down with every process inside, `setsid`
 * ones included; `--new-session` (no TIOCSTI into the harness's terminal); no capabilities;
 * resource limits ({@link SandboxLimits}; the whole command's memory in a cgroup of its own when
 * the host delegates one, `cgroup.ts`); the scrubbed environment plus the git guard's.
 *
 * bwrap keeps every capability when it is started by root (it only drops them for unprivileged
 * callers), and root inside can then remount `/` read-write: the capabilities are always dropped
 * (`--cap-drop ALL`, or `setpriv` after the root-only setup step).
 *
 * Installed is not usable: the first `exec` probes the exact command line with a check that the
 * shell holds no capabilities, caches the answer, and when it fails every `exec` rejects with
 * `SandboxUnavailableError` carrying bwrap's own message and an install hint. Nothing runs unboxed.
 */
import { processTempDir } from './process-temp.ts';
import { spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bwrapArguments, etcEntries, syntheticEtc, systemMounts, type ProcessBound } from './bwrap-args.ts';
import { createCommandCgroup, inCgroup, planCgroup, type CgroupPlan } from './cgroup.ts';
import { gitGuardEnv, gitShimFolder, hostGit } from './git-guard.ts';
import { HostFileSandbox } from './host-files.ts';
import { DEFAULT_SANDBOX_LIMITS, hasPerNamespacePidMax, type SandboxLimits } from './limits.ts';
import { scrubEnvironment } from './local.ts';
import { runProcess } from './process.ts';
import { SandboxUnavailableError, type ExecOptions, type ExecResult } from './types.ts';

/** Facts about the host that decide how the box is built; injectable for tests. */
export interface HostFacts {
  /** The uid bwrap runs as. */
  uid: number;
  /** uid 0 of the initial user namespace (not root of a rootless container): exempt from `RLIMIT_NPROC`. */
  globalRoot: boolean;
  /** `os.release()`. */
  kernelRelease: string;
  /** The caller's home folder, an empty tmpfs in the box. */
  home: string;
  /** The gid bwrap runs as (the synthetic `/etc/group`). */
  gid: number;
}

export { bwrapArguments, DROP_CAPABILITIES, type BwrapInput, type ProcessBound } from './bwrap-args.ts';

/** How to build the box on this host, or why it cannot be built safely. */
export type BwrapPlan = { ok: true; bound: ProcessBound } | { ok: false; reason: string; hint: string };

/** Options of {@link BwrapSandbox}. */
export interface BwrapOptions {
  /** The bwrap binary. @default "bwrap" (looked up on PATH) */
  binary?: string;
  limits?: Partial<SandboxLimits>;
  /**
   * Run bwrap and the command as this unprivileged user (the harness must be root). The
   * workspace must be writable by it. `RLIMIT_NPROC` then bounds the process count.
   */
  runAs?: { uid: number; gid: number };
  /** More folders that exist in the box as an empty tmpfs (besides `$HOME` and `/run`). */
  hide?: string[];
  /** More host folders bound read-only (a toolchain under `/opt`): nothing outside `/usr` and a minimal `/etc` is there by default. */
  readOnly?: string[];
  /** A cgroup v2 folder whose children may be created with the memory controller (`cgroup.ts`). @default HARNESS_BENCH_CGROUP, or none */
  cgroupParent?: string;
  /** Host facts (tests); detected by default. */
  host?: Partial<HostFacts>;
}

/** Generic advice when bwrap is missing. */
export const BWRAP_INSTALL_HINT =
  'install bubblewrap (Debian/Ubuntu: apt-get install -y bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap), or set sandbox.kind to "none" explicitly to run commands without isolation';

const USERNS_HINT =
  'bubblewrap needs user namespaces: on Ubuntu 23.10+ allow them for bwrap with an AppArmor profile (or sysctl kernel.apparmor_restrict_unprivileged_userns=0); on older Debian sysctl kernel.unprivileged_userns_clone=1; in Docker run the container with --security-opt seccomp=unconfined --security-opt apparmor=unconfined (or --privileged)';

/** True when this process is uid 0 of the initial user namespace (`/proc/self/uid_map` maps 0 to 0 for the whole range). */
export function isGlobalRoot(uid: number, uidMap: string | undefined): boolean {
  if (uid !== 0) return false;
  const first = (uidMap ?? '').trim().split('\n')[0]?.trim().split(/\s+/);
  return !first || first.length < 3 || (first[0] === '0' && first[1] === '0' && first[2] === '4294967295');
}

/** Detects the host facts of this process. */
export function detectHost(runAs?: { uid: number; gid?: number }): HostFacts {
  const uid = runAs?.uid ?? process.getuid?.() ?? -1;
  let uidMap: string | undefined;
  try {
    uidMap = readFileSync('/proc/self/uid_map', 'utf8');
  } catch {
    uidMap = undefined;
  }
  return {
    uid,
    gid: runAs?.gid ?? process.getgid?.() ?? uid,
    globalRoot: isGlobalRoot(uid, uidMap),
    kernelRelease: os.release(),
    home: os.homedir(),
  };
}

/** Decides how to bound processes on this host; the real root needs Linux 6.14+. */
export function planBox(
  host: Pick<HostFacts, 'globalRoot' | 'kernelRelease'> & Partial<HostFacts>,
): BwrapPlan {
  if (!host.globalRoot) return { ok: true, bound: 'rlimit' };
  if (hasPerNamespacePidMax(host.kernelRelease)) return { ok: true, bound: 'pid-namespace' };
  return {
    ok: false,
    reason: `the harness runs as root on Linux ${host.kernelRelease}: the kernel does not apply RLIMIT_NPROC to root and keeps pid_max per PID namespace only from 6.14 on, so a fork bomb could fill the host's process table`,
    hint: 'run the harness as an unprivileged user (or pass runAs), or use Linux 6.14 or later',
  };
}

/** Exits 0 only when the shell holds no effective capability (pure bash, no other binary). */
export const PROBE_COMMAND =
  'while read -r key value; do if [ "$key" = "CapEff:" ]; then [ "$((16#$value))" -eq 0 ] && exit 0; echo "sandbox: the shell still holds capabilities ($value)" >&2; exit 3; fi; done < /proc/self/status; exit 4';

/** Commands under bubblewrap; files through `node:fs` like every host sandbox. */
export class BwrapSandbox extends HostFileSandbox {
  readonly kind = 'bwrap';
  private readonly binary: string;
  private readonly limits: SandboxLimits;
  private readonly host: HostFacts;
  private probed: Promise<{ ok: true } | { ok: false; message: string; hint: string }> | undefined;
  private cgroup: CgroupPlan | undefined;

  /** @param workspace absolute real path of the workspace, bound read-write. */
  constructor(
    private readonly workspace: string,
    private readonly options: BwrapOptions = {},
  ) {
    super();
    this.binary = options.binary ?? 'bwrap';
    this.limits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
    this.host = { ...detectHost(options.runAs), ...options.host };
  }

  /** The folders that exist in the box as an empty tmpfs: the home, `/run`, and `hide`. */
  hiddenFolders(): string[] {
    const out: string[] = [];
    for (const dir of [this.host.home, '/run', ...(this.options.hide ?? [])])
      if (dir && path.isAbsolute(dir) && !out.includes(dir) && dir !== '/') out.push(dir);
    return out;
  }

  /** The per-process files of the box (synthetic `/etc` entries), written once in a folder the harness created. */
  private boxFiles(): Record<string, string> {
    const key = `${this.host.uid}:${this.host.gid}:${this.host.home}`;
    let files = boxFileCache.get(key);
    if (!files) {
      const dir = processTempDir('hb-box-');
      chmodSync(dir, 0o755);
      files = {};
      for (const [name, text] of Object.entries(syntheticEtc(this.host))) {
        const file = path.join(dir, name);
        writeFileSync(file, text, { mode: 0o644 });
        files[name] = file;
      }
      boxFileCache.set(key, files);
    }
    return files;
  }

  /** The git guard's binds: the real git and where the shim goes over it. */
  private gitGuard(): { real: string; shim: string; replace: string[] } | undefined {
    const real = hostGit();
    if (!real) return undefined;
    const replace = ['/usr/bin/git', '/usr/lib/git-core/git', '/usr/local/bin/git'].filter((f) => {
      try {
        return lstatSync(f).isFile();
      } catch {
        return false;
      }
    });
    return { real, shim: path.join(gitShimFolder('/run/hb-git/git'), 'git'), replace };
  }

  /**
   * Checks once (cached) that the box can be built here: the plan for this host, then the real
   * command line running the capability check. Resolves `{ ok: false }` with bwrap's own message.
   */
  probe(): Promise<{ ok: true } | { ok: false; message: string; hint: string }> {
    this.probed ??= this.runProbe();
    return this.probed;
  }

  private async runProbe(): Promise<{ ok: true } | { ok: false; message: string; hint: string }> {
    const plan = planBox(this.host);
    if (!plan.ok)
      return {
        ok: false,
        message: `bubblewrap cannot bound processes safely here: ${plan.reason}`,
        hint: plan.hint,
      };
    let result: ExecResult;
    try {
      result = await this.spawnBox(PROBE_COMMAND, { cwd: this.workspace, timeoutMs: 15_000 }, plan.bound);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ENOENT')
        return {
          ok: false,
          message: `bubblewrap is not installed (no "${this.binary}" found)`,
          hint: BWRAP_INSTALL_HINT,
        };
      return {
        ok: false,
        message: `bubblewrap could not be started: ${(error as Error).message}`,
        hint: BWRAP_INSTALL_HINT,
      };
    }
    if (result.exitCode === 0) return { ok: true };
    const said =
      (result.stderr || result.stdout).trim().split('\n').slice(0, 3).join(' / ') ||
      `exit code ${result.exitCode}`;
    const namespaces = /namespace|uid map|setting up uid|Operation not permitted|Permission denied/i.test(
      said,
    );
    const tools = /prlimit|setpriv|bash/.test(said) && /not found|No such file/.test(said);
    return {
      ok: false,
      message: `bubblewrap is installed but unusable here: \`${this.binary} --ro-bind / / …\` failed: ${said}`,
      hint: namespaces
        ? USERNS_HINT
        : tools
          ? 'install util-linux (prlimit, setpriv) and bash'
          : BWRAP_INSTALL_HINT,
    };
  }

  /**
   * Runs `bash -c command` inside the box, `cwd` inside the workspace.
   * @throws SandboxUnavailableError when the probe failed (the message says why, the hint how to fix it).
   */
  async exec(command: string, options: ExecOptions): Promise<ExecResult> {
    const probe = await this.probe();
    if (!probe.ok) throw new SandboxUnavailableError(probe.message, probe.hint);
    const plan = planBox(this.host);
    return this.spawnBox(command, options, plan.ok ? plan.bound : 'rlimit');
  }

  private async spawnBox(command: string, options: ExecOptions, bound: ProcessBound): Promise<ExecResult> {
    const cwd = path.resolve(options.cwd);
    if (cwd !== this.workspace && !cwd.startsWith(this.workspace + path.sep))
      throw new Error(`cwd ${cwd} is outside the workspace ${this.workspace}`);
    const git = this.gitGuard();
    const args = bwrapArguments({
      workspace: this.workspace,
      cwd,
      hidden: this.hiddenFolders(),
      limits: this.limits,
      bound,
      command,
      system: systemMounts(),
      etc: etcEntries(),
      etcFiles: this.boxFiles(),
      readOnly: this.options.readOnly ?? [],
      ...(git ? { git } : {}),
      sizes: supportsSize(this.binary),
    });
    const env: Record<string, string> = {
      ...(options.env ?? scrubEnvironment(process.env)),
      ...gitGuardEnv(),
      HOME: this.host.home,
      TMPDIR: '/tmp',
    };
    env.PATH ??= '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
    // The whole command's memory in a cgroup of its own, when the host delegates one (otherwise RLIMIT_AS per process).
    const plan = this.cgroupPlan();
    const cgroup = plan.ok ? createCommandCgroup(plan.parent, this.limits.memoryBytes) : undefined;
    const run = cgroup ? inCgroup(cgroup.dir, this.binary, args) : { binary: this.binary, args };
    try {
      return await runProcess(run.binary, run.args, {
        cwd: this.workspace,
        env,
        timeoutMs: options.timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(this.options.runAs ? { uid: this.options.runAs.uid, gid: this.options.runAs.gid } : {}),
      });
    } finally {
      cgroup?.remove();
    }
  }

  /** Where the whole command's memory is capped, or why only each process is (`cgroup.ts`). Cached. */
  cgroupPlan(): CgroupPlan {
    this.cgroup ??= planCgroup(this.options.cgroupParent);
    return this.cgroup;
  }
}

const boxFileCache = new Map<string, Record<string, string>>();
const sizeSupport = new Map<string, boolean>();

/** True when this bwrap understands `--size` (bubblewrap 0.5 and later; its `--help` lists it). */
function supportsSize(binary: string): boolean {
  let known = sizeSupport.get(binary);
  if (known === undefined) {
    const help = spawnSync(binary, ['--help'], { encoding: 'utf8' });
    known = `${help.stdout ?? ''}${help.stderr ?? ''}`.includes('--size');
    sizeSupport.set(binary, known);
  }
  return known;
}
