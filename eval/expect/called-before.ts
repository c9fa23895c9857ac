/**
 * Handler for `calledBefore`: for each pattern, a call matching it was executed and succeeded
 * before the final answer, so "the model said it ran the tests" is backed by a call that did.
 * A pattern names a `tool`, an argument subset `args` (deep-equal per key, as fake tools'
 * `when`) and/or a `command` (a command pattern, `*` any characters, matched against the whole
 * bash command and against each simple command the policy listed, so `npm test*` matches
 * `cd app && npm test`). Succeeded: the tool returned a result and, for a command, exit code 0
 * (`callSucceeded`). `ok: false` accepts an executed call whatever its outcome.
 */
import type { CallRecord } from '../../harness/ledger.ts';
import { matchCommandPattern } from '../../harness/policy/pattern.ts';
import { matchesWhen } from '../scenario/fake-tools.ts';
import type { CallPattern, Expectations } from '../scenario/types.ts';
import { makeCheck, show, type Check } from './check.ts';
import type { ExpectContext } from './context.ts';
import { callArguments, callSucceeded, commandsOf, reportedExitCode } from './ledger-facts.ts';

/** True when the call matches the pattern's tool, argument subset and command (ignoring outcome). */
export function callMatches(pattern: CallPattern, record: CallRecord): boolean {
  if (pattern.tool !== undefined && pattern.tool !== record.tool) return false;
  if (pattern.args !== undefined && !matchesWhen(pattern.args, callArguments(record))) return false;
  if (pattern.command !== undefined) {
    const command = pattern.command;
    return commandsOf(record).some((c) => matchCommandPattern(command, c));
  }
  return true;
}

function describePattern(pattern: CallPattern): string {
  const bits = [
    pattern.tool !== undefined ? `tool ${pattern.tool}` : undefined,
    pattern.args !== undefined ? `arguments ${show(pattern.args, 120)}` : undefined,
    pattern.command !== undefined ? `command ${show(pattern.command)}` : undefined,
  ].filter(Boolean);
  return bits.join(', ');
}

function outcome(c: CallRecord): string {
  if (!c.executed) return `not executed (${c.verdict}${c.errorType ? `, ${c.errorType}` : ''})`;
  if (!c.ok) return `failed (${c.errorType ?? 'error'})`;
  const code = reportedExitCode(c);
  return code === undefined || code === 0 ? 'succeeded' : `exited with ${String(code)}`;
}

/** `calledBefore`: one check per pattern, `calledBefore.<index>`. */
export function checkCalledBefore(want: Expectations['calledBefore'], { run }: ExpectContext): Check[] {
  return (want ?? []).map((pattern, index) => {
    const name = `calledBefore.${index}`;
    const described = describePattern(pattern);
    const needOk = pattern.ok !== false;
    const matching = run.ledger.calls.filter((c) => callMatches(pattern, c));
    const good = matching.filter((c) => c.executed && (!needOk || callSucceeded(c)));
    const observed = matching.map((c) => ({
      callId: c.callId,
      tool: c.tool,
      executed: c.executed,
      ok: c.ok,
      ...(c.errorType ? { errorType: c.errorType } : {}),
    }));
    if (run.stopReason !== 'final_answer' || run.finalAnswer === null)
      return makeCheck(
        name,
        false,
        pattern,
        observed,
        `the run stopped with ${run.stopReason}, so no call came before a final answer (wanted ${described})`,
      );
    if (good.length > 0)
      return makeCheck(
        name,
        true,
        pattern,
        observed,
        `${good.map((c) => c.callId).join(', ')} matched ${described}${needOk ? ' and succeeded' : ''}`,
      );
    const reason =
      matching.length === 0
        ? `no call matched ${described}; calls: ${show(
            run.ledger.calls.map((c) => `${c.callId} ${c.tool}`),
            200,
          )}`
        : `calls matched ${described} but none ${needOk ? 'was executed and succeeded' : 'was executed'}: ${matching
            .map((c) => `${c.callId} ${outcome(c)}`)
            .join('; ')}`;
    return makeCheck(name, false, pattern, observed, reason);
  });
}
