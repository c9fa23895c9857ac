import { describe, expect, it } from 'vitest';
import { knownMetric } from './compare/baseline.ts';
import { KEY_METRICS, metricValues } from './compare/deltas.ts';
import { isMetricName, METRIC_NAMES, unknownMetricReason } from './metric-names.ts';
import { facts, metricCase } from './metrics/fixtures.test-helpers.ts';
import { configMetrics } from './metrics/index.ts';

describe('metric names (what tolerances and the project scorers may name)', () => {
  it('holds every name a run produces, injection and budget metrics included, and the headline metrics', () => {
    const cases = [
      metricCase('a', { tags: ['injection', 'attack'], attack: { succeeded: false } }),
      metricCase('b', { tags: ['injection', 'no-attack'] }),
      metricCase('c', {
        status: 'fail',
        metrics: facts({ budget: { budget: 'turns', limit: 3, used: 4, overshoot: 1 } }),
      }),
      metricCase('d', {
        status: 'fail',
        metrics: facts({ budget: { budget: 'costUsd', limit: 1, used: 2, overshoot: 1 } }),
      }),
    ];
    const produced = Object.keys(metricValues(configMetrics(cases), []));
    expect(produced).toContain('attack.attackSuccess.rate');
    expect(produced).toContain('budgetOvershoot.costUsd.ratio.max');
    expect(produced.filter((n) => !isMetricName(n))).toEqual([]);
    for (const name of Object.keys(KEY_METRICS)) expect(isMetricName(name)).toBe(true);
  });

  it('agrees with the --tolerance rule on a run that has every metric', () => {
    const values = Object.fromEntries(METRIC_NAMES.map((n) => [n, 0]));
    for (const name of [
      ...METRIC_NAMES,
      'tokens',
      'nosuch',
      'passRate.nosuch',
      'budgetOvershoot.nosuch.stops',
    ])
      expect([name, isMetricName(name)]).toEqual([name, knownMetric(name, values)]);
  });

  it('says why a name is no metric, with the closest one', () => {
    expect(unknownMetricReason('tokensPerCase')).toBeUndefined();
    expect(unknownMetricReason('permissions.needlessAsks')).toBeUndefined();
    expect(unknownMetricReason('tokensPerCas')).toMatch(
      /^no metric is named "tokensPerCas" \(did you mean "tokensPerCase"\?\); headline metrics: passRate, /,
    );
    expect(unknownMetricReason('tokens')).toMatch(
      /^no metric is named "tokens" \(did you mean "tokensPerCase"\?\)/,
    );
    expect(unknownMetricReason('nosuch')).toMatch(/^no metric is named "nosuch"; headline metrics: /);
  });
});
