/** The markdown report: summary, then one table row per case (for PR comments and CI summaries). */
import type { ResultsFile } from '../eval/results.ts';
import { findingsNote } from '../eval/replay/findings-note.ts';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Renders the results as markdown. */
export function renderMarkdown(results: ResultsFile): string {
  const s = results.summary;
  const lines = [
    '# harness-bench results',
    '',
    `${s.passed} passed, ${s.failed} failed, ${s.errored} errored of ${s.total} cases · configs: ${results.configs.map((c) => c.name).join(', ')}`,
    '',
    '| case | kind | config | status | stop reason | turns | tool calls | first failed check / findings |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const c of results.cases) {
    const findings = findingsNote(c);
    lines.push(
      `| ${cell(c.id)} | ${c.kind} | ${c.config} | ${c.status} | ${c.stopReason ?? '-'} | ${c.usage.turns} | ${c.usage.toolCalls} | ${cell(c.firstFailure ?? findings)} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
