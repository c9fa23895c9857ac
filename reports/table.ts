/**
 * The terminal table (cli-table3): one row per case with id, kind, status, stop reason, turns,
 * tool calls, verdict counts and the first failed check (or, for recordings, the first
 * divergence), then a summary and the metrics of each configuration.
 */
import Table from 'cli-table3';
import type { CaseResult, ResultsFile, StatusCounts } from '../eval/results.ts';
import { palette } from './color.ts';
import { findingsNote } from './findings-note.ts';
import { metricRows } from './metrics-text.ts';

/** Options of {@link renderTable}. `width`: terminal columns. */
export interface TableOptions {
  color: boolean;
  width?: number;
  /** Rows at most: a larger suite lists only its cases that did not pass. @default {@link MAX_TABLE_ROWS} */
  maxRows?: number;
}

/**
 * Above this many cases the table lists only the cases that did not pass (at most this many);
 * the summary still counts every case. cli-table3's layout is quadratic in rows (a 10,000-row
 * table takes minutes), and nobody reads 10,000 passing rows: results.json and report.md list all.
 */
export const MAX_TABLE_ROWS = 500;

function verdictText(c: CaseResult): string {
  const v = c.verdicts;
  const parts: string[] = [];
  if (v.allow) parts.push(`${v.allow} allow`);
  if (v['ask:approved']) parts.push(`${v['ask:approved']} ask✓`);
  if (v['ask:denied']) parts.push(`${v['ask:denied']} ask✗`);
  if (v.deny) parts.push(`${v.deny} deny`);
  if (v.none) parts.push(`${v.none} none`);
  return parts.join(' ') || '-';
}

function note(c: CaseResult): string {
  if (c.skip)
    return c.skip.requires.length > 0
      ? `skipped, needs ${c.skip.requires.join(', ')}: ${c.skip.reason}`
      : `skipped: ${c.skip.reason}`;
  if (c.firstFailure) return c.firstFailure;
  return findingsNote(c);
}

