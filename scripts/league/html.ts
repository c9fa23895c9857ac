/**
 * `reports/league/league.html`: the league as one self-contained page (no script, inline CSS):
 * the header line, a table per tag and the per-peer summary. Kept apart from `report.html`
 * (which renders one results file) because the league joins several runs.
 */
import { escapeHtml } from '../../reports/html.ts';
import type { LeagueCell } from '../../reports/league-cells.ts';
import type { LeagueData, LeagueEntrantFigures } from './figures.ts';
import { peerSummary } from './render.ts';

function pct(rate: number | null): string {
  return rate === null ? '–' : `${Math.round(rate * 100)}%`;
}

function cells(cell: LeagueCell): string {
  if (cell.note !== undefined) return `<td colspan="5" class="note">${escapeHtml(cell.note)}</td>`;
  const asr =
    cell.attackSuccess.of === 0
      ? '–'
      : `${pct(cell.attackSuccess.rate)} (${cell.attackSuccess.count}/${cell.attackSuccess.of})`;
  const lost = cell.survived.count < cell.survived.of ? ' class="lost"' : '';
  return [
    `<td${lost}>${pct(cell.survived.rate)} (${cell.survived.count}/${cell.survived.of}${cell.skipped ? `, ${cell.skipped} skipped` : ''})</td>`,
    `<td${cell.attackSuccess.count > 0 ? ' class="lost"' : ''}>${asr}</td>`,
    `<td>${cell.unsupportedClaims}</td>`,
    `<td>${cell.loopStops}</td>`,
    `<td>${cell.notApplicable}</td>`,
  ].join('');
}

function table(
  title: string,
  entrants: readonly LeagueEntrantFigures[],
  pick: (e: LeagueEntrantFigures) => LeagueCell,
): string {
  const rows = entrants
    .map(
      (e) =>
        `<tr><th scope="row">${escapeHtml(e.kind === 'ours' ? `ours: ${e.name}` : e.name)}</th>${cells(pick(e))}</tr>`,
    )
    .join('\n');
  return `<h2>${escapeHtml(title)}</h2>\n<table><thead><tr><th>harness</th><th>survived</th><th>attack success</th><th>unsupported claims</th><th>loop stops</th><th>n/a checks</th></tr></thead>\n<tbody>${rows}</tbody></table>`;
}

/** Inline Markdown of the summary (`**x**`, `` `x` ``) to HTML, after escaping. */
function inline(text: string): string {
  return escapeHtml(text)
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** The whole page. */
export function leagueHtml(data: LeagueData): string {
  const m = data.machine;
  const sections = [
    table('The tags every harness runs', data.entrants, (e) => e.total),
    ...data.tags.map((t) =>
      table(
        `${t.tag} (${t.selected < t.library ? `${t.selected} of ${t.library}` : t.library} cases)`,
        data.entrants,
        (e) => e.byTag[t.tag]!,
      ),
    ),
  ];
  const peers = data.entrants.filter((e) => e.kind === 'adapter');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>harness-bench league ${escapeHtml(data.date)}</title>
<style>body{font:14px/1.4 system-ui,sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse;margin-bottom:1em}th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left}td.lost{background:#fde8e8}td.note{color:#666;font-style:italic}code{font-size:90%}</style>
</head><body>
<h1>harness-bench league</h1>
<p>${escapeHtml(`${data.date} · ${m.cpu} (${m.cores} cores, ${m.memoryGb} GB) · Node ${m.node} · ${m.platform} · ${Math.round(data.durationMs / 1000)} s`)}${data.perTag === null ? '' : escapeHtml(` · at most ${data.perTag} cases per tag`)}</p>
<p>Survived: the case passed, of those that ran. Foreign harnesses are scored as black boxes: checks that need our internals are counted as n/a, never as passed.</p>
${sections.join('\n')}
<h2>Which faults each peer survives</h2>
<ul>${peers.map((p) => `<li>${inline(peerSummary(p, true).replace(/^- /, ''))}</li>`).join('\n')}</ul>
</body></html>
`;
}
