/**
 * What every command shares and nothing else: the injected input/output of a command and the
 * package version. Commands import these from here, never from `cli/main.ts` (which imports every
 * command), so the CLI has no import cycle.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../eval/config-load.ts';

/** The package version from `package.json` (semver text, e.g. `0.1.0`). */
export const VERSION: string = (
  JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

/** Where a command writes; injected so tests can capture output. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The folder relative paths are resolved against. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Whether stderr is a terminal (progress lines, colours). */
  isTTY: boolean;
  /** Terminal width in columns, when known. */
  columns?: number;
}

/**
 * Ends the process quietly when the reader of `stream` goes away (`EPIPE`, as in
 * `harness-bench report … --format html | head`): the output was not wanted any more, so there
 * is nothing to report, as with `cat` or `git log`. Any other stream error is rethrown (an
 * internal error, exit 3). Without a listener Node prints an unhandled `'error'` event with its
 * stack. `exit` is injected in tests; it receives no code, so the exit code set so far stays.
 */
export function endQuietlyOnBrokenPipe(
  stream: NodeJS.EventEmitter,
  exit: () => void = () => process.exit(),
): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') exit();
    else throw error;
  });
}

const guarded = new WeakSet<object>();

/** The real process's streams, working directory and environment. */
export function processIo(): CliIo {
  for (const stream of [process.stdout, process.stderr])
    if (!guarded.has(stream)) {
      guarded.add(stream);
      endQuietlyOnBrokenPipe(stream);
    }
  const io: CliIo = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    isTTY: Boolean(process.stderr.isTTY),
  };
  if (process.stdout.columns) io.columns = process.stdout.columns;
  return io;
}
