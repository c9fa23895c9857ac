import type { StopReason } from '../harness/loop/stop-reasons.ts';
/**
 * The terminal view of a run with two configurations or more: one case × configuration matrix
 * (rows cases, columns configurations, each cell the status and the stop reason's short form,
 * marked where the case changed against the reference: ▼ regression, ▲ fix, ~ behaviour change
 * with the same outcome, ↓ skipped under one side), then the failures one per line, the summary
 * of each configuration with its key metrics, and the statistics of each pair (McNemar's exact
 * p, paired bootstrap intervals) from `results.comparisons` (`eval/compare/types.ts`).
 *
 * Compact mode lists only the rows with a failure, an error, a skip or a transition. It is the
 * default above {@link COMPACT_ABOVE} cases (`--compact` forces it, `--full` turns it off): the
 * content never depends on whether stdout is a terminal, so a CI log shows what a developer sees.
 */
import Table from 'cli-table3';
import type { CaseTransition, PairComparison } from '../eval/compare/types.ts';
import type { CaseResult, ResultsFile } from '../eval/results.ts';
import { palette } from './color.ts';
import { hardWrap } from './table.ts';
import { counted } from './words.ts';

/** Above this many cases (rows), the matrix is compact unless `compact: false`. */
export const COMPACT_ABOVE = 30;

/** Options of {@link renderMatrix}. `width`: terminal columns; `compact`: see the file comment. */
export interface MatrixOptions {
  color: boolean;
  width?: number;
  compact?: boolean;
}

/**
 * Stop reasons in a few characters (the legend under the matrix spells them out); typed over
 * every {@link StopReason}, so a new stop reason without a short form does not compile.
 */
export const STOP_SHORT: Record<StopReason, string> = {
  final_answer: 'final',
  max_turns: 'turns',
  tool_budget_exceeded: 'tool-budget',
  token_budget_exceeded: 'token-budget',
  cost_budget_exceeded: 'cost-budget',
  time_budget_exceeded: 'time-budget',
  repeated_tool_call: 'loop',
  policy_violation: 'policy',
  human_cancelled: 'cancelled',
  model_error: 'model-error',
  context_overflow: 'context-full',
  output_truncated: 'truncated',
  content_filter: 'filtered',
};

const MARK: Record<CaseTransition['kind'], string> = { regression: '▼', fix: '▲', behaviour: '~', skip: '↓' };

/** `+12`, `-0.5`, `0` (6 significant digits at most). */
export function signed(n: number | null, digits = 6): string {
  if (n === null) return '-';
  const v = Number(n.toPrecision(digits));
  return v > 0 ? `+${v}` : String(v);
}

/** `0.0703` / `<0.0001`: a p-value as people read it. */
export function pText(p: number): string {
  return p < 0.0001 ? '<0.0001' : String(Number(p.toPrecision(3)));
}

/** The rows of the matrix: case ids in plan order (first appearance), with their results by configuration. */
function rows(results: ResultsFile): { id: string; byConfig: Map<string, CaseResult> }[] {
  const out = new Map<string, Map<string, CaseResult>>();
  for (const c of results.cases) {
    const row = out.get(c.id) ?? new Map<string, CaseResult>();
    if (!row.has(c.config)) row.set(c.config, c);
    out.set(c.id, row);
  }
  return [...out.entries()].map(([id, byConfig]) => ({ id, byConfig }));
}

/** Transitions by candidate configuration and case id. */
function transitionIndex(pairs: readonly PairComparison[]): Map<string, Map<string, CaseTransition>> {
  return new Map(pairs.map((p) => [p.candidate, new Map(p.transitions.map((t) => [t.id, t]))]));
}

/** Renders the matrix view (see the file comment). */
export function renderMatrix(results: ResultsFile, options: MatrixOptions): string {
  const c = palette(options.color);
  const names = results.configs.map((x) => x.name);
  const comparisons = results.comparisons;
  const reference = comparisons?.reference ?? names[0];
  const index = transitionIndex(comparisons?.pairs ?? []);
  const all = rows(results);
  const compact = options.compact ?? all.length > COMPACT_ABOVE;
  const interesting = (r: (typeof all)[number]) =>
    [...r.byConfig.values()].some((x) => x.status !== 'pass') || names.some((n) => index.get(n)?.has(r.id));
  const shown = compact ? all.filter(interesting) : all;
  const width = Math.max(60, options.width ?? 160);
  const cellWidth = 20;
  const idWidth = Math.max(
    20,
    Math.min(Math.max(...all.map((r) => r.id.length)) + 2, width - names.length * (cellWidth + 1) - 3),
  );
  const table = new Table({
    head: [
      c.bold('case'),
      ...names.map((n) => c.bold(n === reference && names.length > 1 ? `${n} (ref)` : n)),
    ],
    style: { head: [], border: [], compact: true },
    wordWrap: true,
    colWidths: [idWidth, ...names.map(() => cellWidth)],
  });
  const cell = (r: CaseResult | undefined, t: CaseTransition | undefined) => {
    if (!r) return c.dim('-');
    const status =
      r.status === 'pass'
        ? c.green('pass')
        : r.status === 'fail'
          ? c.red('FAIL')
          : r.status === 'skipped'
            ? c.cyan('skip')
            : c.yellow('ERROR');
    const stop = r.stopReason ? ` ${STOP_SHORT[r.stopReason] ?? r.stopReason}` : '';
    const mark = t
      ? t.kind === 'regression'
        ? c.red(MARK[t.kind])
        : t.kind === 'fix'
          ? c.green(MARK[t.kind])
          : c.yellow(MARK[t.kind])
      : ' ';
    return `${mark} ${status}${stop}`;
  };
  for (const r of shown)
    table.push([
      hardWrap(r.id, idWidth - 2),
      ...names.map((n) => cell(r.byConfig.get(n), index.get(n)?.get(r.id))),
    ]);
  const lines: string[] = [];
  if (shown.length > 0) lines.push(table.toString());
  if (compact)
    lines.push(
      c.dim(
        `compact: ${shown.length} of ${all.length} cases shown (failures, skips and changes against ${reference}); --full shows every case`,
      ),
    );
  lines.push(
    c.dim(
      'marks against the reference: ▼ regression  ▲ fix  ~ same outcome, other behaviour  ↓ skipped on one side',
    ),
  );
  lines.push(
    ...failureLines(results, c),
    '',
    ...configLines(results, c),
    ...pairLines(comparisons?.pairs ?? [], c),
  );
  if (comparisons) lines.push(c.dim(comparisons.modelNoise.note));
  return lines.join('\n');
}

