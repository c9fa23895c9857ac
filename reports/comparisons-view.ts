/**
 * The `comparisons` block of `results.json` (each configuration against the reference: paired
 * table, McNemar's exact test, transitions, metric deltas, bootstrap intervals; computed by
 * `eval/compare/`, documented in `docs/results-format.md`) as the reports show it. Read
 * structurally: a results file without the block (one configuration, or a run of an older
 * version) shows none.
 */
import type { ResultsFile } from '../eval/results.ts';
import { counted } from './words.ts';

/** The fields of one pair the reports read (`PairComparison` of `eval/compare/types.ts`). */
export interface PairView {
  reference: string;
  candidate: string;
  paired: number;
  table: { bothPass: number; referenceOnly: number; candidateOnly: number; bothFail: number };
  mcnemar: { discordant: number; pValue: number };
  transitions: {
    id: string;
    kind: string;
    reference: string;
    candidate: string;
    changes: { field: string; reference: string | number | null; candidate: string | number | null }[];
  }[];
  deltas: Record<string, { reference: number | null; candidate: number | null; delta: number | null }>;
  bootstrap: Record<
    string,
    { meanDifference: number | null; low: number | null; high: number | null; level: number }
  >;
}

/** The block as the reports read it. */
export interface ComparisonsView {
  reference: string;
  modelNoise?: { note: string };
  pairs: PairView[];
}

/** The block of a results file, when it has one with at least one pair. */
export function comparisonsOf(results: ResultsFile): ComparisonsView | undefined {
  const block = (results as { comparisons?: ComparisonsView }).comparisons;
  return block && Array.isArray(block.pairs) && block.pairs.length > 0 ? block : undefined;
}

/** The headline deltas shown per pair, in this order, with how each is written. */
const HEADLINES: [string, string, (n: number) => string][] = [
  ['passRate', 'pass rate', (n) => `${n >= 0 ? '+' : ''}${(n * 100).toFixed(1)} pts`],
  ['attackSuccessRate', 'attack success', (n) => `${n >= 0 ? '+' : ''}${(n * 100).toFixed(1)} pts`],
  ['falseAllows', 'false allows', (n) => `${n >= 0 ? '+' : ''}${n}`],
  ['tokensPerCase', 'tokens/case', (n) => `${n >= 0 ? '+' : ''}${n.toFixed(1)}`],
  ['costPerCase', 'USD/case', (n) => `${n >= 0 ? '+' : ''}${n.toFixed(6)}`],
];

/** The headline deltas of a pair as `label delta` texts (metrics absent from the pair left out). */
export function headlineDeltas(pair: PairView): string[] {
  const out: string[] = [];
  for (const [key, label, show] of HEADLINES) {
    const d = pair.deltas[key];
    if (d && d.delta !== null) out.push(`${label} ${show(d.delta)}`);
  }
  return out;
}

/** The bootstrap intervals of a pair as `name +m [low, high] (95%)` texts. */
export function intervalTexts(pair: PairView): string[] {
  const num = (n: number) =>
    Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toPrecision(3);
  return Object.entries(pair.bootstrap)
    .filter(([, b]) => b.meanDifference !== null && b.low !== null && b.high !== null)
    .map(
      ([name, b]) =>
        `${name} ${b.meanDifference! >= 0 ? '+' : ''}${num(b.meanDifference!)} [${num(b.low!)}, ${num(b.high!)}] (${Math.round(b.level * 100)}%)`,
    );
}

/** One line per pair: `candidate vs reference: paired table; McNemar p; headline deltas`. */
export function pairLine(pair: PairView): string {
  const t = pair.table;
  return [
    `${pair.candidate} vs ${pair.reference}: ${pair.paired} paired, ${counted(t.referenceOnly, 'regression')}, ${counted(t.candidateOnly, 'fix', 'fixes')}, ${t.bothPass} pass both, ${t.bothFail} fail both`,
    `McNemar exact p = ${pair.mcnemar.pValue.toPrecision(3)}${pair.mcnemar.discordant === 0 ? ' (no discordant pair)' : ''}`,
    ...headlineDeltas(pair),
  ].join('; ');
}
