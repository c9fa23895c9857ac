/**
 * Writing report files atomically: each file is written to a temp name beside it and renamed,
 * so a failed run never leaves a half-written report.
 */
import { closeSync, mkdirSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { ResultsFile } from '../eval/results.ts';
import { renderMarkdown } from './markdown.ts';
import { renderJunit } from './junit.ts';
import { renderHtml } from './html.ts';
import { readCaseFile } from './case-file.ts';

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

/**
 * Writes {@link resultsJson}'s exact text to `file` atomically, case by case, so a 10,000-case
 * file never exists as one string in memory (it was the largest allocation of a large run).
 */
export function writeResultsJson(file: string, results: ResultsFile): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  const head = resultsJson({ ...results, cases: [] });
  const at = head.indexOf('\n  "cases": []');
  const fd = openSync(temp, 'w');
  try {
    if (at < 0 || results.cases.length === 0) writeSync(fd, head);
    else {
      writeSync(fd, `${head.slice(0, at)}\n  "cases": [`);
      for (const [i, c] of results.cases.entries())
        writeSync(fd, `${i === 0 ? '' : ','}\n    ${JSON.stringify(c, null, 2).replace(/\n/g, '\n    ')}`);
      writeSync(fd, `\n  ]${head.slice(at + '\n  "cases": []'.length)}`);
    }
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}

/**
 * Writes `results.json`, `report.md`, `junit.xml` and `report.html` into `dir`, one at a time;
 * the page embeds the sidecars under `dir` that the cases link to (`CaseResult.transcript`).
 */
export function writeReportDir(dir: string, results: ResultsFile): string[] {
  const files = ['results.json', 'report.md', 'junit.xml', 'report.html'].map((f) => path.join(dir, f));
  writeResultsJson(files[0]!, results);
  writeAtomic(files[1]!, renderMarkdown(results));
  writeAtomic(files[2]!, renderJunit(results));
  writeAtomic(
    files[3]!,
    renderHtml(results, (c) => (c.transcript ? readCaseFile(dir, c.transcript) : undefined)),
  );
  return files;
}