function failureLines(results: ResultsFile, c: ReturnType<typeof palette>): string[] {
  const failed = results.cases.filter((r) => r.status === 'fail' || r.status === 'error');
  if (failed.length === 0) return [];
  return [c.bold('failures'), ...failed.map((r) => `  ${r.id} (${r.config}): ${r.firstFailure}`)];
}

/**
 * One line per configuration: passed of ran, ASR, false allows, stop reasons, loops stopped of
 * the runs that repeated a call, compactions and the mean peak prompt of the context cases,
 * turns, tokens and cost per case.
 */
function configLines(results: ResultsFile, c: ReturnType<typeof palette>): string[] {
  const lines = [c.bold('configurations')];
  for (const { name } of results.configs) {
    const b = results.summary.byConfig[name];
    const m = results.summary.metrics[name];
    if (!b || !m) continue;
    const ran = results.cases.filter((x) => x.config === name && x.status !== 'skipped');
    const meanOf = (pick: (x: CaseResult) => number) =>
      ran.length === 0
        ? '-'
        : String(Number((ran.reduce((s, x) => s + pick(x), 0) / ran.length).toPrecision(4)));
    const bits = [
      `${b.passed}/${b.total - b.skipped} passed${b.skipped ? `, ${b.skipped} skipped` : ''}`,
      ...(m.attack?.attackSuccess.rate != null
        ? [`ASR ${(m.attack.attackSuccess.rate * 100).toFixed(0)}%`]
        : []),
      `${m.permissions.falseAllows} false allows`,
      `stop reasons ${m.stopReasons.matched}/${m.stopReasons.matched + m.stopReasons.mismatched}`,
      // What the defences did, so switching one off shows in the headline (configs/naive.json).
      `loops stopped ${m.loop.stopLatency.n}/${m.loop.repeatingRuns}`,
      ...(m.context.cases > 0
        ? [
            `context: ${m.context.compactions} compactions, peak prompt ${Math.round(m.context.peakPromptTokens.mean ?? 0)} tokens`,
          ]
        : []),
      `${meanOf((x) => x.usage.turns)} turns/case`,
      `${meanOf((x) => x.usage.totalTokens)} tokens/case`,
      `$${meanOf((x) => x.usage.costUsd)}/case`,
    ];
    lines.push(`  ${name.padEnd(12)} ${bits.join(' · ')}`);
  }
  return lines;
}

/** One block per pair: transitions counted, McNemar, the bootstrap intervals of tokens and turns. */
function pairLines(pairs: readonly PairComparison[], c: ReturnType<typeof palette>): string[] {
  const lines: string[] = [];
  for (const p of pairs) {
    const count = (k: CaseTransition['kind']) => p.transitions.filter((t) => t.kind === k).length;
    const interval = (name: string, unit: string) => {
      const b = p.bootstrap[name];
      if (!b || b.meanDifference === null) return `${unit} -`;
      return `${unit} ${signed(b.meanDifference, 4)} [${signed(b.low, 4)}, ${signed(b.high, 4)}]`;
    };
    lines.push(
      `${c.bold(`${p.reference} → ${p.candidate}`)}: ${p.paired} paired; ${counted(count('regression'), 'regression')}, ${counted(count('fix'), 'fix', 'fixes')}, ${counted(count('behaviour'), 'behaviour change')}${count('skip') ? `, ${counted(count('skip'), 'skip change')}` : ''}; McNemar exact p = ${pText(p.mcnemar.pValue)} (${p.mcnemar.referenceOnly} vs ${p.mcnemar.candidateOnly} discordant)`,
      `  mean paired difference, 95% bootstrap: ${interval('tokensPerCase', 'tokens')} · ${interval('turnsPerCase', 'turns')} · ${interval('toolCallsPerCase', 'tool calls')} · ${interval('costPerCase', 'USD')}`,
    );
  }
  return lines;
}
