/**
 * `report.md`, shaped for a pull-request comment: the summary per configuration (counts, pass
 * rate, attack success, utility with and without attack, tokens, cost), the metrics of each
 * configuration side by side, the comparisons against the reference, then only what needs a
 * look — regressions against the first configuration, then every other failed or errored case, each
 * with all its failed checks and the command that reproduces it — then skipped prerequisites. GitHub
 * rejects a comment over 65,536 characters ("Body is too long (maximum is 65536 characters)"),
 * so the text is cut at a whole line before that, with a note saying how much was left out.
 */
import type { CaseResult, ResultsFile } from '../eval/results.ts';
import { comparisonsOf, intervalTexts, pairLine } from './comparisons-view.ts';
import { metricRows, offDiagonal } from './metrics-text.ts';
import { countsText, skipGroups } from './table.ts';
import { configSummaries, failedCheckLines, regressions, reproduceCommand, shareText } from './summary.ts';

/** GitHub's limit on a comment body, in characters. */
export const COMMENT_LIMIT = 65_536;

/** Text outside code spans: table pipes escaped, HTML shown as text (GitHub renders inline HTML), one line. */
const cell = (text: string) =>
  text
    .replace(/[&<>]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[ch]!)
    .replace(/\|/g, '\\|')
    .replace(/\r?\n/g, ' ');
const code = (text: string) => `\`${text.replace(/`/g, "'").replace(/\r?\n/g, ' ')}\``;

/** The lines of one case needing a look: its id, status, stop reason, each failed check, the repro. */
function caseBlock(results: ResultsFile, c: CaseResult, note = ''): string[] {
  return [
    `- **${cell(c.id)}** (${c.config}): ${c.status}${note}, stop reason ${c.stopReason ?? '-'}`,
    ...failedCheckLines(c).map((line) => `  - ${cell(line)}`),
    `  - reproduce: ${code(reproduceCommand(results, c))}`,
  ];
}

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

/** Options of {@link renderMarkdown}. */
export interface MarkdownOptions {
  /** The cut, in characters. @default COMMENT_LIMIT */
  limit?: number;
}

/**
 * ` · harness: NAME (kind)` for a foreign harness, with the count of `not_applicable` checks
 * (`docs/adapters.md`); `''` for ours.
 */
function harnessText(results: ResultsFile): string {
  const h = results.harness;
  const na = results.summary.notApplicableChecks;
  const naText = na ? ` · ${na} check${na === 1 ? '' : 's'} not applicable` : '';
  const columns = results.configs.filter((c) => c.harness);
  if (columns.length > 0)
    return ` · harnesses: ${columns.map((c) => `${c.name} (${c.harness!.kind})`).join(', ')}${naText}`;
  return h && h.kind !== 'ours' ? ` · harness: ${h.name} (${h.kind})${naText}` : naText;
}

/** Renders the results as a pull-request comment (see the file comment). */
export function renderMarkdown(results: ResultsFile, options: MarkdownOptions = {}): string {
  const limit = options.limit ?? COMMENT_LIMIT;
  const s = results.summary;
  const head = [
    '# harness-bench results',
    '',
    `${countsText(s)} of ${s.total} cases · configs: ${results.configs.map((c) => c.name).join(', ')}${harnessText(results)}`,
    '',
    '| config | passed | failed | errored | skipped | pass rate | attack success | utility (no attack) | utility (under attack) | tokens | cost (USD) |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...configSummaries(results).map(
      (r) =>
        `| ${cell(r.name)} | ${r.counts.passed} | ${r.counts.failed} | ${r.counts.errored} | ${r.counts.skipped} | ${shareText(r.passRate)} | ${shareText(r.attackSuccess)} | ${shareText(r.utilityWithoutAttack)} | ${shareText(r.utilityUnderAttack)} | ${r.totalTokens} | ${r.costUsd.toFixed(4)} |`,
    ),
  ];
  head.push(...metricsSection(results));
  const compared = comparisonsOf(results);
  if (compared) {
    head.push('', `## Comparisons against ${cell(compared.reference)}`, '');
    for (const pair of compared.pairs) {
      const behaviour = pair.transitions.filter((t) => t.kind === 'behaviour').length;
      head.push(`- ${cell(pairLine(pair))}`);
      const intervals = intervalTexts(pair);
      if (intervals.length > 0)
        head.push(`  - paired bootstrap, mean difference: ${cell(intervals.join('; '))}`);
      if (behaviour > 0)
        head.push(`  - ${behaviour} cases pass or fail alike but behave differently (see report.html)`);
    }
    if (compared.modelNoise?.note) head.push('', `_${cell(compared.modelNoise.note)}_`);
  }
  const blocks: string[][] = [];
  const regressed = regressions(results);
  if (regressed.length > 0) {
    blocks.push(['', `## Regressions against ${regressed[0]!.baseline} (${regressed.length})`, '']);
    for (const r of regressed) blocks.push(caseBlock(results, r.result, ` (passes under ${r.baseline})`));
  }
  const listed = new Set(regressed.map((r) => r.result));
  const failed = results.cases.filter((c) => (c.status === 'fail' || c.status === 'error') && !listed.has(c));
  if (failed.length > 0) {
    blocks.push(['', `## ${listed.size > 0 ? 'Other failures' : 'Failures'} (${failed.length})`, '']);
    for (const c of failed) blocks.push(caseBlock(results, c));
  } else if (listed.size === 0) blocks.push(['', 'No failures.']);
  const groups = skipGroups(results.cases, results.configs.length > 1);
  if (groups.length > 0) {
    blocks.push(['', '## Skipped: prerequisites missing on this machine', '']);
    for (const g of groups)
      blocks.push([
        `- ${g.reason}  `,
        `  fix: ${g.fix || '-'}  `,
        `  cases: ${g.ids.map((id) => code(id)).join(', ')}`,
      ]);
  }
  return fitComment(head, blocks, limit);
}

/** Joins head and blocks, leaving out whole blocks from the first that would pass `limit`, with a note. */
function fitComment(head: string[], blocks: string[][], limit: number): string {
  let text = `${head.join('\n')}\n`;
  for (const [i, block] of blocks.entries()) {
    const next = `${block.join('\n')}\n`;
    const left = blocks.slice(i).filter((b) => b[0]?.startsWith('- ')).length;
    const note = `\n> **Truncated**: ${left} more ${left === 1 ? 'entry' : 'entries'} (cases and skip groups) left out to fit a pull-request comment (${limit.toLocaleString('en-US')} characters); the full report is in report.html and junit.xml.\n`;
    if (text.length + next.length + note.length > limit) {
      const rest = blocks.slice(i).reduce((n, b) => n + `${b.join('\n')}\n`.length, 0);
      if (text.length + rest <= limit)
        return (
          text +
          blocks
            .slice(i)
            .map((b) => `${b.join('\n')}\n`)
            .join('')
        );
      return text + note;
    }
    text += next;
  }
  return text;
}
