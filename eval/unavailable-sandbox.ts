/**
 * A sandbox made unavailable on purpose (`sandbox: "unavailable"` in a scenario or a
 * configuration file): the sandbox the configuration picks is built as if its binary were
 * missing on this host, so the harness's own detection runs (bubblewrap's or Seatbelt's probe)
 * and bash must answer `sandbox_unavailable` without running anything — the case of "a missing
 * sandbox that runs unboxed". With `sandbox.kind: none` (no sandbox configured) it is the
 * platform's sandbox that is missing. Files still work: only commands need the sandbox.
 */
import type { HarnessConfig } from '../harness/config.ts';
import { createSandbox } from '../harness/sandbox/factory.ts';
import type { Sandbox } from '../harness/sandbox/types.ts';

/** The value that makes the sandbox unavailable. */
export const SANDBOX_UNAVAILABLE = 'unavailable';

/** A path no sandbox binary lives at; it names why, since the harness shows it in the error. */
export const MISSING_SANDBOX_BINARY = '/nonexistent/harness-bench-sandbox-unavailable';

/**
 * The sandbox of a case: the one `config.sandbox.kind` picks, or, when `unavailable`, that
 * sandbox (or the platform's, for `none`) with a binary that does not exist.
 */
export function caseSandbox(config: HarnessConfig, workspace: string, unavailable: boolean): Sandbox {
  if (!unavailable) return createSandbox(config.sandbox.kind, workspace);
  const kind = config.sandbox.kind === 'none' ? 'auto' : config.sandbox.kind;
  return createSandbox(kind, workspace, {
    bwrapBinary: `${MISSING_SANDBOX_BINARY}/bwrap`,
    seatbeltBinary: `${MISSING_SANDBOX_BINARY}/sandbox-exec`,
  });
}
