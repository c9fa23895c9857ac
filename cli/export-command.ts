/**
 * `harness-bench export --nock CASSETTE [--out FILE] [--scope URL]`: writes the cassette's
 * exchanges as nock definitions (JSON), for `nock.define()` in a user's own tests. Without
 * `--out` the JSON goes to stdout. Exit 0, or 2 on a broken cassette or flag, or an `--out`
 * that exists (unless `--force`) or cannot be written.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadCassette } from '../eval/cassette/load.ts';
import { InputError } from '../eval/errors.ts';
import { cassetteToNock } from '../eval/export/nock.ts';
import type { CliIo } from './io.ts';
import { checkOutputPaths } from './output-paths.ts';

/** Flags of `export`. */
export interface ExportFlags {
  nock?: string;
  out?: string;
  scope?: string;
  force?: boolean;
}

/** Runs `export`; resolves with the exit code. @throws InputError (exit 2) */
export async function exportCommand(flags: ExportFlags, io: CliIo): Promise<number> {
  if (!flags.nock)
    throw new InputError([
      {
        file: '(flags)',
        path: '--nock',
        reason: 'give the cassette to export: --nock CASSETTE (nock definitions are the one export format)',
      },
    ]);
  if (flags.scope !== undefined && !/^https?:\/\/[^/]+\/?$/.test(flags.scope))
    throw new InputError([
      {
        file: '(flags)',
        path: '--scope',
        reason: `must be an origin like http://127.0.0.1:1234, got ${JSON.stringify(flags.scope)}`,
      },
    ]);
  if (flags.out) {
    checkOutputPaths([{ flag: '--out', value: flags.out, kind: 'file' }], io.cwd);
    if (existsSync(path.resolve(io.cwd, flags.out)) && !flags.force)
      throw new InputError([
        { file: `--out ${flags.out}`, path: '', reason: 'exists; pass --force to overwrite it' },
      ]);
  }
  const cassette = loadCassette(path.resolve(io.cwd, flags.nock));
  const text = `${JSON.stringify(cassetteToNock(cassette, flags.scope ? { scope: flags.scope } : {}), null, 2)}\n`;
  if (!flags.out) {
    io.stdout(text);
    return 0;
  }
  const out = path.resolve(io.cwd, flags.out);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, text, 'utf8');
  io.stderr(`wrote ${cassette.exchanges.length} nock definitions to ${path.relative(io.cwd, out) || out}\n`);
  return 0;
}
