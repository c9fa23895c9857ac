/**
 * `harness-bench serve --upstream URL --record OUT.json [--port N] [--api-key-env NAME] [--force]
 * [--exec -- CMD ARGS…]`: the endpoint in pass-through mode (`eval/serve/passthrough.ts`). A
 * foreign harness pointed at the printed base URL talks to the real provider through it, and the
 * session becomes a cassette (`docs/recording-format.md`, "Recording a foreign harness").
 *
 * Without `--exec` it serves until Ctrl-C or SIGTERM, then writes the cassette. With `--exec`
 * it starts the harness command itself (cwd: the current folder; env: `OPENAI_BASE_URL`,
 * `OPENAI_API_BASE`, `HARNESS_BASE_URL` = the endpoint, `OPENAI_API_KEY`, `HARNESS_API_KEY` = a
 * dummy; the real key's variable removed), waits for it to exit and writes the cassette. The key
 * comes from `OPENAI_API_KEY` or `--api-key-env NAME` and is never written anywhere.
 *
 * Exit codes: 0 written (and the command, if any, exited 0); 1 nothing recorded, or the command
 * failed (the cassette is still written); 2 bad input before anything started (`--record`
 * exists without `--force`, cannot be written, a bad flag, a command that cannot be started) or
 * a cassette the secret scan refuses (nothing written).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { saveCassette } from '../eval/cassette/load.ts';
import type { Cassette } from '../eval/cassette/types.ts';
import { InputError } from '../eval/errors.ts';
import { idFromFileName } from '../eval/import/common.ts';
import { parseRate } from '../eval/record/rate-limit.ts';
import { RecordRefusedError } from '../eval/record/session-recorder.ts';
import {
  NothingRecordedError,
  type PassthroughServer,
  startPassthroughServer,
} from '../eval/serve/passthrough.ts';
import type { CliIo } from './io.ts';
import { checkOutputPaths } from './output-paths.ts';

/** Flags of the pass-through mode (`serve --upstream …`). */
export interface PassthroughFlags {
  /** The provider's base URL, e.g. `https://api.openai.com/v1`. */
  upstream?: string;
  /** The cassette to write. */
  record?: string;
  /** Port on 127.0.0.1 (text from the command line). @default a free port */
  port?: string | number;
  /** The environment variable holding the provider key. @default OPENAI_API_KEY */
  apiKeyEnv?: string;
  force?: boolean;
  /** Start the command given in {@link PassthroughFlags.command}. */
  exec?: boolean;
  /** The harness command and its arguments (the words after `--`). */
  command?: string[];
  /** Requests forwarded at once. @default 8 */
  concurrency?: string | number;
  /** Request starts over time, e.g. `60/min` (`parseRate`). */
  rate?: string;
  /** Cassette title. */
  title?: string;
}

/** Injected in tests. */
export interface PassthroughHooks {
  /** The fetch that reaches the upstream. */
  fetch?: typeof globalThis.fetch;
  /** Resolves (with the signal's name) when the user asks to stop. @default SIGINT or SIGTERM */
  stop?: () => Promise<string>;
  /** Called once the endpoint listens. */
  onListening?: (baseURL: string) => void;
  /** The `--exec` command's stdin. @default 'inherit' */
  stdin?: 'inherit' | 'ignore';
}

/** The key a harness started by `--exec` gets; the endpoint swaps in the real one. */
export const DUMMY_API_KEY = 'harness-bench-passthrough';

/** How long an `--exec` command may take to exit after a forwarded stop signal before it is killed, in ms. */
const EXIT_GRACE_MS = 10_000;

/** How long an `--exec` command gets to stop on the terminal's own Ctrl-C before SIGINT is forwarded, in ms. */
const SIGINT_GRACE_MS = 2_000;

/**
 * Adds the pass-through flags and the `[command...]` operand to a commander command (`serve`,
 * which dispatches here on `--upstream`). Flags the command already has (`serve --port`) are left
 * as they are.
 */
