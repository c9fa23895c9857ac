/** The markdown report: summary, one table row per case, the metrics (for PR comments and CI summaries). */
import type { ResultsFile } from '../eval/results.ts';
import { metricRows, offDiagonal } from './metrics-text.ts';
import { countsText, skipGroups } from './table.ts';
import { findingsNote } from './findings-note.ts';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/**
 * The metrics of every configuration side by side (one column each), then the confusion cells
 * off the diagonal (stop reasons and permission verdicts, expected → actual).
 */
function metricsSection(results: ResultsFile): string[] {
  const entries = Object.entries(results.summary.metrics ?? {});
  if (entries.length === 0) return [];
  const rows = entries.map(([, m]) => new Map(metricRows(m)));
  const labels = [...new Set(rows.flatMap((r) => [...r.keys()]))];
  const lines = [
    '',
    '## Metrics',
    '',
    `| metric | ${entries.map(([name]) => cell(name)).join(' | ')} |`,
    `|---|${entries.map(() => '---').join('|')}|`,
  ];
  for (const label of labels)
    lines.push(`| ${label} | ${rows.map((r) => cell(r.get(label) ?? '-')).join(' | ')} |`);
  for (const [name, m] of entries) {
    const stops = offDiagonal(m.stopReasons.matrix);
    const verdicts = offDiagonal(m.permissions.matrix);
    if (stops.length === 0 && verdicts.length === 0) continue;
    lines.push('', `### Confusion (${cell(name)}): expected → actual`, '');
    if (stops.length) lines.push(`- stop reasons: ${stops.join(', ')}`);
    if (verdicts.length) lines.push(`- permission verdicts: ${verdicts.join(', ')}`);
  }
  return lines;
}

/** Renders the results as markdown: summary, one row per case, the metrics, the skipped cases. */
export function renderMarkdown(results: ResultsFile): string {
  const s = results.summary;
  const lines = [
    '# harness-bench results',
    '',
    `${countsText(s)} of ${s.total} cases · configs: ${results.configs.map((c) => c.name).join(', ')}`,
    '',
    '| case | kind | config | status | stop reason | turns | tool calls | first failed check / findings |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const c of results.cases) {
    const findings = findingsNote(c);
    lines.push(
      `| ${cell(c.id)} | ${c.kind} | ${c.config} | ${c.status} | ${c.stopReason ?? '-'} | ${c.usage.turns} | ${c.usage.toolCalls} | ${cell(c.skip ? `needs ${c.skip.requires.join(', ')}: ${c.skip.reason}` : (c.firstFailure ?? findings))} |`,
    );
  }
  lines.push(...metricsSection(results));
  const groups = skipGroups(results.cases, results.configs.length > 1);
  if (groups.length > 0) {
    lines.push('', '## Skipped: prerequisites missing on this machine', '');
    for (const g of groups)
      lines.push(
        `- ${g.reason}  `,
        `  fix: ${g.fix || '-'}  `,
        `  cases: ${g.ids.map((id) => `\`${id}\``).join(', ')}`,
      );
  }
  return `${lines.join('\n')}\n`;
}
