/**
 * The box of a `command` harness's process (`docs/adapters.md`, "What the harness gets"): with
 * bubblewrap usable on this machine, the process runs under `bwrap` with the host's root
 * read-only, a private `/tmp`, `/dev` and `/proc` of its own, and only the case's workspace and
 * its scratch folder (home, temp, result file, stand-ins) writable; it dies with the bench. So a
 * harness's own tools can change nothing of the host outside the case (`git config --global`, a
 * write to `/etc` or to the user's home fail or land in the scratch home). The network is not
 * isolated (the endpoint and the MCP server are on the host's loopback); the stand-ins on its
 * `PATH` keep the usual network programs from sending anything. Without bubblewrap the process
 * runs unboxed, as before, and the case result says so (`harness.boxed: false`).
 */
import { spawnSync } from 'node:child_process';

let usable: boolean | undefined;

/** True when `bwrap` is on PATH and can create its namespaces here (probed once per process). */
export function boxUsable(): boolean {
  if (usable === undefined)
    usable =
      spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', 'true'], { stdio: 'ignore' }).status === 0;
  return usable;
}

/**
 * `argv` run in the box: the `bwrap` argv with `readable` folders (absolute, existing: the
 * project and the harness's own files, which may live under `/tmp`, e.g. a fresh clone) bound
 * read-only again over the private `/tmp`, and `writable` ones bound read-write, over a read-only
 * root; then each `[file, over]` of `overlays` bound read-only over the host file `over` (the
 * recording stand-ins over the real network programs, so `/usr/bin/curl` or a login shell that
 * resets `PATH` meets the stand-in too). Pure.
 */
export function boxedArgv(
  argv: readonly string[],
  writable: readonly string[],
  cwd: string,
  readable: readonly string[] = [],
  overlays: readonly (readonly [string, string])[] = [],
): string[] {
  return [
    'bwrap',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    ...readable.flatMap((folder) => ['--ro-bind', folder, folder]),
    ...writable.flatMap((folder) => ['--bind', folder, folder]),
    ...overlays.flatMap(([file, over]) => ['--ro-bind', file, over]),
    '--chdir',
    cwd,
    '--die-with-parent',
    '--',
    ...argv,
  ];
}
