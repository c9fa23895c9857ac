/**
 * `harness-bench report RESULTS --format html|md|junit|table [--out FILE]`: re-renders one report
 * from a stored run (`results.json`, or the folder holding it), with the case sidecars beside it
 * when present (`cases/`, see `reports/case-file.ts`). Prints to stdout, or writes `--out`
 * atomically. Exit 0, or 2 when the results cannot be read or the format is unknown.
 */
import path from 'node:path';
import { type Command, Option } from 'commander';
import { readCaseFile } from '../reports/case-file.ts';
import { useColor } from '../reports/color.ts';
import { renderHtml } from '../reports/html.ts';
import { renderJunit } from '../reports/junit.ts';
import { renderMarkdown } from '../reports/markdown.ts';
import { renderTable } from '../reports/table.ts';
import { writeAtomic } from '../reports/write.ts';
import type { CliIo } from './io.ts';
import { checkOutputPaths } from './output-paths.ts';
import { readResults, showCommand } from './show-command.ts';

/** The formats `report` renders. */
export const REPORT_FORMATS = ['html', 'md', 'junit', 'table'] as const;

/** Flags of `report`. */
export interface ReportFlags {
  format: (typeof REPORT_FORMATS)[number];
  out?: string;
}

/** Runs `report`; resolves with the exit code. @throws InputError (exit 2) */
export async function reportCommand(where: string, flags: ReportFlags, io: CliIo): Promise<number> {
  const { dir, results } = readResults(path.resolve(io.cwd, where));
  checkOutputPaths(
    [flags.out === undefined ? undefined : { flag: '--out', value: flags.out, kind: 'file' }],
    io.cwd,
  );
  const toFile = flags.out !== undefined;
  const text =
    flags.format === 'html'
      ? renderHtml(results, (c) => (c.transcript ? readCaseFile(dir, c.transcript) : undefined))
      : flags.format === 'md'
        ? renderMarkdown(results)
        : flags.format === 'junit'
          ? renderJunit(results)
          : `${renderTable(results, { color: !toFile && useColor({ isTTY: io.isTTY }, io.env), ...(io.columns ? { width: io.columns } : {}) })}\n`;
  if (flags.out) {
    const file = path.resolve(io.cwd, flags.out);
    writeAtomic(file, text);
    io.stdout(`wrote ${path.relative(io.cwd, file) || file}\n`);
  } else io.stdout(text);
  return 0;
}

/**
 * Adds `show` and `report` to the program; `done` receives each command's exit code.
 * (Kept apart from `main.ts` so the two commands' options live beside their code.)
 */
export function addViewCommands(program: Command, io: CliIo, done: (code: number) => void): void {
  program
    .command('show')
    .description(
      'Print the turn-by-turn ledger of one case of a stored run: model turns, tool calls with arguments, verdicts with the deciding rule, results, stop reason, failed checks.',
    )
    .argument('<case>', 'case id (or a part of it that names one case)')
    .option('-c, --config <name>', 'the configuration (needed when the case ran under several)')
    .option(
      '--results <dir>',
      'the run folder (run --out) or its results.json (default: the out folder of harness-bench.config.yaml, else reports/latest)',
    )
    .action(async (id: string, options) => {
      done(await showCommand(id, options, io));
    });
  program
    .command('report')
    .description(
      'Re-render a report from a stored results.json (with the case sidecars beside it when present).',
    )
    .argument('<results>', 'results.json, or the run folder holding it')
    .addOption(
      new Option('--format <format>', 'the report to render').choices(REPORT_FORMATS).default('table'),
    )
    .option('-o, --out <file>', 'write to this file (default: stdout)')
    .action(async (where: string, options: ReportFlags) => {
      done(await reportCommand(where, options, io));
    });
}
