/**
 * `report.html`: one self-contained page (no remote resource: the CSS, the page script and
 * Chart.js 4's UMD build, MIT, its licence header kept, are inlined). It shows the summary per
 * configuration, charts of the metrics, the stop-reason and permission confusion matrices
 * (expected × observed, from the `stopReason` and `permissions.<call>` checks), and the case ×
 * configuration matrix; opening a case renders (lazily, from the embedded JSON) its failed checks,
 * the first diverging step and the command that reproduces it, the A/B decision diff, the
 * timeline of turns and calls per configuration, and the transcript. Every text from the results
 * is HTML-escaped; the data sits in a `<script type="application/json">` tag (`scriptJson`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CaseResult, ResultsFile } from '../eval/results.ts';
import type { CaseFile } from './case-file.ts';
import { comparisonsOf, headlineDeltas, intervalTexts } from './comparisons-view.ts';
import { pageData, scriptJson } from './html-data.ts';
import { countsText } from './table.ts';
import { leagueSection } from './league-section.ts';
import { configSummaries, shareText } from './summary.ts';

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[<>&"']/g,
    (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );
}

/** `reports/html/`: the page's stylesheet and script, beside this module or, bundled, at the package root. */
const ASSETS = [
  fileURLToPath(new URL('./html/', import.meta.url)),
  fileURLToPath(new URL('../reports/html/', import.meta.url)),
].find((dir) => existsSync(dir));

const asset = (name: string) => readFileSync(path.join(ASSETS ?? '', name), 'utf8');

/** Chart.js UMD build, read from node_modules (its MIT licence header comment included). */
function chartJs(): string {
  const main = createRequire(import.meta.url).resolve('chart.js');
  const text = readFileSync(path.join(path.dirname(main), 'chart.umd.min.js'), 'utf8');
  return text.replace(/<\/(script)/gi, '<\\/$1');
}

/** Expected × observed counts over the checks named `name` (or starting with `prefix`) of each configuration. */
function confusion(cases: readonly CaseResult[], match: (check: string) => boolean) {
  const matrix = new Map<string, Map<string, number>>();
  for (const c of cases) {
    if (c.status === 'error' || c.status === 'skipped') continue;
    for (const k of c.checks) {
      if (!match(k.name) || typeof k.expected !== 'string' || typeof k.observed !== 'string') continue;
      const row = matrix.get(k.expected) ?? new Map<string, number>();
      row.set(k.observed, (row.get(k.observed) ?? 0) + 1);
      matrix.set(k.expected, row);
    }
  }
  return matrix;
}