/** Breaks an id into lines of at most `width` characters, after `/` or `-` where it can: ids are keys, never cut short. */
export function hardWrap(text: string, width: number): string {
  const lines: string[] = [];
  let rest = text;
  while (rest.length > width) {
    const window = rest.slice(0, width);
    const at = Math.max(window.lastIndexOf('/'), window.lastIndexOf('-'));
    const cut = at >= width / 2 ? at + 1 : width;
    lines.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  lines.push(rest);
  return lines.join('\n');
}

interface Column {
  head: string;
  width: number;
  cell: (r: CaseResult) => string;
}

/** Below this many terminal columns, the note moves to a row of its own under its case. */
export const NARROW_WIDTH = 120;

/**
 * The columns that fit in `width` terminal columns. Wide: case, kind, (config), status, stop
 * reason, turns, tools, verdicts and the note, the case id and the note sharing what the fixed
 * columns leave. Narrow (< {@link NARROW_WIDTH}): case, (config), status, stop reason, turns and
 * tools, and the note goes on a full-width row under its case.
 */
export function fitColumns(
  results: ResultsFile,
  width: number,
  status: (r: CaseResult) => string,
): { columns: Column[]; noteRows: boolean } {
  const multiConfig = results.configs.length > 1;
  const longestId = Math.max(4, ...results.cases.map((r) => r.id.length));
  const narrow = width < NARROW_WIDTH;
  const fixed: Column[] = [
    ...(narrow ? [] : [{ head: 'kind', width: 11, cell: (r: CaseResult) => r.kind }]),
    ...(multiConfig ? [{ head: 'config', width: 12, cell: (r: CaseResult) => r.config }] : []),
    { head: 'status', width: 8, cell: status },
    {
      head: 'stop reason',
      width: 22,
      // A foreign harness has no stop reason of ours: how it stopped calling the model, in parentheses.
      cell: (r) => r.stopReason ?? (r.harness?.ending ? `(${r.harness.ending.replaceAll('_', ' ')})` : '-'),
    },
    { head: 'turns', width: 7, cell: (r) => String(r.usage.turns) },
    { head: 'tools', width: 7, cell: (r) => String(r.usage.toolCalls) },
    ...(narrow ? [] : [{ head: 'verdicts', width: 24, cell: verdictText }]),
  ];
  const used = fixed.reduce((n, col) => n + col.width + 1, 1);
  if (narrow) {
    const idWidth = Math.max(16, width - used - 1);
    return {
      columns: [{ head: 'case', width: idWidth, cell: (r) => hardWrap(r.id, idWidth - 2) }, ...fixed],
      noteRows: true,
    };
  }
  const rest = Math.max(44, width - used - 2);
  const idWidth = Math.min(longestId + 2, Math.max(24, Math.floor(rest * 0.45)));
  return {
    columns: [
      { head: 'case', width: idWidth, cell: (r) => hardWrap(r.id, idWidth - 2) },
      ...fixed,
      { head: 'first failed check / findings', width: Math.max(20, rest - idWidth), cell: note },
    ],
    noteRows: false,
  };
}

/** Renders the table and the summary lines. `options.width` defaults to 160 columns. */
export function renderTable(results: ResultsFile, options: TableOptions): string {
  const c = palette(options.color);
  const multiConfig = results.configs.length > 1;
  const status = (r: CaseResult) =>
    r.status === 'pass'
      ? c.green('pass')
      : r.status === 'fail'
        ? c.red('FAIL')
        : r.status === 'skipped'
          ? c.cyan('skip')
          : c.yellow('ERROR');
  const { columns, noteRows } = fitColumns(results, Math.max(60, options.width ?? 160), status);
  const table = new Table({
    head: columns.map((col) => c.bold(col.head)),
    style: { head: [], border: [] },
    wordWrap: true,
    colWidths: columns.map((col) => col.width),
  });
  const maxRows = options.maxRows ?? MAX_TABLE_ROWS;
  const shown =
    results.cases.length <= maxRows
      ? results.cases
      : results.cases.filter((r) => r.status !== 'pass').slice(0, maxRows);
  for (const r of shown) {
    table.push(columns.map((col) => col.cell(r)));
    const text = note(r);
    if (noteRows && text && !/^0 divergences$/.test(text) && (r.status !== 'pass' || r.kind === 'recording'))
      table.push([{ colSpan: columns.length, content: c.dim(`↳ ${text}`) }]);
  }
  const s = results.summary;
  const lines = shown.length > 0 ? [table.toString(), ''] : [];
  if (shown.length < results.cases.length)
    lines.push(
      c.dim(
        `${results.cases.length - shown.length} of ${results.cases.length} cases not listed (above ${maxRows} cases the table lists only cases that did not pass, at most ${maxRows}; results.json and report.md list every case)`,
      ),
    );
  const kinds = (['scenario', 'recording'] as const)
    .filter((k) => s.byKind[k].total > 0)
    .map((k) => `${s.byKind[k].total} ${k}s: ${countsText(s.byKind[k])}`);
  lines.push(kinds.join(' · '));
  if (multiConfig)
    for (const [name, b] of Object.entries(s.byConfig))
      lines.push(
        `  config ${name}: ${b.passed}/${b.total - b.skipped} passed${b.skipped ? `, ${b.skipped} skipped` : ''}`,
      );
  for (const [name, metrics] of Object.entries(s.metrics ?? {})) {
    // An adapter run's row names the harness under test, not only the configuration it was given.
    const who = results.harness && results.harness.kind !== 'ours' ? `${results.harness.name}, ` : '';
    lines.push(c.bold(`metrics (${who}${name})`));
    const rows = metricRows(metrics);
    const width = Math.max(...rows.map(([label]) => label.length));
    for (const [label, value] of rows) lines.push(`  ${label.padEnd(width)}  ${value}`);
  }
  lines.push(...skippedLines(results, c));
  const verdict =
    s.failed > 0 || s.errored > 0
      ? c.red(`${s.failed} FAILED, ${s.errored} ERRORED`)
      : s.passed === 0
        ? c.yellow('NOTHING RAN')
        : s.skipped > 0
          ? c.green(`PASSED, ${s.skipped} SKIPPED`)
          : c.green('ALL PASSED');
  lines.push(`${verdict}: ${countsText(s)} of ${s.total} in ${(results.durationMs / 1000).toFixed(1)} s`);
  return lines.join('\n');
}

/** `3 passed, 0 failed, 0 errored` and `, 2 skipped` when any were. */
export function countsText(g: StatusCounts): string {
  return `${g.passed} passed, ${g.failed} failed, ${g.errored} errored${g.skipped ? `, ${g.skipped} skipped` : ''}`;
}

/**
 * The skipped cases grouped by reason and fix, in case order, each with its case ids (and
 * configuration when `withConfig`). Empty when nothing was skipped.
 */
export function skipGroups(
  cases: readonly CaseResult[],
  withConfig = false,
): { reason: string; fix: string; ids: string[] }[] {
  const groups = new Map<string, { reason: string; fix: string; ids: string[] }>();
  for (const r of cases) {
    if (r.status !== 'skipped' || !r.skip) continue;
    const key = `${r.skip.reason}\u0000${r.skip.fix}`;
    const group = groups.get(key) ?? { reason: r.skip.reason, fix: r.skip.fix, ids: [] };
    group.ids.push(withConfig ? `${r.id} (${r.config})` : r.id);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/**
 * What the skips are, for the headline: prerequisites missing on this machine (a case that
 * declares what it `requires`), cases that do not judge the harness under test (no `requires`:
 * its conventions, its limits, its tools), or both.
 */
function skipHeadline(cases: readonly CaseResult[]): string {
  const skipped = cases.filter((r) => r.status === 'skipped' && r.skip);
  const missing = skipped.filter((r) => r.skip!.requires.length > 0).length;
  const notFor = skipped.length - missing;
  if (notFor === 0) return 'prerequisites missing on this machine';
  if (missing === 0) return 'cases that do not apply to this harness';
  return `${missing} for prerequisites missing on this machine, ${notFor} that do not apply to this harness`;
}

function skippedLines(results: ResultsFile, c: ReturnType<typeof palette>): string[] {
  const groups = skipGroups(results.cases, results.configs.length > 1);
  if (groups.length === 0) return [];
  const count = groups.reduce((n, g) => n + g.ids.length, 0);
  const lines = [
    c.cyan(`${count} skipped (counted neither as passed nor as failed): ${skipHeadline(results.cases)}`),
  ];
  for (const g of groups) lines.push(`  ${g.reason}`, `    fix: ${g.fix || '-'}`, `    ${g.ids.join(', ')}`);
  return lines;
}
