/**
 * `npm run mutate:scores [report.json]`: per-folder mutation scores from StrykerJS's JSON report
 * (mutation-testing-elements schema; default `reports/mutation/mutation.json`, written by
 * `npm run mutate`), printed as a Markdown table for `docs/mutation.md`.
 *
 * Score = (killed + timeout) / (killed + timeout + survived + no coverage), Stryker's "total"
 * score; ignored, compile-error and runtime-error mutants are left out, as Stryker does. The
 * "without prose" column also leaves out StringLiteral mutants — most are error, log and
 * tool-result text a model reads (equivalent for behaviour by our rules in stryker.config.mjs);
 * the string mutants that are data are in the first column.
 * Exit 2 when the report is missing or is not a Stryker JSON report.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** One mutant as the JSON report holds it (the fields read here). */
export interface ReportMutant {
  mutatorName: string;
  status: 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError' | 'RuntimeError' | 'Ignored';
}

/** Counts of one folder. */
interface FolderCounts {
  killed: number;
  survived: number;
  timeout: number;
  noCoverage: number;
  ignored: number;
  errors: number;
  /** The same four counts without StringLiteral mutants. */
  behaviour: { detected: number; valid: number };
}

/** Counts per folder (`harness/loop`, …) from the report's files (paths relative to the project). */
function countByFolder(files: Record<string, { mutants: ReportMutant[] }>): Map<string, FolderCounts> {
  const folders = new Map<string, FolderCounts>();
  for (const [file, { mutants }] of Object.entries(files)) {
    const folder = file.split('/').slice(0, 2).join('/');
    const c = folders.get(folder) ?? {
      killed: 0,
      survived: 0,
      timeout: 0,
      noCoverage: 0,
      ignored: 0,
      errors: 0,
      behaviour: { detected: 0, valid: 0 },
    };
    for (const m of mutants) {
      if (m.status === 'Killed') c.killed++;
      else if (m.status === 'Survived') c.survived++;
      else if (m.status === 'Timeout') c.timeout++;
      else if (m.status === 'NoCoverage') c.noCoverage++;
      else if (m.status === 'Ignored') c.ignored++;
      else c.errors++;
      const valid = ['Killed', 'Survived', 'Timeout', 'NoCoverage'].includes(m.status);
      if (valid && m.mutatorName !== 'StringLiteral') {
        c.behaviour.valid++;
        if (m.status === 'Killed' || m.status === 'Timeout') c.behaviour.detected++;
      }
    }
    folders.set(folder, c);
  }
  return folders;
}

const percent = (part: number, whole: number) =>
  whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)}%`;

function row(name: string, c: FolderCounts): string {
  const valid = c.killed + c.timeout + c.survived + c.noCoverage;
  return `| ${name} | ${percent(c.killed + c.timeout, valid)} | ${percent(c.behaviour.detected, c.behaviour.valid)} | ${c.killed} | ${c.survived} | ${c.noCoverage} | ${c.timeout} | ${c.ignored} | ${c.errors} |`;
}

/**
 * The Markdown table of per-folder scores (first two path segments: `harness/loop`, …) and a
 * total row, from the report's `files` (paths relative to the project). Scores are percentages
 * with one decimal, `n/a` for a folder without valid mutants.
 */
export function folderTable(files: Record<string, { mutants: ReportMutant[] }>): string {
  const folders = countByFolder(files);
  const total: FolderCounts = {
    killed: 0,
    survived: 0,
    timeout: 0,
    noCoverage: 0,
    ignored: 0,
    errors: 0,
    behaviour: { detected: 0, valid: 0 },
  };
  const lines = [
    '| folder | score | without prose | killed | survived | no coverage | timeout | ignored | errors |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const [name, c] of [...folders].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    lines.push(row(name, c));
    for (const key of ['killed', 'survived', 'timeout', 'noCoverage', 'ignored', 'errors'] as const)
      total[key] += c[key];
    total.behaviour.detected += c.behaviour.detected;
    total.behaviour.valid += c.behaviour.valid;
  }
  lines.push(row('**all**', total));
  return `${lines.join('\n')}\n`;
}

function main(argv: string[]): number {
  const file = path.resolve(argv[0] ?? 'reports/mutation/mutation.json');
  if (!existsSync(file)) {
    process.stderr.write(`mutation-scores: ${file}: no report; run \`npm run mutate\` first\n`);
    return 2;
  }
  let report: { files?: Record<string, { mutants: ReportMutant[] }> };
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    process.stderr.write(`mutation-scores: ${file}: not JSON (${(error as Error).message})\n`);
    return 2;
  }
  if (!report.files || typeof report.files !== 'object') {
    process.stderr.write(`mutation-scores: ${file}: no "files" object; not a Stryker JSON report\n`);
    return 2;
  }
  process.stdout.write(folderTable(report.files));
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href)
  process.exitCode = main(process.argv.slice(2));
