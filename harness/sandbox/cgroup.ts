/**
 * Memory for the whole command: a cgroup v2 of its own per command, with `memory.max` (and no
 * swap), into which the bubblewrap process is moved before it starts, so every process of the
 * command counts together; the cgroup is killed (`cgroup.kill`) and removed afterwards. This
 * needs a cgroup v2 folder the harness may write whose `cgroup.subtree_control` enables the
 * memory controller: one passed in (`HARNESS_BENCH_CGROUP`, or `BwrapOptions.cgroupParent`, e.g.
 * a `systemd-run --user --scope -p Delegate=yes` scope prepared for it), or the harness's own
 * cgroup when it is the root of a cgroup namespace (a privileged container). The harness never
 * moves its own process. Where none is available (cgroup v1 or a hybrid hierarchy, a
 * non-delegated cgroup: the usual CI runner), the stated fallback is `RLIMIT_AS` per process
 * (`limits.ts`), which bounds each process but not their sum. Source: the kernel's
 * Documentation/admin-guide/cgroup-v2.rst ("Delegation", "No Internal Process Constraint").
 */
import {
  accessSync,
  constants,
  readFileSync,
  existsSync,
  mkdirSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

/** Where per-command cgroups can be made, or why not. */
export type CgroupPlan = { ok: true; parent: string } | { ok: false; reason: string };

/** Facts read from the host (injectable for tests). */
export interface CgroupHost {
  /** `/proc/self/cgroup`. */
  selfCgroup: string;
  /** `/proc/self/mountinfo`. */
  mountinfo: string;
}

function readHost(): CgroupHost {
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  };
  return { selfCgroup: read('/proc/self/cgroup'), mountinfo: read('/proc/self/mountinfo') };
}

/** The cgroup2 mount point, when there is one. */
function cgroup2Mount(mountinfo: string): string | undefined {
  for (const line of mountinfo.split('\n')) {
    const [before, after] = line.split(' - ');
    if (after?.startsWith('cgroup2 ')) return before?.split(' ')[4];
  }
  return undefined;
}

/** True when `dir` enables the memory controller for its children and the harness may create them. */
function usable(dir: string): string | undefined {
  try {
    const controllers = readFileSync(path.join(dir, 'cgroup.subtree_control'), 'utf8').split(/\s+/);
    if (!controllers.includes('memory'))
      return `${dir} does not enable the memory controller for its children`;
    accessSync(dir, constants.W_OK);
    return undefined;
  } catch (error) {
    return `${dir} cannot be used (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
}

/**
 * Decides where the per-command cgroups go: `parent` when given (or `HARNESS_BENCH_CGROUP`),
 * else the harness's own cgroup when it is the root of the hierarchy.
 */
export function planCgroup(parent?: string, host: CgroupHost = readHost()): CgroupPlan {
  const given = parent ?? process.env.HARNESS_BENCH_CGROUP;
  if (given) {
    const why = usable(given);
    return why ? { ok: false, reason: why } : { ok: true, parent: given };
  }
  const mount = cgroup2Mount(host.mountinfo);
  if (!mount) return { ok: false, reason: 'no cgroup v2 hierarchy is mounted (cgroup v1 or hybrid)' };
  const own = /^0::(.*)$/m.exec(host.selfCgroup)?.[1];
  if (own === undefined) return { ok: false, reason: 'this process is in no cgroup v2' };
  if (own !== '/')
    return {
      ok: false,
      reason: `this process's cgroup ${own} is not the root of its hierarchy, and no delegated cgroup was given (HARNESS_BENCH_CGROUP)`,
    };
  const why = usable(mount);
  return why ? { ok: false, reason: why } : { ok: true, parent: mount };
}

let counter = 0;

/** One command's cgroup. */
export interface CommandCgroup {
  dir: string;
  /** Kills what is left in it and removes it. Never throws. */
  remove(): void;
}

/** Creates a cgroup under `parent` capped at `memoryBytes` (no swap). @throws when it cannot be created. */
export function createCommandCgroup(parent: string, memoryBytes: number): CommandCgroup {
  counter += 1;
  const dir = path.join(parent, `hb-${process.pid}-${counter}`);
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'memory.max'), String(Math.floor(memoryBytes)));
  if (existsSync(path.join(dir, 'memory.swap.max'))) writeFileSync(path.join(dir, 'memory.swap.max'), '0');
  return {
    dir,
    remove() {
      try {
        if (existsSync(path.join(dir, 'cgroup.kill'))) writeFileSync(path.join(dir, 'cgroup.kill'), '1');
      } catch {
        /* gone */
      }
      for (let attempt = 0; attempt < 20; attempt += 1) {
        try {
          rmdirSync(dir);
          return;
        } catch {
          /* processes still leaving */
        }
      }
    },
  };
}

/** The host command that moves itself into `dir` and then runs `binary args…` (the bubblewrap process starts inside the cgroup). */
export function inCgroup(
  dir: string,
  binary: string,
  args: readonly string[],
): { binary: string; args: string[] } {
  return {
    binary: '/bin/sh',
    args: ['-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', dir, binary, ...args],
  };
}
