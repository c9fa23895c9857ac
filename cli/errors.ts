/**
 * Errors at the top of the CLI: every error that reaches `cli/main.ts` is printed once and mapped
 * by its fault (`harness/errors.ts`) to one of the documented exit codes.
 */
import { formatProblem, InputError } from '../eval/errors.ts';
import { type Fault, faultOf, HarnessBenchError } from '../harness/errors.ts';
import type { CliIo } from './io.ts';

/**
 * The exit codes of every command: 0 all passed; 1 a case failed or errored (or the model's
 * behaviour stopped the command); 2 bad input (scenario, cassette, configuration, flag, session
 * id), nothing written; 3 an internal error, a bug of harness-bench; 4 the environment (a missing
 * prerequisite, the network, the disk).
 */
export const EXIT_CODES = { ok: 0, failed: 1, userInput: 2, internal: 3, environment: 4 } as const;

/** The exit code for an error of the given fault (`harness/errors.ts`). */
export function exitCodeFor(fault: Fault): number {
  switch (fault) {
    case 'user_input':
      return EXIT_CODES.userInput;
    case 'harness':
      return EXIT_CODES.internal;
    case 'environment':
      return EXIT_CODES.environment;
    case 'model':
      return EXIT_CODES.failed;
  }
}

/** The text `--help` ends with. */
export const EXIT_CODES_HELP = `
Exit codes:
  0  every case passed
  1  a case failed or errored
  2  bad input: a scenario, cassette, configuration, flag or session id (nothing is written)
  3  internal error: a bug in harness-bench (please report it with the trace)
  4  environment: a missing prerequisite, the network or the disk
`;

const FAULT_WORDS = {
  user_input: 'invalid input',
  model: 'model error',
  environment: 'environment',
} as const;

/**
 * Prints an error that reached the top of a command and returns the exit code its fault maps to:
 * the problems of an `InputError`, the code, message and fix of another `HarnessBenchError`, the
 * trace of anything else (an internal error).
 */
export function reportError(error: unknown, io: CliIo): number {
  if (error instanceof InputError) {
    const lines = error.problems.map((p) => `  ${formatProblem(p)}`).join('\n');
    io.stderr(`harness-bench: invalid input (nothing was written):\n${lines}\n`);
    return EXIT_CODES.userInput;
  }
  const fault = faultOf(error);
  if (fault === 'harness') {
    const trace = (error as Error)?.stack ?? String(error);
    io.stderr(`harness-bench: internal error (a bug in harness-bench; please report it with the trace):\n`);
    io.stderr(`${trace}\n`);
    return exitCodeFor(fault);
  }
  const hint = (error as { hint?: unknown }).hint;
  const code = error instanceof HarnessBenchError ? ` [${error.code}]` : '';
  io.stderr(
    `harness-bench: ${FAULT_WORDS[fault]}${code}: ${(error as Error).message}\n` +
      (typeof hint === 'string' ? `  fix: ${hint}\n` : ''),
  );
  return exitCodeFor(fault);
}