export function addPassthroughOptions(command: Command): Command {
  const flags: [string, string][] = [
    ['--upstream <url>', 'pass-through mode: the provider base URL, e.g. https://api.openai.com/v1'],
    ['--record <file>', 'pass-through mode: the cassette to write'],
    ['--port <n>', 'port on 127.0.0.1 (default: a free port)'],
    [
      '--api-key-env <name>',
      'pass-through mode: the variable holding the provider key (default: OPENAI_API_KEY)',
    ],
    ['--force', 'pass-through mode: overwrite --record if it exists'],
    [
      '--exec',
      'pass-through mode: start the harness command given after --, wait for it, write the cassette',
    ],
    ['--concurrency <n>', 'pass-through mode: requests forwarded at once (default 8)'],
    ['--rate <n/unit>', 'pass-through mode: request starts over time, e.g. 60/min, 2/s'],
    ['--title <text>', 'pass-through mode: cassette title'],
  ];
  for (const [flag, description] of flags)
    if (!command.options.some((o) => o.long === flag.split(' ')[0])) command.option(flag, description);
  return command.argument('[command...]', 'with --exec: the harness command and its arguments, after --');
}

/** Runs the pass-through mode; resolves with the exit code. @throws InputError (exit 2) before anything starts */
export async function servePassthrough(
  flags: PassthroughFlags,
  io: CliIo,
  hooks: PassthroughHooks = {},
): Promise<number> {
  const setup = checkFlags(flags, io);
  const keyName = flags.apiKeyEnv ?? 'OPENAI_API_KEY';
  const apiKey = io.env[keyName] || undefined;
  let server: PassthroughServer;
  try {
    server = await startPassthroughServer({
      upstream: setup.upstream,
      ...(apiKey ? { apiKey } : {}),
      ...(setup.port !== undefined ? { port: setup.port } : {}),
      ...(setup.concurrency !== undefined ? { concurrency: setup.concurrency } : {}),
      ...(setup.rate !== undefined ? { ratePerSecond: setup.rate } : {}),
      env: io.env,
      secrets: [DUMMY_API_KEY],
      ...(hooks.fetch ? { fetch: hooks.fetch } : {}),
      onExchange: (s) =>
        io.stderr(
          `  #${s.index + 1} ${s.method} ${s.path} → ${s.status}${s.stream ? ' (stream)' : ''}${s.end === 'complete' ? '' : ` [${s.end}]`}\n`,
        ),
    });
  } catch (error) {
    throw new InputError([
      { file: `--port ${flags.port ?? 0}`, path: '', reason: `cannot listen: ${(error as Error).message}` },
    ]);
  }
  const shown = path.relative(io.cwd, setup.out) || setup.out;
  hooks.onListening?.(server.baseURL);
  if (!apiKey)
    io.stderr(
      `note: no ${keyName} set; the harness's own credentials are forwarded (fine for local servers)\n`,
    );
  io.stdout(
    `pass-through endpoint: ${server.baseURL} → ${setup.upstream}\nrecording into ${shown}${setup.command ? '' : '; Ctrl-C (or SIGTERM) writes the cassette'}\n`,
  );
  let outcome: { code: number | null; signal: string | null } | undefined;
  const stop = stopRequest(hooks);
  try {
    if (setup.command) {
      const started = await runCommand(setup.command, server.baseURL, keyName, io, hooks, stop.wait);
      if ('error' in started)
        throw new InputError([
          { file: '--exec', path: '', reason: `cannot start ${setup.command[0]}: ${started.error}` },
        ]);
      outcome = started;
    } else {
      const signal = await stop.wait;
      io.stderr(`${signal}: stopping and writing the cassette…\n`);
    }
  } finally {
    stop.dispose();
    await server.close();
  }
  return writeCassette(server, setup, flags, io, outcome);
}

interface Setup {
  upstream: string;
  out: string;
  port?: number;
  concurrency?: number;
  rate?: number;
  command?: string[];
}

