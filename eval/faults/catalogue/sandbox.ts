/**
 * Sandbox faults (`harness/sandbox/bwrap.ts`, `factory.ts`, the environment bash hands the box):
 * a box that is built with one wall missing, or a missing box that is quietly not used. Most of
 * the scenarios that catch them need bubblewrap (`requires: [bwrap]`); where it is missing they
 * are skipped and so are these faults, except those caught by the `sandbox: unavailable`
 * scenarios. A root file system bound read-write is not in the catalogue on purpose: under it
 * the escape scenarios, run as root, would write to the host itself. Public threads: anomalyco/opencode#43336 and thClaws/thClaws#204 (writes through
 * links and `..` outside the workspace), anthropics/claude-code#17850 (no isolation behind a
 * permissive mode).
 */
import type { Fault } from '../types.ts';

export const SANDBOX_FAULTS: Fault[] = [
  {
    id: 'sandbox/missing-runs-unboxed',
    tag: 'sandbox',
    bug: 'when bubblewrap cannot be used, the command is run directly on the host instead',
    patches: [
      {
        file: 'harness/sandbox/bwrap.ts',
        search: 'if (!probe.ok) throw new SandboxUnavailableError(probe.message, probe.hint);',
        replace:
          "if (!probe.ok) return runProcess('bash', ['-c', command], { cwd: path.resolve(options.cwd), env: scrubEnvironment(process.env), timeoutMs: options.timeoutMs });",
      },
    ],
  },
  {
    id: 'sandbox/wrong-platform-runs-unboxed',
    tag: 'sandbox',
    bug: 'a sandbox kind that does not exist on this platform falls back to running commands unboxed',
    patches: [
      {
        file: 'harness/sandbox/factory.ts',
        search: "case 'seatbelt':\n      return new SeatbeltSandbox(",
        replace:
          "case 'seatbelt':\n      if (platform !== 'darwin') return new LocalSandbox({ allowExec: true });\n      return new SeatbeltSandbox(",
      },
    ],
  },
  {
    id: 'sandbox/no-install-hint',
    tag: 'sandbox',
    bug: 'sandbox_unavailable says what is missing but not how to fix it',
    patches: [
      {
        file: 'harness/tools/builtin/bash.ts',
        search: 'message: `${error.message}; the command was not run. ${error.hint}`,',
        replace: 'message: `${error.message}; the command was not run.`,',
      },
    ],
  },
  {
    id: 'sandbox/host-tmp-shared',
    tag: 'sandbox',
    bug: "the box has no private /tmp, so the host's /tmp (other runs, $OUTSIDE) is visible",
    patches: [
      {
        file: 'harness/sandbox/bwrap-args.ts',
        search: "...size(limits.tmpBytes), '--tmpfs', '/tmp');",
        replace: ');',
      },
    ],
  },
  {
    id: 'sandbox/nothing-hidden',
    tag: 'sandbox',
    // /run stays covered: the harness's git shim is mounted under it, and a /run bound read-only
    // from the host makes the box fail to start (the case is then skipped, not caught).
    bug: 'the home folder is bound into the box (read-only, for toolchains) instead of covered',
    patches: [
      {
        file: 'harness/sandbox/bwrap.ts',
        search: "for (const dir of [this.host.home, '/run', ...(this.options.hide ?? [])])",
        replace: "for (const dir of ['/run', ...(this.options.hide ?? [])])",
      },
      {
        file: 'harness/sandbox/bwrap.ts',
        search: 'readOnly: this.options.readOnly ?? [],',
        replace: 'readOnly: [...(this.options.readOnly ?? []), this.host.home],',
      },
    ],
  },
  {
    id: 'sandbox/network-shared',
    tag: 'sandbox',
    bug: 'the box shares the host network namespace',
    patches: [{ file: 'harness/sandbox/bwrap-args.ts', search: "'--unshare-net',", replace: '' }],
  },
  {
    id: 'sandbox/pid-namespace-shared',
    tag: 'sandbox',
    bug: "the box shares the host's PID namespace, so commands see and can signal the host's processes",
    patches: [{ file: 'harness/sandbox/bwrap-args.ts', search: "'--unshare-pid',", replace: '' }],
  },
  {
    id: 'sandbox/capabilities-kept',
    tag: 'sandbox',
    bug: 'the shell in the box keeps the capabilities of the user namespace (setpriv step dropped)',
    // The box's own probe notices the kept capabilities and refuses the box, so the sandbox
    // cases are skipped (an error under CI=true): the defence that catches it is the probe.
    caughtAs: ['skipped', 'error'],
    patches: [
      {
        file: 'harness/sandbox/bwrap-args.ts',
        search: "'setpriv',\n    ...DROP_CAPABILITIES,\n    '--',",
        replace: '',
      },
    ],
  },
  {
    id: 'sandbox/workspace-read-only',
    tag: 'sandbox',
    bug: 'the workspace is bound read-only, so legitimate builds fail',
    patches: [
      {
        file: 'harness/sandbox/bwrap-args.ts',
        search: "args.push('--bind', input.workspace, input.workspace,",
        replace: "args.push('--ro-bind', input.workspace, input.workspace,",
      },
    ],
  },
  {
    id: 'sandbox/environment-not-scrubbed',
    tag: 'sandbox',
    bug: 'the environment scrub copies every variable (API keys included) instead of the allowlist',
    patches: [
      {
        file: 'harness/sandbox/local.ts',
        search: 'for (const key of ENV_ALLOWLIST) if (env[key] !== undefined) out[key] = env[key]!;',
        replace: 'for (const key of Object.keys(env)) if (env[key] !== undefined) out[key] = env[key]!;',
      },
    ],
  },
  {
    id: 'sandbox/timeout-not-applied',
    tag: 'sandbox',
    bug: "the box ignores the command's timeout and uses a fixed ten minutes",
    patches: [
      {
        file: 'harness/sandbox/bwrap.ts',
        search: 'timeoutMs: options.timeoutMs,',
        replace: 'timeoutMs: 600_000,',
      },
    ],
  },
];
