/**
 * `LocalSandbox`: files through `node:fs` on the real workspace, commands through `bash -c` (the
 * shell the policy's analysis reads commands as) with no isolation but the git guard's
 * environment (`git-guard.ts`). It is the `sandbox.kind: "none"` implementation; commands run only when the
 * configuration asks for `none` explicitly (otherwise `exec` rejects with
 * `SandboxUnavailableError`: the harness fails closed and never runs a command unboxed).
 */
import { gitGuardPathEnv } from './git-guard.ts';
import { HostFileSandbox } from './host-files.ts';
import { runProcess } from './process.ts';
import { SandboxUnavailableError, type ExecOptions, type ExecResult } from './types.ts';

/**
 * Environment variables a command may see; everything else (API keys, tokens, cloud
 * credentials, `SSH_AUTH_SOCK`) is dropped.
 */
export const ENV_ALLOWLIST = ['PATH', 'LANG', 'LC_ALL', 'TERM', 'TZ', 'HOME', 'USER', 'SHELL', 'TMPDIR'];

/** Keeps only allowlisted variables of `env`. */
export function scrubEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ENV_ALLOWLIST) if (env[key] !== undefined) out[key] = env[key]!;
  return out;
}

/** Files on the real file system; commands only when `allowExec` (configuration `sandbox.kind: "none"`). */
export class LocalSandbox extends HostFileSandbox {
  readonly kind = 'none';
  constructor(
    private readonly options: { allowExec: boolean; unavailable?: { message: string; hint: string } },
  ) {
    super();
  }

  /**
   * Runs `bash -c command` in `cwd` with the scrubbed environment and the git guard, unboxed; the timeout kills the
   * process group (a descendant that called `setsid` escapes it: use a real sandbox).
   * @throws SandboxUnavailableError without `allowExec`.
   */
  exec(command: string, options: ExecOptions): Promise<ExecResult> {
    if (!this.options.allowExec)
      return Promise.reject(
        new SandboxUnavailableError(
          this.options.unavailable?.message ?? 'no sandbox is available to run commands',
          this.options.unavailable?.hint ??
            'install bubblewrap (apt-get install -y bubblewrap) or set sandbox.kind to "none" explicitly',
        ),
      );
    return runProcess('bash', ['-c', command], {
      cwd: options.cwd,
      env: gitGuardPathEnv(options.env ?? scrubEnvironment(process.env)),
      timeoutMs: options.timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }
}
