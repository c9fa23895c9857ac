/**
 * `harness-bench serve SCENARIO|CASSETTE [--port N] [--harness FILE|NAME] [--log FILE]`: the
 * scenario's scripted model, or the cassette's recorded responses, as an OpenAI-compatible
 * chat-completions endpoint on 127.0.0.1 (`eval/serve/server.ts`, `docs/adapters.md`), until
 * Ctrl-C. Prints the base URL and a line per request; on exit, how many turns were served and,
 * with `--log`, every request received as JSON. `--harness` applies an adapter file's tool
 * mapping. Pass-through recording (`--upstream URL --record OUT`) is `cli/serve-passthrough.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { resolveHarness, toolMapOf } from '../eval/adapters/load.ts';
import { declaresCassette, loadCassette } from '../eval/cassette/load.ts';
import { InputError } from '../eval/errors.ts';
import { loadScenarioFiles } from '../eval/suite.ts';
import {
  SERVE_API_KEY,
  startModelServer,
  type ModelServerOptions,
  type RecordedRequest,
} from '../eval/serve/server.ts';
import type { CliIo } from './io.ts';

/** Flags of `serve`. */
export interface ServeFlags {
  port?: string;
  harness?: string;
  log?: string;
}

function isCassetteFile(file: string): boolean {
  if (!file.toLowerCase().endsWith('.json')) return false;
  try {
    return declaresCassette(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return false;
  }
}

/** The source to serve: a cassette when the file declares itself one, else a scenario. @throws InputError */
async function loadSource(source: string, cwd: string): Promise<ModelServerOptions> {
  const file = path.resolve(cwd, source);
  if (isCassetteFile(file)) return { cassette: loadCassette(file) };
  const [loaded] = await loadScenarioFiles([source], cwd);
  if (!loaded) throw new InputError([{ file: source, path: '', reason: 'not a scenario or cassette file' }]);
  return { scenario: loaded.scenario };
}

function requestLine(request: RecordedRequest): string {
  const what =
    request.outcome === 'turn'
      ? `turn ${request.turn! + 1}${request.stream ? ' (stream)' : ''}`
      : request.outcome === 'exhausted'
        ? 'script exhausted'
        : request.outcome;
  return `${request.method} ${request.path} → ${request.status} ${what}`;
}

/**
 * Serves until `until` settles (default: SIGINT or SIGTERM) and returns exit code 0.
 * @throws InputError for a bad source file, port or adapter file (exit 2), before anything listens
 */
export async function serveCommand(
  source: string | undefined,
  flags: ServeFlags,
  io: CliIo,
  until?: Promise<unknown>,
): Promise<number> {
  if (!source)
    throw new InputError([{ file: 'serve', path: '', reason: 'name a SCENARIO or CASSETTE file to serve' }]);
  const port = flags.port === undefined ? 0 : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InputError([
      { file: '--port', path: '', reason: `must be an integer 0..65535, got ${flags.port}` },
    ]);
  const options = await loadSource(source, io.cwd);
  const harness = flags.harness ? resolveHarness(flags.harness, io.cwd) : undefined;
  const toolMap = harness && harness.kind !== 'ours' ? toolMapOf(harness) : undefined;
  const server = await startModelServer({
    ...options,
    port,
    ...(toolMap ? { toolMap } : {}),
    ...(harness && harness.kind !== 'ours' ? { model: harness.model } : {}),
    onRequest: (request) => io.stderr(`${requestLine(request)}\n`),
  });
  io.stdout(`${server.baseURL}\n`);
  io.stderr(
    `serving ${server.turns} ${options.cassette ? 'recorded exchanges' : 'scripted turns'} of ${source} at ${server.baseURL} (OPENAI_BASE_URL=${server.baseURL} OPENAI_API_KEY=${SERVE_API_KEY}); Ctrl-C stops\n`,
  );
  await (until ??
    new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }));
  await server.close();
  io.stderr(`served ${server.served()} of ${server.turns} turns to ${server.requests.length} requests\n`);
  if (flags.log)
    writeFileSync(path.resolve(io.cwd, flags.log), `${JSON.stringify(server.requests, null, 2)}\n`);
  return 0;
}
