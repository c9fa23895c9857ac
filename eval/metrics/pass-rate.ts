/** Pass rate of a configuration. */
import { share, type MetricCase, type Share } from './types.ts';

/**
 * The share of cases that passed among those that ran: skipped cases (a prerequisite missing
 * here) say nothing and are left out; errored ones count as not passed.
 */
export function passRate(cases: readonly MetricCase[]): Share {
  const ran = cases.filter((c) => c.status !== 'skipped');
  return share(ran.filter((c) => c.status === 'pass').length, ran.length);
}
