/**
 * One error hierarchy for the whole repository: every error we raise on purpose is a
 * {@link HarnessBenchError} with a stable `code` and a `fault` that says whose fault it is, and
 * the CLI turns the fault into its exit code (`cli/main.ts`, `exitCodeFor`). A model's mistakes in
 * a run are not errors at all: they become tool results and stop reasons. It imports nothing.
 */

/**
 * Whose fault an error is:
 * - `user_input`: a bad scenario, cassette, configuration, flag or session id; the user fixes it.
 * - `model`: the model's (or the provider's) behaviour, such as a response that cannot be used.
 * - `harness`: our own bug; anything thrown that is not a `HarnessBenchError` counts as this.
 * - `environment`: a missing prerequisite (bubblewrap, an endpoint), the network or the disk.
 */
export type Fault = 'user_input' | 'model' | 'harness' | 'environment';

/** Every fault, in the order above. */
export const FAULTS: readonly Fault[] = ['user_input', 'model', 'harness', 'environment'];

/** An error as JSON, for logs, results and machine-readable output. */
export interface ErrorJson {
  code: string;
  fault: Fault;
  message: string;
  data: unknown;
}

/**
 * The base of every error raised on purpose. `code` is stable and machine-readable
 * (`INPUT_INVALID`, `SANDBOX_UNAVAILABLE`, `http_error`, …), `data` holds the details a
 * program needs (problems, status, hint).
 */
export class HarnessBenchError extends Error {
  override readonly name: string = 'HarnessBenchError';
  constructor(
    readonly code: string,
    readonly fault: Fault,
    message: string,
    readonly data: unknown = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  /** `{code, fault, message, data}`. */
  toJSON(): ErrorJson {
    return { code: this.code, fault: this.fault, message: this.message, data: this.data };
  }
}

/** Node's error codes of a missing prerequisite, the network or the disk. */
const ENVIRONMENT_CODES = new Set([
  'ENOENT',
  'EACCES',
  'EPERM',
  'ENOSPC',
  'EROFS',
  'EMFILE',
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EAI_AGAIN',
]);

/**
 * The fault of anything thrown: a {@link HarnessBenchError}'s own fault; `environment` for a
 * Node system error of the disk or the network (`ENOSPC`, `EACCES`, `ECONNREFUSED`, …) that
 * nothing caught; `harness` for everything else (an unexpected throw is our bug).
 */
export function faultOf(error: unknown): Fault {
  if (error instanceof HarnessBenchError) return error.fault;
  const code = (error as { code?: unknown } | null)?.code;
  if (
    typeof code === 'string' &&
    ENVIRONMENT_CODES.has(code) &&
    typeof (error as { syscall?: unknown }).syscall === 'string'
  )
    return 'environment';
  return 'harness';
}
