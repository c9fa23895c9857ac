/**
 * The `Sandbox` interface: the only way tools touch files and processes
 * (`docs/architecture.md` §3). Paths are absolute; callers resolve them through the
 * path policy first.
 */
import { HarnessBenchError } from '../errors.ts';

/** Result of a command, with output in UTF-8 text. `timedOut` is true when the timeout killed it. */
export interface ExecResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Options of {@link Sandbox.exec}. `timeoutMs` in milliseconds. */
export interface ExecOptions {
  cwd: string;
  timeoutMs: number;
  /** The command's environment as given; absent: the host's, scrubbed to `ENV_ALLOWLIST` (`local.ts`). */
  env?: Record<string, string>;
  signal?: AbortSignal;
}

/** One entry of {@link Sandbox.list}. */
export interface DirEntry {
  name: string;
  kind: 'file' | 'dir' | 'symlink' | 'other';
  /** Size in bytes, for files. */
  size?: number;
}

/** How a file operation opens its path (file tools and the harness's own files pass `root`). */
export interface FileAccessOptions {
  /**
   * Open the path below this folder (a real path) without following any link below it, each
   * component opened relative to its parent (`beneath.ts`): a link at any depth fails with `ELOOP`,
   * a file with several hard links with `EMLINK`.
   */
  root?: string;
  /** Reads below `root`: accept a file with several hard links (one this run created). */
  allowHardLinks?: boolean;
  /** Writes: append instead of replacing. */
  append?: boolean;
}

/**
 * File and process operations.
 *
 * Contract: methods reject with a Node-style error (`code` such as `ENOENT`, `EISDIR`) on
 * failure; `exec` rejects with `SandboxUnavailableError` when the sandbox cannot run commands.
 */
export interface Sandbox {
  readonly kind: string;
  readFile(path: string, options?: FileAccessOptions): Promise<string>;
  writeFile(path: string, content: string, options?: FileAccessOptions): Promise<void>;
  list(path: string, options?: FileAccessOptions): Promise<DirEntry[]>;
  /** Follows links; rejects with `ENOENT` when the path does not exist. */
  realpath(path: string): Promise<string>;
  exists(path: string): Promise<boolean>;
  exec(command: string, options: ExecOptions): Promise<ExecResult>;
}

/**
 * The chosen sandbox cannot run commands here; `hint` says how to install or enable it. Code
 * `SANDBOX_UNAVAILABLE`, fault `environment`, data `{hint}`.
 */
export class SandboxUnavailableError extends HarnessBenchError {
  override readonly name = 'SandboxUnavailableError';
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super('SANDBOX_UNAVAILABLE', 'environment', message, { hint });
  }
}
