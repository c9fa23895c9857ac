/**
 * `harness-bench import FILE... --out DIR`: every file is imported in memory first; only when
 * all succeed are the cassettes written (so a bad file leaves nothing half-written). Each line
 * says the detected format, the model exchanges and, indented below it, the non-model traffic
 * kept apart (never replayed). Secret findings are warnings on import (public fixtures keep some
 * addresses on purpose). A recording without model traffic is bad input (exit 2), and so is a
 * cassette that exists already, unless `--force` (every target is checked before any is written).
 */
import path from 'node:path';
import { saveCassette } from '../eval/cassette/load.ts';
import type { Cassette, NonModelTraffic } from '../eval/cassette/types.ts';
import { InputError, type InputProblem } from '../eval/errors.ts';
import { importRecordingDetailed } from '../eval/import/index.ts';
import { inputSizeProblem } from '../eval/input-limits.ts';
import type { CliIo } from './io.ts';
import { outputPathProblems } from './output-paths.ts';
import { existsSync } from 'node:fs';

/** Runs `import`; resolves with the exit code. @throws InputError (exit 2) */
export async function importCommand(
  files: readonly string[],
  options: { out: string; force?: boolean },
  io: CliIo,
): Promise<number> {
  const imported: { file: string; cassette: Cassette; format: string; warnings: string[] }[] = [];
  const problems: InputProblem[] = outputPathProblems(
    [{ flag: '--out', value: options.out, kind: 'dir' }],
    io.cwd,
  );
  for (const file of files) {
    const tooLarge = inputSizeProblem(path.resolve(io.cwd, file), 'cassette', file);
    if (tooLarge) {
      problems.push(tooLarge);
      continue;
    }
    try {
      const result = importRecordingDetailed(path.resolve(io.cwd, file));
      imported.push({ file, ...result });
    } catch (error) {
      if (error instanceof InputError) problems.push(...error.problems.map((p) => ({ ...p, file })));
      else problems.push({ file, path: '', reason: (error as Error).message });
    }
  }
  const outDir = path.resolve(io.cwd, options.out);
  const targets = new Map<string, string>();
  for (const item of imported) {
    const target = path.join(outDir, `${item.cassette.meta.id}.json`);
    const shown = path.relative(io.cwd, target) || target;
    const other = targets.get(target);
    if (other !== undefined)
      problems.push({
        file: item.file,
        path: '',
        reason: `imports to ${shown}, as ${other} does; rename one`,
      });
    else if (existsSync(target) && !options.force)
      problems.push({ file: item.file, path: '', reason: `${shown} exists; pass --force to overwrite it` });
    targets.set(target, item.file);
  }
  if (problems.length > 0) throw new InputError(problems);
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
