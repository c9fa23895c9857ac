/** The markdown report: summary, then one table row per case (for PR comments and CI summaries). */
import type { ResultsFile } from '../eval/results.ts';
import { countsText, skipGroups } from './table.ts';
import { findingsNote } from './findings-note.ts';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Renders the results as markdown. */
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
