/**
 * The one-line summary of a recording's replay findings, shared by the terminal table and the
 * markdown report: served turns, divergences (how many are explained: a decision of the harness
 * or a habit of the recorded client, `eval/replay/explain.ts`),
 * unused exchanges, non-model traffic, side conversations and the effect class each recorded
 * tool was given when it is not `read`.
 */
import type { CaseResult } from '../eval/results.ts';

/** The findings of `c` as one line (`''` when it has none). */
export function findingsNote(c: Pick<CaseResult, 'findings' | 'stopDetail'>): string {
  const f = c.findings;
  if (!f) return '';
  const bits: string[] = [];
  if (f.servedTurns !== undefined) bits.push(`${f.servedTurns} turn${f.servedTurns === 1 ? '' : 's'} served`);
  if (f.raisedErrors)
    bits.push(`${f.raisedErrors} recorded provider error${f.raisedErrors === 1 ? '' : 's'} raised`);
  const explained = f.explainedDivergences ?? 0;
  bits.push(
    `${f.divergenceCount} divergences${explained > 0 ? ` (${explained === f.divergenceCount ? 'all' : explained} explained: harness decisions or client habits)` : ''}`,
  );
  if (f.schemaInvalidCalls.length) bits.push(`${f.schemaInvalidCalls.length} schema-invalid`);
  if (f.unknownTools.length) bits.push(`unknown: ${f.unknownTools.join(',')}`);
  if (f.unusedExchanges) bits.push(`${f.unusedExchanges} unused`);
  if (f.nonModelTraffic?.length)
    bits.push(
      `non-model traffic not served: ${f.nonModelTraffic
        .map((t) => `${t.method} ${t.url.replace(/[?#].*$/, '')}`)
        .join(', ')}`,
    );
  if (f.conversations !== undefined && f.conversations > 1) bits.push(`${f.conversations} conversations`);
  const effects = (f.toolEffects ?? []).filter((e) => e.effect !== 'read');
  if (effects.length) bits.push(`tools: ${effects.map((e) => `${e.tool}=${e.effect}`).join(', ')}`);
  if (f.firstDivergence && f.divergenceCount > explained) bits.push(`first: ${f.firstDivergence}`);
  if (/recording_exhausted/.test(c.stopDetail ?? ''))
    bits.push('the recording ends here (expected for response-only and cut-off recordings)');
  return bits.join('; ');
}
