/**
 * Comparison of configurations over the same cases (the `comparisons` block of `results.json`,
 * shape in `./types.ts`): for each candidate configuration against the reference, the paired
 * pass/fail table and McNemar's exact p, every case whose outcome or behaviour changed, the
 * delta of every metric and paired bootstrap intervals of the per-case usage. A pure function
 * of the case results and the metrics: same cases, same block, byte for byte.
 */
import { configMetrics, type ConfigMetrics } from '../metrics/index.ts';
import type { CaseResult } from '../results.ts';
import { pairedBootstrap, type BootstrapOptions } from './bootstrap.ts';
import { metricDeltas, metricValues } from './deltas.ts';
import { mcnemarExact } from './mcnemar.ts';
import { byId, pairCases, transitionOf } from './transitions.ts';
import type { CaseTransition, Comparisons, ModelNoise, PairComparison } from './types.ts';

export type * from './types.ts';

/** Options of {@link compareConfigs}. */
export interface CompareOptions {
  /** The configuration every other is compared with. @default the first of `configs` */
  reference?: string;
  bootstrap?: BootstrapOptions;
}

/** The per-case quantities the bootstrap intervals are about, by name. */
const PER_CASE: Record<string, (c: CaseResult) => number> = {
  tokensPerCase: (c) => c.usage.totalTokens,
  costPerCase: (c) => c.usage.costUsd,
  turnsPerCase: (c) => c.usage.turns,
  toolCallsPerCase: (c) => c.usage.toolCalls,
};

/** Frozen (scripted or recorded) against live cases; today every case `run` runs is frozen. */
export function modelNoise(cases: readonly CaseResult[]): ModelNoise {
  const frozen = cases.filter((c) => c.kind === 'scenario' || c.kind === 'recording').length;
  const live = cases.length - frozen;
  return {
    frozen,
    live,
    note:
      live === 0
        ? 'no model noise: every model answer is scripted or recorded, so a difference is the harness'
        : 'live model calls: single runs differ by 7-11 points of pass rate on their own (tau2-bench#540); use --repeat and read pass^k',
  };
}

/** One pair: `reference` against `candidate` over their common cases. */
export function comparePair(
  reference: { name: string; cases: CaseResult[]; metrics: ConfigMetrics },
  candidate: { name: string; cases: CaseResult[]; metrics: ConfigMetrics },
  options: CompareOptions = {},
): PairComparison {
  const { pairs, table } = pairCases(reference.cases, candidate.cases);
  const other = byId(candidate.cases);
  const transitions: CaseTransition[] = [];
  for (const a of byId(reference.cases).values()) {
    const b = other.get(a.id);
    const t = b && transitionOf(a, b);
    if (t) transitions.push(t);
  }
  const bootstrap = Object.fromEntries(
    Object.entries(PER_CASE).map(([name, pick]) => [
      name,
      pairedBootstrap(
        pairs.map(([a, b]) => pick(b) - pick(a)),
        options.bootstrap,
      ),
    ]),
  );
  return {
    reference: reference.name,
    candidate: candidate.name,
    paired: pairs.length,
    table,
    mcnemar: mcnemarExact(table.referenceOnly, table.candidateOnly),
    transitions,
    deltas: metricDeltas(
      metricValues(reference.metrics, reference.cases),
      metricValues(candidate.metrics, candidate.cases),
    ),
    bootstrap,
  };
}

/**
 * The comparisons of a run with two configurations or more (`undefined` with one): every
 * configuration against the reference, in configuration order.
 * @throws RangeError when `options.reference` names no configuration of the run.
 */
export function compareConfigs(
  configs: readonly string[],
  cases: readonly CaseResult[],
  metrics: Record<string, ConfigMetrics>,
  options: CompareOptions = {},
): Comparisons | undefined {
  if (configs.length < 2) return undefined;
  const reference = options.reference ?? configs[0]!;
  if (!configs.includes(reference))
    throw new RangeError(
      `--reference ${reference}: no configuration of this run has that name (${configs.join(', ')})`,
    );
  const side = (name: string) => ({
    name,
    cases: cases.filter((c) => c.config === name),
    metrics: metrics[name] ?? configMetrics([]),
  });
  const ref = side(reference);
  return {
    reference,
    modelNoise: modelNoise(cases),
    pairs: configs.filter((n) => n !== reference).map((n) => comparePair(ref, side(n), options)),
  };
}
