/**
 * Context-management metrics of a configuration, over the cases tagged `context` (the same cases
 * under every configuration, so the figures compare): how large the prompts grew (the peak
 * prompt of each run, in tokens: reported usage, else the estimate) and how many compactions ran.
 * A configuration with its context layers off (`configs/naive.json`) shows larger prompts and no
 * compaction here, beside the defaults.
 */
import { meanMax, type MetricCase } from './types.ts';

/** The figures of {@link contextMetrics}. */
export interface ContextMetrics {
  /** Context cases that ran (passed or failed). */
  cases: number;
  /** Peak prompt per run, in tokens: mean and max over those cases. */
  peakPromptTokens: { n: number; mean: number | null; max: number | null };
  /** Compactions of the top-level runs, summed. */
  compactions: number;
}

/** The tag of the context-management scenarios. */
export const CONTEXT_TAG = 'context';

/** Context metrics (see the file comment). Cases that errored or were skipped are left out. */
export function contextMetrics(cases: readonly MetricCase[]): ContextMetrics {
  const ran = cases.filter(
    (c) => (c.status === 'pass' || c.status === 'fail') && c.tags.includes(CONTEXT_TAG),
  );
  return {
    cases: ran.length,
    peakPromptTokens: meanMax(ran.map((c) => c.metrics?.context?.peakPromptTokens ?? 0)),
    compactions: ran.reduce((n, c) => n + (c.metrics?.context?.compactions ?? 0), 0),
  };
}
