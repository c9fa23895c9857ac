/**
 * `harness-bench import FILE... --out DIR`: every file is imported in memory first; only when
 * all succeed are the cassettes written (so a bad file leaves nothing half-written). Secret
 * findings are warnings on import (public fixtures keep some addresses on purpose).
 */
import path from 'node:path';
import { saveCassette } from '../eval/cassette/load.ts';
import type { Cassette } from '../eval/cassette/types.ts';
import { InputError, type InputProblem } from '../eval/errors.ts';
import { importRecordingDetailed } from '../eval/import/index.ts';
import type { CliIo } from './io.ts';

/** Runs `import`; resolves with the exit code. @throws InputError (exit 2) */
export async function importCommand(
  files: readonly string[],
  options: { out: string },
  io: CliIo,
): Promise<number> {
  const imported: { file: string; cassette: Cassette; format: string; warnings: string[] }[] = [];
  const problems: InputProblem[] = [];
  for (const file of files) {
    try {
      const result = importRecordingDetailed(path.resolve(io.cwd, file));
      imported.push({ file, ...result });
    } catch (error) {
      if (error instanceof InputError) problems.push(...error.problems.map((p) => ({ ...p, file })));
      else problems.push({ file, path: '', reason: (error as Error).message });
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  const outDir = path.resolve(io.cwd, options.out);
  for (const item of imported) {
    const target = path.join(outDir, `${item.cassette.meta.id}.json`);
    saveCassette(target, item.cassette);
    for (const warning of item.warnings) io.stderr(`warning: ${item.file}: ${warning}\n`);
    io.stdout(
      `imported ${item.file} (${item.format}, ${item.cassette.exchanges.length} exchanges) → ${path.relative(io.cwd, target) || target}\n`,
    );
  }
  return 0;
}
