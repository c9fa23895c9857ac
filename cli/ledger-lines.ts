/**
 * The step-by-step ledger as terminal lines (turn, then each call with its verdict and outcome),
 * shared by `replay`, `record`, `chat`, `show` and `run --verbose`.
 */
import type { HarnessEvent } from '../harness/events.ts';
import type { Ledger } from '../harness/ledger.ts';
import type { palette } from '../reports/color.ts';

/** What {@link ledgerLines} adds to the compact form. */
export interface LedgerLineOptions {
  /**
   * Also the model's text per turn, the policy rule that decided each call, and the first line of
   * each result (`show`, `run --verbose`), each cut to `width` characters. @default false
   */
  detail?: boolean;
  /** Cut of arguments, texts and results, in characters. @default 60 */
  width?: number;
  /** The model's text per turn (from the sidecar's responses), keyed by turn number. */
  texts?: ReadonlyMap<number, string>;
}

const cut = (text: string, width: number) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > width ? `${line.slice(0, width - 3)}...` : line;
};

/**
 * One line per top-level turn and one per call of that turn; arguments cut to 60 characters, as
 * the model sent them (`rawArguments`) when the harness repaired or replaced them, with the
 * replayed form on a line of its own in `detail` mode.
 */
export function ledgerLines(
  ledger: Ledger,
  c: ReturnType<typeof palette>,
  options: LedgerLineOptions = {},
): string[] {
  const width = options.width ?? 60;
  const out: string[] = [];
  for (const turn of ledger.turns.filter((t) => t.scope.length === 0)) {
    out.push(
      `turn ${turn.turn}${turn.wrapUp ? ' (wrap-up)' : ''}: ${turn.ok ? `finish ${turn.finishReason ?? 'none'}, ${turn.toolCalls} tool calls, ${turn.promptTokens}+${turn.completionTokens} tokens` : c.red(`model error ${turn.error?.code}: ${turn.error?.message}`)}`,
    );
    const text = options.texts?.get(turn.turn);
    if (options.detail && text) out.push(`  model: ${JSON.stringify(cut(text, width))}`);
    for (const call of ledger.calls.filter((x) => x.turn === turn.turn && x.scope.length === 0)) {
      const outcome = call.ok ? c.green('ok') : c.red(call.errorType ?? 'error');
      // What the model sent, when the harness had to repair or replace it (broken JSON, a
      // non-object): the line shows the mistake, not the `{}` replayed in its place.
      const sent =
        call.rawArguments === undefined
          ? call.arguments
          : typeof call.rawArguments === 'string'
            ? call.rawArguments
            : JSON.stringify(call.rawArguments);
      const args = sent.length > width ? `${sent.slice(0, width - 3)}...` : sent;
      const rule = options.detail && call.policy ? ` (rule ${call.policy.rule})` : '';
      out.push(
        `  ${call.callId} ${call.tool}(${args}) verdict ${call.verdict}${rule}, ${call.executed ? 'executed' : 'not executed'}, ${outcome}`,
      );
      if (options.detail && sent !== call.arguments)
        out.push(`    replayed to the model as: ${cut(call.arguments, width)}`);
      if (options.detail) out.push(`    result: ${JSON.stringify(cut(call.content, width))}`);
    }
  }
  return out;
}

/** The model's text of each top-level turn, from a run's events (for {@link LedgerLineOptions.texts}). */
export function turnTexts(events: readonly HarnessEvent[]): Map<number, string> {
  const out = new Map<number, string>();
  for (const e of events)
    if (e.type === 'model_call_end' && e.scope.length === 0 && e.content) out.set(e.turn, e.content);
  return out;
}
