/**
 * The `comparisons` block of `results.json` (present when a run has two configurations or
 * more): a pure function of the case results (`eval/compare/index.ts`), so the terminal, the
 * report writers and `--baseline` all read the same numbers. The shape is documented for
 * readers in `docs/results-format.md`.
 *
 * ```jsonc
 * "comparisons": {
 *   "reference": "default",                 // the first configuration, or --reference NAME
 *   "modelNoise": { "frozen": 42, "live": 0, "note": "no model noise: a difference is the harness" },
 *   "pairs": [{
 *     "reference": "default", "candidate": "naive",
 *     "paired": 42,                          // cases that ran (not skipped) under both
 *     "table": { "bothPass": 38, "referenceOnly": 3, "candidateOnly": 1, "bothFail": 0 },
 *     "mcnemar": { "discordant": 4, "referenceOnly": 3, "candidateOnly": 1, "pValue": 0.625 },
 *     "transitions": [{ "id": "loop/x", "kind": "behaviour", "reference": "pass", "candidate": "pass",
 *                       "changes": [{ "field": "stopReason", "reference": "repeated_tool_call",
 *                                     "candidate": "max_turns" }] }],
 *     "deltas": { "passRate": { "reference": 1, "candidate": 0.9, "delta": -0.1, "better": "higher" } },
 *     "bootstrap": { "tokensPerCase": { "n": 42, "meanDifference": 120.5, "low": 40, "high": 210,
 *                                        "level": 0.95, "resamples": 2000, "seed": 1 } }
 *   }]
 * }
 * ```
 */
/** A case's status (`CaseStatus` of `eval/results.ts`, repeated here: results.ts imports this file). */
export type CaseStatus = 'pass' | 'fail' | 'error' | 'skipped';

/** The paired pass/fail table of two configurations (an `error` counts as not passed). */
export interface PairedTable {
  /** Passed under both. */
  bothPass: number;
  /** Passed under the reference only (a regression of the candidate). */
  referenceOnly: number;
  /** Passed under the candidate only (an improvement). */
  candidateOnly: number;
  /** Passed under neither. */
  bothFail: number;
}

/**
 * McNemar's exact test on the discordant pairs: under "no difference" each discordant case is a
 * fair coin, so `pValue` is the two-sided exact binomial p of `referenceOnly` successes in
 * `discordant` trials, p = min(1, 2 · P(X ≤ min(b, c))), X ~ Binomial(b + c, 1/2); `1` when there
 * is no discordant pair.
 */
export interface McNemarResult {
  discordant: number;
  referenceOnly: number;
  candidateOnly: number;
  pValue: number;
}

/** What changed in a case between two configurations. */
export type TransitionKind =
  /** Passed under the reference, failed or errored under the candidate. */
  | 'regression'
  /** Failed or errored under the reference, passed under the candidate. */
  | 'fix'
  /** Same pass/fail outcome, different behaviour (stop reason, verdicts, calls, tokens, cost, failed check). */
  | 'behaviour'
  /** Ran under one configuration, skipped under the other. */
  | 'skip';

/** One observed difference of a case: `field` with its value under each configuration. */
export interface BehaviourChange {
  field:
    | 'status'
    | 'stopReason'
    | 'verdicts'
    | 'turns'
    | 'toolCalls'
    | 'totalTokens'
    | 'costUsd'
    | 'firstFailure'
    | 'expectFor';
  reference: string | number | null;
  candidate: string | number | null;
}

/** A case whose outcome or behaviour differs between the two configurations of a pair. */
export interface CaseTransition {
  id: string;
  kind: TransitionKind;
  reference: CaseStatus;
  candidate: CaseStatus;
  changes: BehaviourChange[];
}

/**
 * A metric of both configurations: `delta` = candidate − reference (`null` when either is
 * `null`); `better` says which direction is an improvement (`null`: neither, e.g. a count of
 * runs with a repeated call).
 */
export interface MetricDelta {
  reference: number | null;
  candidate: number | null;
  delta: number | null;
  better: 'higher' | 'lower' | null;
}

/**
 * Percentile bootstrap of the mean paired difference (candidate − reference) of a per-case
 * quantity over the paired cases: `resamples` resamples of the cases with replacement drawn with
 * a seeded mulberry32 stream (`harness/deps.ts`), `low`/`high` the (1 − level)/2 and
 * (1 + level)/2 quantiles of the resampled means (Efron & Tibshirani 1993, ch. 13). With frozen
 * models the interval is the harness's effect alone.
 */
export interface BootstrapInterval {
  n: number;
  meanDifference: number | null;
  low: number | null;
  high: number | null;
  level: number;
  resamples: number;
  seed: number;
}

/** Everything computed for one (reference, candidate) pair. */
export interface PairComparison {
  reference: string;
  candidate: string;
  /** Cases present under both configurations and skipped under neither. */
  paired: number;
  table: PairedTable;
  mcnemar: McNemarResult;
  /** Only the cases that differ, in case order. */
  transitions: CaseTransition[];
  /** Every metric of `summary.metrics` (dotted path) and the per-case usage means, by name. */
  deltas: Record<string, MetricDelta>;
  /** `tokensPerCase`, `costPerCase` (USD), `turnsPerCase`, `toolCallsPerCase`. */
  bootstrap: Record<string, BootstrapInterval>;
}

/**
 * Where the model's answers came from: `frozen` cases (scripted scenarios, recorded cassettes)
 * have zero model variance, so a difference is the harness; `live` cases carry run-to-run model
 * noise (7–11 points of pass rate between single runs, tau2-bench#540), so use `--repeat`.
 */
export interface ModelNoise {
  frozen: number;
  live: number;
  note: string;
}

/** The `comparisons` block. */
export interface Comparisons {
  reference: string;
  modelNoise: ModelNoise;
  pairs: PairComparison[];
}

/** One case over the trials. */
export interface RepeatCase {
  id: string;
  config: string;
  /** Trials that ran (skipped ones left out). */
  trials: number;
  passes: number;
  /** pass^1 = passes / trials. */
  passHat1: number | null;
  /** pass^k with k = the number of trials. */
  passHatK: number | null;
  flipRate: number;
}

/** The `repeats` block of `results.json` (`run --repeat K`, `./repeat.ts`). */
export interface RepeatSummary {
  /** K of `--repeat K`. */
  k: number;
  /** Per configuration: mean pass^1 and pass^k over its cases, mean flip rate, the ids of cases that flipped. */
  byConfig: Record<
    string,
    { passHat1: number | null; passHatK: number | null; flipRate: number; flipped: string[] }
  >;
  cases: RepeatCase[];
}
