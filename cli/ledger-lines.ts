/**
 * The step-by-step ledger as terminal lines (turn, then each call with its verdict and outcome),
 * shared by `replay`, `record` and `chat`.
 */
import type { Ledger } from '../harness/ledger.ts';
import type { palette } from '../reports/color.ts';

/** One line per top-level turn and one per call of that turn; arguments cut to 60 characters. */
export function ledgerLines(ledger: Ledger, c: ReturnType<typeof palette>): string[] {
  const out: string[] = [];
  for (const turn of ledger.turns.filter((t) => t.scope.length === 0)) {
    out.push(
      `turn ${turn.turn}${turn.wrapUp ? ' (wrap-up)' : ''}: ${turn.ok ? `finish ${turn.finishReason ?? 'none'}, ${turn.toolCalls} tool calls, ${turn.promptTokens}+${turn.completionTokens} tokens` : c.red(`model error ${turn.error?.code}: ${turn.error?.message}`)}`,
    );
    for (const call of ledger.calls.filter((x) => x.turn === turn.turn && x.scope.length === 0)) {
      const outcome = call.ok ? c.green('ok') : c.red(call.errorType ?? 'error');
      const args = call.arguments.length > 60 ? `${call.arguments.slice(0, 57)}...` : call.arguments;
      out.push(
        `  ${call.callId} ${call.tool}(${args}) verdict ${call.verdict}, ${call.executed ? 'executed' : 'not executed'}, ${outcome}`,
      );
    }
  }
  return out;
}
