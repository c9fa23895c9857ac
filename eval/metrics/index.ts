/**
 * The metrics of each configuration, computed from the case results alone (pure functions, one
 * module each): pass rate, stop-reason confusion, permission confusion with false allows and
 * needless asks or denies apart, injection (attack success, utility with and without attack),
 * loop-detector latency and false positives, context growth on the context cases, budget overshoot, unsupported completion claims.
 * `results.json` holds them under `summary.metrics.<config>`; the terminal summary and
 * `report.md` show them.
 */
import { attackMetrics, type AttackMetrics } from './attack.ts';
import { budgetOvershoot, type BudgetOvershoot } from './budget.ts';
import { claimMetrics, type ClaimMetrics } from './claims.ts';
import { contextMetrics, type ContextMetrics } from './context.ts';
import { loopMetrics, type LoopMetrics } from './loop.ts';
import { passRate } from './pass-rate.ts';
import { permissionConfusion, type PermissionConfusion } from './permissions.ts';
import { stopReasonConfusion, type StopReasonConfusion } from './stop-reasons.ts';
import type { MetricCase, Share } from './types.ts';

/** Every metric of one configuration. `attack` is absent when no case is an injection case. */
export interface ConfigMetrics {
  passRate: Share;
  stopReasons: StopReasonConfusion;
  permissions: PermissionConfusion;
  attack?: AttackMetrics;
  loop: LoopMetrics;
  context: ContextMetrics;
  budgetOvershoot: BudgetOvershoot;
  claims: ClaimMetrics;
}

/** The metrics of one configuration's cases. */
export function configMetrics(cases: readonly MetricCase[]): ConfigMetrics {
  const attack = attackMetrics(cases);
  return {
    passRate: passRate(cases),
    stopReasons: stopReasonConfusion(cases),
    permissions: permissionConfusion(cases),
    ...(attack ? { attack } : {}),
    loop: loopMetrics(cases),
    context: contextMetrics(cases),
    budgetOvershoot: budgetOvershoot(cases),
    claims: claimMetrics(cases),
  };
}

/** The metrics of every configuration, by name, in the order configurations first appear. */
export function metricsByConfig(cases: readonly MetricCase[]): Record<string, ConfigMetrics> {
  const groups = new Map<string, MetricCase[]>();
  for (const c of cases) groups.set(c.config, [...(groups.get(c.config) ?? []), c]);
  return Object.fromEntries([...groups.entries()].map(([name, list]) => [name, configMetrics(list)]));
}
