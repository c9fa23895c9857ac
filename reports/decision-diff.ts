/**
 * The A/B decision diff of one case: its tool calls under each configuration side by side, step by
 * step (the n-th call of the ledger under A against the n-th under B, subagent calls included in
 * ledger order), each with the verdict and the policy rule that decided it, and whether it ran;
 * plus the first step where the configurations part (a different call, verdict, rule or outcome,
 * or one ran out of calls) — the first place to look when a case passes under one and fails
 * under the other.
 */
import type { CallRecord, Ledger } from '../harness/ledger.ts';

/** One call as the diff shows it. `rule` is the policy rule's name (`-` when policy never ran). */
export interface DecisionCell {
  callId: string;
  tool: string;
  arguments: string;
  verdict: string;
  rule: string;
  executed: boolean;
  ok: boolean;
  errorType?: string;
}

/** One step: the call under each configuration (`null` when that ledger has fewer calls). */
export interface DecisionRow {
  step: number;
  cells: Record<string, DecisionCell | null>;
  /** The configurations disagree on this step (tool, arguments, verdict, rule, executed or outcome). */
  differs: boolean;
}

const cellOf = (call: CallRecord, width: number): DecisionCell => ({
  callId: call.callId,
  tool: call.tool,
  arguments: call.arguments.length > width ? `${call.arguments.slice(0, width - 3)}...` : call.arguments,
  verdict: call.verdict,
  rule: call.policy?.rule ?? '-',
  executed: call.executed,
  ok: call.ok,
  ...(call.errorType ? { errorType: call.errorType } : {}),
});

const sameDecision = (a: DecisionCell | null, b: DecisionCell | null) =>
  a !== null &&
  b !== null &&
  a.tool === b.tool &&
  a.arguments === b.arguments &&
  a.verdict === b.verdict &&
  a.rule === b.rule &&
  a.executed === b.executed &&
  a.ok === b.ok;

/**
 * The rows of the diff over the ledgers by configuration name (in the order given); arguments cut
 * to `width` characters. Configurations without a ledger (the case did not run) are left out.
 */
export function decisionRows(ledgers: Record<string, Ledger | undefined>, width = 120): DecisionRow[] {
  const names = Object.keys(ledgers).filter((n) => ledgers[n]);
  const longest = Math.max(0, ...names.map((n) => ledgers[n]!.calls.length));
  const rows: DecisionRow[] = [];
  for (let i = 0; i < longest; i += 1) {
    const cells: Record<string, DecisionCell | null> = {};
    for (const n of names) {
      const call = ledgers[n]!.calls[i];
      cells[n] = call ? cellOf(call, width) : null;
    }
    const values = names.map((n) => cells[n]!);
    const differs = values.some((v) => !sameDecision(v, values[0]!));
    rows.push({ step: i + 1, cells, differs });
  }
  return rows;
}

/**
 * The first step where `config` parts from `baseline`, as one line (`step 3: write_file verdict
 * ask:denied (rule …) under strict, allow (rule …) under default`), or the stop reasons when every
 * call agrees; `undefined` when the two ledgers make the same decisions and stop alike.
 */
export function firstDivergingStep(
  rows: readonly DecisionRow[],
  baseline: string,
  config: string,
  stops: Record<string, string | null>,
): string | undefined {
  const show = (cell: DecisionCell | null | undefined) =>
    cell
      ? `${cell.tool}(${cell.arguments.length > 40 ? `${cell.arguments.slice(0, 37)}...` : cell.arguments}) verdict ${cell.verdict} (rule ${cell.rule}), ${cell.executed ? 'executed' : 'not executed'}${cell.ok ? '' : `, ${cell.errorType ?? 'error'}`}`
      : 'no call';
  for (const row of rows) {
    const a = row.cells[baseline];
    const b = row.cells[config];
    if (a === undefined || b === undefined) return undefined;
    if (!sameDecision(a, b))
      return `step ${row.step}: ${show(b)} under ${config}; ${show(a)} under ${baseline}`;
  }
  if (stops[baseline] !== stops[config])
    return `stop reason: ${stops[config] ?? 'none'} under ${config}; ${stops[baseline] ?? 'none'} under ${baseline}`;
  return undefined;
}
