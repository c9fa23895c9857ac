/**
 * `harness-bench import FILE... --out DIR`: every file is imported in memory first; only when
 * all succeed are the cassettes written (so a bad file leaves nothing half-written). Each line
 * says the detected format, the model exchanges and, indented below it, the non-model traffic
 * kept apart (never replayed). Secret findings are warnings on import (public fixtures keep some
 * addresses on purpose). A recording without model traffic is bad input (exit 2).
 */
import path from 'node:path';
import { saveCassette } from '../eval/cassette/load.ts';
import type { Cassette, NonModelTraffic } from '../eval/cassette/types.ts';
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
    const { exchanges, nonModel = [] } = item.cassette;
    const counts = `${exchanges.length} model exchange${exchanges.length === 1 ? '' : 's'}${nonModel.length > 0 ? `, ${nonModel.length} non-model` : ''}`;
    io.stdout(
      `imported ${item.file} (${item.format}, ${counts}) → ${path.relative(io.cwd, target) || target}\n`,
    );
    for (const line of nonModelLines(nonModel)) io.stdout(`  ${line}\n`);
  }
  return 0;
}

/**
 * One line per kind of non-model traffic, in first-seen order: the note, how many, and the
 * first request (`telemetry (trace export) ×2: POST https://telemetry.crewai.com:4319/v1/traces → 200`).
 */
function nonModelLines(nonModel: readonly NonModelTraffic[]): string[] {
  const groups = new Map<string, NonModelTraffic[]>();
  for (const item of nonModel) groups.set(item.note, [...(groups.get(item.note) ?? []), item]);
  return [...groups].map(([note, items]) => {
    const first = items[0]!;
    return `non-model, not replayed: ${note}${items.length > 1 ? ` ×${items.length}` : ''}: ${first.method} ${first.url} → ${first.status}`;
  });
}
