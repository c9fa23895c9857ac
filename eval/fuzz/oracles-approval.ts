/**
 * The oracles of what ran: every executed call was allowed or approved by someone entitled to
 * (checked against the oracle's own reading of the permission defaults too), nothing touched
 * the world outside the workspace, no two calls wrote one file in one turn, and no result
 * carries a reserved tag unescaped.
 */
import path from 'node:path';
import picomatch from 'picomatch';
import type { HarnessEvent } from '../../harness/events.ts';
import type { RunResult } from '../../harness/ledger.ts';
import { escapeReservedTags } from '../../harness/policy/taint.ts';
import { type Add, type Ev, top } from './oracles-shared.ts';
import type { Observation } from './types.ts';

/** Tools whose execution writes the paths they are handed. */
const WRITING_TOOLS = new Set(['write_file', 'str_replace']);

/** `approvals`: each executed call had a policy decision and, on ask, an approval it was entitled to; each ran once. */
export function approvalOracle(obs: Observation, result: RunResult, add: Add): void {
  const byCall = new Map<string, HarnessEvent[]>();
  for (const event of top(result.events))
    if ('callId' in event && typeof event.callId === 'string')
      byCall.set(event.callId, [...(byCall.get(event.callId) ?? []), event]);
  const mode = obs.config.permissions.mode;
  const executedIds = new Set<string>();
  for (const [callId, events] of byCall) {
    const end = events.find((e): e is Ev<'tool_call_end'> => e.type === 'tool_call_end');
    if (!end?.executed) continue;
    executedIds.add(callId);
    const policy = events.find((e): e is Ev<'policy_decision'> => e.type === 'policy_decision');
    const approval = events.find((e): e is Ev<'approval_decision'> => e.type === 'approval_decision');
    const fail = (why: string) =>
      add('approvals', `${callId} (${end.tool}) executed ${why}`, { calls: [callId] });
    if (!policy) fail('without a policy decision');
    else if (policy.action === 'deny') fail('although the policy denied it');
    else if (policy.action === 'ask') {
      if (!approval) fail('on an ask without an approval decision');
      else if (!approval.approved) fail(`although the approval (by ${approval.by}) was refused`);
      else if (approval.by === 'approver' && obs.answers.get(callId) === 'deny')
        fail('although the approver answered deny');
      else if (approval.by === 'approver' && !obs.answers.has(callId))
        fail('approved "by the approver", who was never asked');
      else if (approval.by === 'auto' && mode !== 'auto') fail(`auto-approved in ${mode} mode`);
      else if (approval.by === 'headless') fail('approved by headless mode, which refuses every ask');
      else if (approval.by === 'auto' && policy.decision.requiresHuman)
        fail('auto-approved although only a human may approve it');
    }
    if (end.verdict !== 'allow' && end.verdict !== 'ask:approved') fail(`with verdict ${end.verdict}`);
  }
  unapprovedEffects(obs, add);
  const seen = new Set<string>();
  for (const execution of obs.executions) {
    if (!executedIds.has(execution.callId))
      add(
        'approvals',
        `${execution.tool} ran for ${execution.callId}, which the events do not record as executed`,
        {
          calls: [execution.callId],
        },
      );
    if (seen.has(execution.callId))
      add('approvals', `${execution.callId} ran more than once`, { calls: [execution.callId] });
    seen.add(execution.callId);
    if (obs.answers.get(execution.callId) === 'deny')
      add('approvals', `${execution.callId} ran although the approver answered deny`, {
        calls: [execution.callId],
      });
  }
  for (const callId of executedIds)
    if (!seen.has(callId)) add('ledger', `${callId} is recorded as executed, but its tool never ran`);
}

/**
 * The oracle's own reading of the permission defaults (`docs/architecture.md` §4–5), so a
 * policy that allows too much is caught even when its events agree with themselves: a tool
 * that writes or acts irreversibly runs without an approval only where a rule allows it — a
 * `permissions.paths` write rule (last match wins) over every path it writes, outside the
 * sensitive paths, or an `effects` default of `allow` — and never in plan mode.
 */
function unapprovedEffects(obs: Observation, add: Add): void {
  const { permissions } = obs.config;
  const verdicts = new Map<string, string>();
  for (const event of top(obs.result!.events))
    if (event.type === 'tool_call_end') verdicts.set(event.callId, event.verdict);
  const sensitive = permissions.sensitivePaths.filter((s) => s.access !== 'read').map((s) => s.pattern);
  const isSensitive = sensitive.length > 0 ? picomatch(sensitive, { dot: true }) : () => false;
  for (const execution of obs.executions) {
    const tool = obs.tools.get(execution.tool);
    if (!tool || tool.effect === 'read') continue;
    const fail = (why: string) =>
      add('approvals', `${execution.callId} (${execution.tool}, ${tool.effect}) ran ${why}`);
    if (permissions.mode === 'plan') {
      fail('in plan mode, which allows reads only');
      continue;
    }
    if (verdicts.get(execution.callId) !== 'allow') continue;
    if (!tool.paths || tool.effect === 'irreversible') {
      if (permissions.effects[tool.effect] !== 'allow')
        fail(`without approval, and effects.${tool.effect} is ${permissions.effects[tool.effect]}`);
      continue;
    }
    for (const resolved of execution.resolvedPaths) {
      const rel = path.relative(obs.workspace, resolved).split(path.sep).join('/') || '.';
      let action = permissions.effects.write;
      for (const rule of permissions.paths)
        if (rule.access === 'write' && picomatch(rule.pattern, { dot: true })(rel)) action = rule.action;
      if (action !== 'allow') fail(`without approval: no rule allows writing ${rel}`);
      else if (isSensitive(rel)) fail(`without approval although ${rel} is a sensitive path`);
    }
  }
}

/** `containment` and `write-conflicts`: no path outside the workspace, no file written twice in one turn. */
export function containmentOracle(obs: Observation, result: RunResult, add: Add): void {
  for (const change of obs.outsideChanges) add('containment', `outside the workspace: ${change}`);
  const turnOf = new Map<string, number>();
  for (const event of top(result.events))
    if (event.type === 'tool_call_start') turnOf.set(event.callId, event.turn);
  const written = new Map<string, string>();
  for (const execution of obs.executions) {
    for (const resolved of execution.resolvedPaths) {
      const rel = path.relative(obs.workspace, resolved);
      if (rel.startsWith('..') || path.isAbsolute(rel))
        add(
          'containment',
          `${execution.callId} (${execution.tool}) touched ${resolved}, outside the workspace`,
          {
            calls: [execution.callId],
          },
        );
      if (!WRITING_TOOLS.has(execution.tool)) continue;
      const key = `${turnOf.get(execution.callId)}\u0000${resolved}`;
      const first = written.get(key);
      if (first !== undefined)
        add('write-conflicts', `${first} and ${execution.callId} both wrote ${rel} in one turn`, {
          calls: [execution.callId],
        });
      else written.set(key, execution.callId);
    }
  }
}

/** `reserved-tags`: with taint on, no executed call's result carries a reserved tag or marker unescaped. */
export function reservedTagOracle(obs: Observation, result: RunResult, add: Add): void {
  if (!obs.config.taint.enabled) return;
  for (const call of result.ledger.calls)
    if (call.executed && escapeReservedTags(call.content) !== call.content)
      add(
        'reserved-tags',
        `the result of ${call.callId} (${call.tool}) carries a reserved tag or marker unescaped`,
      );
}
