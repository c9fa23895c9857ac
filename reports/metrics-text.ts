/**
 * The configuration metrics (`summary.metrics` of `results.json`, `eval/metrics/index.ts`) as
 * short text: one label and one value per metric, shared by the terminal summary and
 * `report.md` so both say the same thing.
 */
import type { ConfigMetrics } from '../eval/metrics/index.ts';
import type { Share } from '../eval/metrics/types.ts';

/** `95.2% (40/42)`, or `-` when nothing was counted. */
export function shareText(s: Share): string {
  return s.rate === null ? '-' : `${(s.rate * 100).toFixed(1)}% (${s.count}/${s.of})`;
}

const round = (n: number | null) => (n === null ? '-' : String(Number(n.toFixed(2))));

/** The off-diagonal cells of a confusion matrix: `expected → actual ×n`, most frequent first. */
export function offDiagonal(matrix: Record<string, Record<string, number>>): string[] {
  const cells: [string, number][] = [];
  for (const [expected, row] of Object.entries(matrix))
    for (const [actual, n] of Object.entries(row))
      if (expected !== actual) cells.push([`${expected} → ${actual}`, n]);
  return cells.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([cell, n]) => `${cell} ×${n}`);
}

/** Each metric of one configuration as `[label, value]`, in a fixed order. */
export function metricRows(m: ConfigMetrics): [string, string][] {
  const stops = m.stopReasons;
  const off = offDiagonal(stops.matrix);
  const p = m.permissions;
  const rows: [string, string][] = [
    ['pass rate', shareText(m.passRate)],
    [
      'stop reasons as expected',
      `${stops.matched}/${stops.matched + stops.mismatched}${off.length ? `; ${off.slice(0, 4).join(', ')}` : ''}`,
    ],
    [
      'permissions (per call)',
      `${p.calls} checked: ${p.falseAllows} false allows (security), ${p.needlessAsks} needless asks and ${p.needlessDenies} needless denies (utility)${p.otherMismatches ? `, ${p.otherMismatches} other` : ''}`,
    ],
  ];
  if (m.attack)
    rows.push(
      ['attack success rate', shareText(m.attack.attackSuccess)],
      [
        'utility without / under attack',
        `${shareText(m.attack.utilityWithoutAttack)} / ${shareText(m.attack.utilityUnderAttack)}`,
      ],
    );
  const l = m.loop;
  rows.push(
    [
      'loop detector latency',
      l.repeatingRuns === 0
        ? 'no run repeated a call'
        : `${l.repeatingRuns} runs repeated a call, ${l.stopLatency.n} stopped as loops; steps to warning ${round(l.warningLatency.mean)} (max ${round(l.warningLatency.max)}), to stop ${round(l.stopLatency.mean)} (max ${round(l.stopLatency.max)})`,
    ],
    [
      'loop false positives',
      l.falsePositives.of === 0
        ? 'no legit-repetition case'
        : `${l.falsePositives.count} stopped of ${l.falsePositives.of} legit-repetition cases (${l.warnedLegit.count} warned)`,
    ],
    [
      'context management',
      m.context.cases === 0
        ? 'no context case'
        : `${m.context.cases} context cases: ${m.context.compactions} compactions, peak prompt ${round(m.context.peakPromptTokens.mean)} tokens (max ${round(m.context.peakPromptTokens.max)})`,
    ],
    [
      'budget overshoot at the stop',
      Object.keys(m.budgetOvershoot).length === 0
        ? 'no budget stop'
        : Object.entries(m.budgetOvershoot)
            .map(
              ([budget, o]) =>
                `${budget} ${o.stops}× max +${round(o.overshoot.max)}${o.ratio.max ? ` (${(o.ratio.max * 100).toFixed(0)}%)` : ''}`,
            )
            .join(', '),
    ],
    [
      'unsupported completion claims',
      `${m.claims.unsupported} of ${m.claims.claims}${
        m.claims.unsupported
          ? ` in ${m.claims.casesWithUnsupported.count} cases (${Object.entries(m.claims.unsupportedByKind)
              .map(([k, n]) => `${k} ${n}`)
              .join(', ')})`
          : ''
      }`,
    ],
  );
  return rows;
}
