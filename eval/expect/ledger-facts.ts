/**
 * Facts about tool calls read from the decision ledger (`harness/ledger.ts`), shared by the
 * expectation handlers and the completion-evidence verifier: records by id, executed ids, the
 * parsed arguments, the commands of a bash call, the exit code it reported, and whether it
 * succeeded.
 */
import type { CallRecord, RunResult } from '../../harness/ledger.ts';

/** The call record for each id: the top-level one when several scopes share an id. */
export function recordsById(run: Pick<RunResult, 'ledger'>): Map<string, CallRecord> {
  const map = new Map<string, CallRecord>();
  for (const record of run.ledger.calls) {
    const existing = map.get(record.callId);
    if (!existing || (existing.scope.length > 0 && record.scope.length === 0)) map.set(record.callId, record);
  }
  return map;
}

/** The ids of the executed calls, each once, in ledger order. */
export function executedIds(run: Pick<RunResult, 'ledger'>): string[] {
  return [...new Set(run.ledger.calls.filter((c) => c.executed).map((c) => c.callId))];
}

/** The parsed arguments of a call (`{}` when they are not a JSON object). */
export function callArguments(record: Pick<CallRecord, 'arguments'>): Record<string, unknown> {
  try {
    const value = JSON.parse(record.arguments) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The `command` argument of a bash call, when its arguments hold one. */
export function bashCommand(record: Pick<CallRecord, 'tool' | 'arguments'>): string | undefined {
  if (record.tool !== 'bash') return undefined;
  const command = callArguments(record).command;
  return typeof command === 'string' ? command : undefined;
}

/**
 * The exit code a command tool reported in its result (`exit code: N` on the first line, as
 * `harness/tools/builtin/bash.ts` writes it): the number, `null` for `none` (killed by a
 * signal), `undefined` when the result reports none (a file tool, a fake tool's plain text).
 */
export function reportedExitCode(record: Pick<CallRecord, 'content'>): number | null | undefined {
  const match = /^exit code: (-?\d+|none)\b/.exec(record.content);
  if (!match) return undefined;
  return match[1] === 'none' ? null : Number(match[1]);
}

/**
 * True when the call was executed and succeeded: the tool returned a result (not an error
 * envelope) and, when it reports an exit code, the code is 0. Bash returns a result for a
 * failing command too (the exit code is in the text), so `ok` alone does not say it passed.
 */
export function callSucceeded(record: Pick<CallRecord, 'executed' | 'ok' | 'content'>): boolean {
  if (!record.executed || !record.ok) return false;
  const code = reportedExitCode(record);
  return code === undefined || code === 0;
}

/**
 * The commands of a bash call to match patterns against: the whole command, each simple command
 * the policy listed (unwrapped and normalised), and, for a call the policy never saw, the
 * command split at `&&`, `||`, `;` and `|` (a rough split, used only for matching).
 */
export function commandsOf(record: CallRecord): string[] {
  const whole = bashCommand(record);
  if (whole === undefined) return [];
  const parts = (record.policy?.parts ?? []).filter((p) => p.kind === 'command').map((p) => p.subject);
  const rough = whole
    .split(/&&|\|\||;|\|/)
    .map((part) => part.trim())
    .filter(Boolean);
  return [...new Set([whole, ...parts, ...rough])];
}
