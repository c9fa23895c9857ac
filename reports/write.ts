/**
 * Writing report files atomically: each file is written to a temp name beside it and renamed,
 * so a failed run never leaves a half-written report.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ResultsFile } from '../eval/results.ts';
import { renderMarkdown } from './markdown.ts';
import { renderJunit } from './junit.ts';

/** Writes `text` to `file` atomically (temp file + rename), creating folders. */
export function writeAtomic(file: string, text: string): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}

/** The canonical JSON text of a results file (2-space indent, trailing newline). */
export function resultsJson(results: ResultsFile): string {
  return `${JSON.stringify(results, null, 2)}\n`;
}

/** Writes `results.json`, `report.md` and `junit.xml` into `dir`. */
export function writeReportDir(dir: string, results: ResultsFile): string[] {
  const files = [path.join(dir, 'results.json'), path.join(dir, 'report.md'), path.join(dir, 'junit.xml')];
  const texts = [resultsJson(results), renderMarkdown(results), renderJunit(results)];
  for (const [i, file] of files.entries()) writeAtomic(file, texts[i]!);
  return files;
}
