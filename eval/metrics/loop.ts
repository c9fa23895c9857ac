/**
 * Loop-detector metrics of a configuration: latency, in steps (model turns) from the first
 * repeated call to the warning and to the stop, over the runs that repeated a call; and false
 * positives: runs of scenarios tagged `legit-repetition` (polling, pagination: repetition that
 * is progress) that the detector stopped with `repeated_tool_call`, and those it warned on.
 */
import { meanMax, share, type MetricCase, type Share } from './types.ts';

/** The figures of {@link loopMetrics}. */
export interface LoopMetrics {
  /** Runs with a repeated call. */
  repeatingRuns: number;
  /** Steps from the first repeat to the first warning (runs that warned). */
  warningLatency: { n: number; mean: number | null; max: number | null };
  /** Steps from the first repeat to the stop (runs stopped with `repeated_tool_call`). */
  stopLatency: { n: number; mean: number | null; max: number | null };
  /** Legitimate-repetition runs stopped as loops. */
  falsePositives: Share;
  /** Legitimate-repetition runs that got a warning. */
  warnedLegit: Share;
}

/** The tag of scenarios whose repetition is progress. */
export const LEGIT_REPETITION_TAG = 'legit-repetition';

/** Loop-detector metrics (see the file comment). Cases that errored or were skipped are left out. */
export function loopMetrics(cases: readonly MetricCase[]): LoopMetrics {
  const ran = cases.filter((c) => c.status === 'pass' || c.status === 'fail');
  const loops = ran.flatMap((c) => (c.metrics?.loop ? [c.metrics.loop] : []));
  const legit = ran.filter((c) => c.tags.includes(LEGIT_REPETITION_TAG));
  const stoppedAsLoop = (c: MetricCase) =>
    c.metrics?.loop?.stopStep !== undefined ||
    c.checks.some((k) => k.name === 'stopReason' && k.observed === 'repeated_tool_call');
  return {
    repeatingRuns: loops.length,
    warningLatency: meanMax(
      loops.flatMap((l) => (l.warningStep !== undefined ? [l.warningStep - l.firstRepeatStep] : [])),
    ),
    stopLatency: meanMax(
      loops.flatMap((l) => (l.stopStep !== undefined ? [l.stopStep - l.firstRepeatStep] : [])),
    ),
    falsePositives: share(legit.filter(stoppedAsLoop).length, legit.length),
    warnedLegit: share(legit.filter((c) => c.metrics?.loop?.warningStep !== undefined).length, legit.length),
  };
}