function matrixTable(title: string, matrix: Map<string, Map<string, number>>): string {
  if (matrix.size === 0)
    return `<div class="matrix"><h4>${escapeHtml(title)}</h4><p class="dim">no expectations</p></div>`;
  const rows = [...matrix.keys()].sort();
  const cols = [...new Set([...matrix.values()].flatMap((r) => [...r.keys()]))].sort();
  const head = cols.map((c) => `<th>${escapeHtml(c)}</th>`).join('');
  const body = rows
    .map(
      (r) =>
        `<tr><th>${escapeHtml(r)}</th>${cols
          .map((c) => {
            const n = matrix.get(r)?.get(c) ?? 0;
            return `<td class="${n === 0 ? 'zero' : r === c ? 'hit' : 'miss'}">${n}</td>`;
          })
          .join('')}</tr>`,
    )
    .join('');
  return `<div class="matrix"><h4>${escapeHtml(title)}</h4><table><thead><tr><th>expected ↓ / observed →</th>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
}

/** The comparisons section: per pair the paired table, McNemar's p, deltas, intervals and transitions. */
function comparisonsSection(results: ResultsFile): string {
  const compared = comparisonsOf(results);
  if (!compared) return '';
  const rows = compared.pairs
    .map(
      (p) =>
        `<tr><th>${escapeHtml(p.candidate)} vs ${escapeHtml(p.reference)}</th><td>${p.paired}</td><td class="${p.table.referenceOnly > 0 ? 'st fail' : ''}">${p.table.referenceOnly}</td><td>${p.table.candidateOnly}</td><td>${p.table.bothPass}</td><td>${p.table.bothFail}</td><td>${p.mcnemar.pValue.toPrecision(3)}</td><td>${escapeHtml(headlineDeltas(p).join('; '))}</td><td>${escapeHtml(intervalTexts(p).join('; '))}</td></tr>`,
    )
    .join('\n');
  const transitions = compared.pairs
    .map((p) => {
      const items = p.transitions
        .map(
          (t) =>
            `<li><span class="mono">${escapeHtml(t.id)}</span> <b>${escapeHtml(t.kind)}</b> (${escapeHtml(t.reference)} → ${escapeHtml(t.candidate)}): ${escapeHtml(t.changes.map((c) => `${c.field} ${c.reference ?? '-'} → ${c.candidate ?? '-'}`).join(', '))}</li>`,
        )
        .join('');
      return `<details class="transitions"><summary>${escapeHtml(p.candidate)} vs ${escapeHtml(p.reference)}: ${p.transitions.length} transitions</summary><ul>${items}</ul></details>`;
    })
    .join('\n');
  return `<section id="comparisons"><h2>Comparisons against ${escapeHtml(compared.reference)}</h2>
<table class="summary"><thead><tr><th>pair</th><th>paired</th><th>regressions</th><th>fixes</th><th>pass both</th><th>fail both</th><th>McNemar exact p</th><th>deltas</th><th>paired bootstrap (mean difference, interval)</th></tr></thead><tbody>
${rows}
</tbody></table>
${compared.modelNoise?.note ? `<p class="dim">${escapeHtml(compared.modelNoise.note)}</p>` : ''}
${transitions}</section>`;
}

/** Renders the page; `sidecar` returns a case's sidecar when there is one (see `case-file.ts`). */
export function renderHtml(
  results: ResultsFile,
  sidecar: (c: CaseResult) => CaseFile | undefined = () => undefined,
): string {
  const data = pageData(results, sidecar);
  const summaries = configSummaries(results);
  const summaryRows = summaries
    .map(
      (r) =>
        `<tr><th>${escapeHtml(r.name)}</th><td>${r.counts.passed}</td><td>${r.counts.failed}</td><td>${r.counts.errored}</td><td>${r.counts.skipped}</td><td>${escapeHtml(shareText(r.passRate))}</td><td>${escapeHtml(shareText(r.attackSuccess))}</td><td>${escapeHtml(shareText(r.utilityWithoutAttack))}</td><td>${escapeHtml(shareText(r.utilityUnderAttack))}</td><td>${r.totalTokens}</td><td>${r.toolCalls}</td><td>${r.costUsd.toFixed(4)}</td></tr>`,
    )
    .join('\n');
  const matrices = data.configs
    .map((name) => {
      const cases = results.cases.filter((c) => c.config === name);
      return `<div class="config-matrices"><h3>${escapeHtml(name)}</h3>${matrixTable(
        'stop reason',
        confusion(cases, (k) => k === 'stopReason'),
      )}${matrixTable(
        'permission verdict per call',
        confusion(cases, (k) => k.startsWith('permissions.')),
      )}</div>`;
    })
    .join('\n');
  const head = data.configs.map((n) => `<th>${escapeHtml(n)}</th>`).join('');
  const rows = data.cases
    .map((c, i) => {
      const cells = data.configs
        .map((n) => {
          const u = c.under[n];
          return u
            ? `<td class="st ${u.status}">${u.status}${u.firstDiverging ? ' <span class="delta" title="decisions differ from the first configuration">Δ</span>' : ''}</td>`
            : '<td class="st none">-</td>';
        })
        .join('');
      const attention = Object.values(c.under).some(
        (u) => u.status === 'fail' || u.status === 'error' || u.firstDiverging,
      );
      return `<tr class="case-row${attention ? ' attention' : ''}" data-index="${i}"><td><button type="button" class="case-id" data-index="${i}">${escapeHtml(c.id)}</button>${c.title ? `<div class="dim">${escapeHtml(c.title)}</div>` : ''}</td>${cells}</tr>\n<tr class="detail-row" data-index="${i}" hidden><td colspan="${data.configs.length + 1}"><div class="detail"></div></td></tr>`;
    })
    .join('\n');
  const chart = {
    configs: summaries.map((s) => s.name),
    counts: summaries.map((s) => s.counts),
    passRate: summaries.map((s) => s.passRate.rate),
    attackSuccess: summaries.map((s) => s.attackSuccess?.rate ?? null),
    utilityWithoutAttack: summaries.map((s) => s.utilityWithoutAttack?.rate ?? null),
    utilityUnderAttack: summaries.map((s) => s.utilityUnderAttack?.rate ?? null),
    tokens: summaries.map((s) => s.totalTokens),
    toolCalls: summaries.map((s) => s.toolCalls),
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>harness-bench results</title>
<style>${asset('page.css')}</style>
</head>
<body>
<header><h1>harness-bench results</h1><p>${escapeHtml(countsText(results.summary))} of ${results.summary.total} cases · ${data.cases.length} cases × ${data.configs.length} configurations · ${escapeHtml(results.tool.name)} ${escapeHtml(results.tool.version)}</p></header>
<section id="summary"><h2>Summary per configuration</h2>
<table class="summary"><thead><tr><th>config</th><th>passed</th><th>failed</th><th>errored</th><th>skipped</th><th>pass rate</th><th>attack success</th><th>utility (no attack)</th><th>utility (under attack)</th><th>tokens</th><th>tool calls</th><th>cost (USD)</th></tr></thead>
<tbody>
${summaryRows}
</tbody></table></section>
${comparisonsSection(results)}
${leagueSection(results, escapeHtml)}
<section id="charts"><h2>Metrics</h2><div class="charts"><div class="chart"><canvas id="chart-status"></canvas></div><div class="chart"><canvas id="chart-rates"></canvas></div><div class="chart"><canvas id="chart-usage"></canvas></div></div></section>
<section id="confusion"><h2>Confusion matrices</h2><div class="matrices">${matrices}</div></section>
<section id="cases"><h2>Cases</h2>
<p><input id="filter" type="search" placeholder="filter by case id" aria-label="filter by case id"> <label><input id="attention-only" type="checkbox"> only failures and decision changes</label> <span id="shown" class="dim"></span></p>
<table class="cases"><thead><tr><th>case</th>${head}</tr></thead>
<tbody>
${rows}
</tbody></table></section>
<script type="application/json" id="hb-data">${scriptJson(data)}</script>
<script type="application/json" id="hb-chart">${scriptJson(chart)}</script>
<script>${chartJs()}</script>
<script>${asset('page.js')}</script>
</body>
</html>
`;
}