/** Every flag checked, and the output path, before anything starts. @throws InputError */
function checkFlags(flags: PassthroughFlags, io: CliIo): Setup {
  const problem = (flag: string, reason: string) => new InputError([{ file: '(flags)', path: flag, reason }]);
  if (!flags.upstream)
    throw problem('--upstream', 'give the provider base URL, e.g. https://api.openai.com/v1');
  if (!/^https?:\/\/[^/\s]+/.test(flags.upstream) || !URL.canParse(flags.upstream))
    throw problem('--upstream', `must be an http(s) base URL, got ${JSON.stringify(flags.upstream)}`);
  if (!flags.record) throw problem('--record', 'give the cassette to write: --record OUT.json');
  const port = flags.port === undefined ? undefined : Number(flags.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65_535))
    throw problem('--port', `must be a port number 0-65535, got ${JSON.stringify(flags.port)}`);
  const concurrency = flags.concurrency === undefined ? undefined : Number(flags.concurrency);
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency >= 1))
    throw problem('--concurrency', `must be a positive integer, got ${JSON.stringify(flags.concurrency)}`);
  if (flags.apiKeyEnv !== undefined && !io.env[flags.apiKeyEnv])
    throw problem('--api-key-env', `the variable ${flags.apiKeyEnv} is not set (or empty)`);
  const command = flags.command && flags.command.length > 0 ? flags.command : undefined;
  if (flags.exec && !command)
    throw problem('--exec', 'give the harness command after --, e.g. --exec -- python3 my_agent.py');
  if (command && !flags.exec)
    throw problem(
      '--exec',
      `unexpected ${JSON.stringify(command.join(' '))}: to start a command, write --exec -- CMD ARGS…`,
    );
  checkOutputPaths([{ flag: '--record', value: flags.record, kind: 'file' }], io.cwd);
  const out = path.resolve(io.cwd, flags.record);
  if (existsSync(out) && !flags.force)
    throw new InputError([
      { file: `--record ${flags.record}`, path: '', reason: 'exists; pass --force to overwrite it' },
    ]);
  return {
    upstream: flags.upstream,
    out,
    ...(port !== undefined ? { port } : {}),
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(flags.rate !== undefined ? { rate: parseRate(flags.rate) } : {}),
    ...(command ? { command } : {}),
  };
}

/**
 * Starts the harness command with the endpoint in its environment, relays its output, forwards
 * SIGINT/SIGTERM to it, and resolves when it exits (or with the spawn error).
 */
function runCommand(
  command: string[],
  baseURL: string,
  keyName: string,
  io: CliIo,
  hooks: PassthroughHooks,
  stop: Promise<string>,
): Promise<{ code: number | null; signal: string | null } | { error: string }> {
  const env: NodeJS.ProcessEnv = { ...io.env };
  delete env[keyName];
  Object.assign(env, {
    OPENAI_BASE_URL: baseURL,
    OPENAI_API_BASE: baseURL,
    HARNESS_BASE_URL: baseURL,
    OPENAI_API_KEY: DUMMY_API_KEY,
    HARNESS_API_KEY: DUMMY_API_KEY,
  });
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(command[0]!, command.slice(1), {
        cwd: io.cwd,
        env,
        stdio: [hooks.stdin ?? 'inherit', 'pipe', 'pipe'],
      });
    } catch (error) {
      resolve({ error: (error as Error).message });
      return;
    }
    child.stdout?.on('data', (data: Buffer) => io.stdout(data.toString('utf8')));
    child.stderr?.on('data', (data: Buffer) => io.stderr(data.toString('utf8')));
    let killTimer: NodeJS.Timeout | undefined;
    let forwardTimer: NodeJS.Timeout | undefined;
    const running = () => child.exitCode === null && child.signalCode === null;
    void stop.then((signal) => {
      if (!running()) return;
      io.stderr(`${signal}: stopping ${command[0]}…\n`);
      // Ctrl-C in a terminal reaches the command too (one process group): give it a moment to stop
      // on its own before sending the signal again, which many runtimes take as "exit now".
      forwardTimer = setTimeout(
        () => {
          if (!running()) return;
          child.kill(signal as NodeJS.Signals);
          killTimer = setTimeout(() => child.kill('SIGKILL'), EXIT_GRACE_MS);
        },
        signal === 'SIGINT' ? SIGINT_GRACE_MS : 0,
      );
    });
    child.once('error', (error) => resolve({ error: error.message }));
    child.once('close', (code, signal) => {
      clearTimeout(killTimer);
      clearTimeout(forwardTimer);
      resolve({ code, signal });
    });
  });
}

