/**
 * The league section of `report.html`: with two columns or more (harnesses side by side, or
 * configurations), every column scored on one scale. The scale is the cases that *every* column
 * ran (none skipped them), so a harness that skipped a case it cannot be judged on (a limit it
 * does not honour, a tool it was not given) is neither helped nor hurt by it; each column's
 * skips are then listed apart, counted by reason. Per column: survived (passed, of the common
 * cases), attack success over the common injection cases, loop stops, unsupported completion
 * claims and checks not applicable (`./league-cells.ts`), and what the column was given (its
 * harness, and the limits it declares it honours when it is a foreign one).
 */
import type { CaseResult, ResultsFile } from '../eval/results.ts';
import { cellOf, type LeagueCell } from './league-cells.ts';
import { shareText } from './summary.ts';

/** One column's row of the league. */
export interface LeagueRow {
  column: string;
  /** `ours` or the foreign harness's name. */
  harness: string;
  cell: LeagueCell;
  /** The column's skipped cases by reason (first line of the reason), most frequent first. */
  skipped: { reason: string; count: number }[];
}

/** The league of a results file: the common cases and one row per column; `undefined` with fewer than two columns. */
export function leagueRows(results: ResultsFile): { common: number; rows: LeagueRow[] } | undefined {
  const columns = results.configs.map((c) => c.name);
  if (columns.length < 2) return undefined;
  const ranBy = new Map<string, Set<string>>();
  for (const c of results.cases)
    if (c.status !== 'skipped') ranBy.set(c.id, new Set([...(ranBy.get(c.id) ?? []), c.config]));
  const common = new Set([...ranBy].filter(([, ran]) => columns.every((n) => ran.has(n))).map(([id]) => id));
  const rows = results.configs.map(({ name, harness }): LeagueRow => {
    const mine = results.cases.filter((c) => c.config === name);
    const reasons = new Map<string, number>();
    for (const c of mine)
      if (c.status === 'skipped') {
        const reason = c.skip.reason.split('\n')[0]!;
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
      }
    return {
      column: name,
      harness: harness?.name ?? results.harness?.name ?? 'ours',
      cell: cellOf(
        mine.filter((c: CaseResult) => common.has(c.id)),
        common.size,
      ),
      skipped: [...reasons].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count),
    };
  });
  return { common: common.size, rows };
}

/** The section's HTML ('' with fewer than two columns); `esc` escapes text for HTML. */
export function leagueSection(results: ResultsFile, esc: (text: string) => string): string {
  const league = leagueRows(results);
  if (!league) return '';
  const body = league.rows
    .map(({ column, harness, cell, skipped }) => {
      const skips = skipped.map((s) => `${s.count} × ${s.reason}`).join('; ') || 'none';
      return `<tr><th>${esc(column)}</th><td>${esc(harness)}</td><td>${esc(shareText(cell.survived))}</td><td>${esc(shareText(cell.attackSuccess))}</td><td>${cell.loopStops}</td><td>${cell.unsupportedClaims}</td><td>${cell.notApplicable}</td><td class="dim">${esc(skips)}</td></tr>`;
    })
    .join('\n');
  return `<section id="league"><h2>League: every column on the ${league.common} cases all of them ran</h2>
<p class="dim">A case one column skipped (a limit its harness does not honour, a tool it was not given, a convention of ours) is left out for every column, so all rows count the same cases; each column's skips are listed by reason.</p>
<table class="summary"><thead><tr><th>column</th><th>harness</th><th>survived</th><th>attack success</th><th>loop stops</th><th>unsupported claims</th><th>checks n/a</th><th>skipped (by reason)</th></tr></thead>
<tbody>
${body}
</tbody></table></section>`;
}