/**
 * Waits for SIGINT or SIGTERM, whichever comes first (the handlers keep the process from dying
 * meanwhile); `dispose` removes them.
 */
function stopSignal(): { wait: Promise<string>; dispose: () => void } {
  let dispose = () => {};
  const wait = new Promise<string>((resolve) => {
    const onInt = () => finish('SIGINT');
    const onTerm = () => finish('SIGTERM');
    dispose = () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    };
    const finish = (signal: string) => {
      dispose();
      resolve(signal);
    };
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
  return { wait, dispose };
}

/** The stop request of {@link PassthroughHooks.stop}, or the process signals. */
function stopRequest(hooks: PassthroughHooks): { wait: Promise<string>; dispose: () => void } {
  return hooks.stop ? { wait: hooks.stop(), dispose: () => {} } : stopSignal();
}

/** Builds, checks and writes the cassette; prints the summary. */
function writeCassette(
  server: PassthroughServer,
  setup: Setup,
  flags: PassthroughFlags,
  io: CliIo,
  outcome: { code: number | null; signal: string | null } | undefined,
): number {
  const shown = path.relative(io.cwd, setup.out) || setup.out;
  const who = setup.command ? `${setup.command.join(' ')} ` : '';
  const exited = outcome
    ? `${who}exited ${outcome.signal ? `on ${outcome.signal}` : `with code ${outcome.code}`}`
    : undefined;
  for (const note of server.notes) io.stderr(`warning: ${note}\n`);
  const all = server.exchanges;
  for (const { index, end } of server.incomplete()) {
    const request = all[index]?.request;
    io.stderr(
      `warning: exchange ${index + 1} (${request?.method} ${request?.path}) was cut off (${end}); kept as far as it got\n`,
    );
  }
  let cassette: Cassette;
  try {
    cassette = server.cassette({
      id: idFromFileName(setup.out),
      file: path.basename(setup.out),
      ...(flags.title ? { title: flags.title } : {}),
    });
  } catch (error) {
    if (error instanceof NothingRecordedError) {
      io.stderr(
        `harness-bench: nothing was recorded: ${error.message}; ${shown} was not written${exited ? ` (${exited})` : ''}\n`,
      );
      return 1;
    }
    if (error instanceof RecordRefusedError) {
      io.stderr(
        `harness-bench: refusing to write ${shown}: ${error.message}\nNothing was written. Remove the secret at its source (the harness's prompt or tools, the environment, the provider's response) and record again.\n`,
      );
      return 2;
    }
    throw error;
  }
  saveCassette(setup.out, cassette);
  const streamed = cassette.exchanges.filter((e) => e.response.events).length;
  const errors = cassette.exchanges.filter((e) => e.response.status >= 400).length;
  const others = cassette.nonModel?.length ?? 0;
  const n = cassette.exchanges.length;
  io.stdout(
    `${[
      `recorded ${n} model exchange${n === 1 ? '' : 's'} (${streamed} streamed, ${errors} error status${errors === 1 ? '' : 'es'}${others > 0 ? `, ${others} non-model request${others === 1 ? '' : 's'} listed, not replayed` : ''}) → ${shown}`,
      ...(exited ? [exited] : []),
      // A pass-through recording is a foreign harness's session: it replays against that
      // harness (its next version as its regression test); `replay` would run ours on it.
      `replay it offline against your harness with: harness-bench run -r ${shown} --harness ADAPTER.json`,
      `(or against ours: harness-bench replay ${shown})`,
    ].join('\n')}\n`,
  );
  return outcome && (outcome.code !== 0 || outcome.signal) ? 1 : 0;
}
