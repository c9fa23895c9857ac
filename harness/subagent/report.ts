/**
 * What crosses back from a subagent: one tool output built from the child's run. A child that
 * answered returns its answer with a line of counts; a child stopped by a limit (turns, budget,
 * loop, overflow) returns a partial report the harness builds from what the child found, without
 * another model call, as an `ok: true` result (`docs/architecture.md` §8). Only this
 * text reaches the parent's history; the child's messages stay in its own run.
 */
import type { RunResult } from '../ledger.ts';
import { resultMessage, type ToolOutput } from '../tools/types.ts';
import { contentText } from '../model/content.ts';

/** Calls shown in a partial report, most recent last. */
export const PARTIAL_REPORT_CALLS = 12;

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * The tool output for a finished child run. `maxTurns` is the child's turn limit (for the
 * wording of a `max_turns` stop).
 */
export function subagentReport(result: RunResult, info: { depth: number; maxTurns: number }): ToolOutput {
  const own = result.ledger.calls.filter((c) => c.scope.length === 0);
  const executed = own.filter((c) => c.executed).length;
  const denied = own.filter((c) => c.verdict === 'deny' || c.verdict === 'ask:denied').length;
  const counts = `${result.usage.turns} turn${result.usage.turns === 1 ? '' : 's'}; ${own.length} tool call${own.length === 1 ? '' : 's'}: ${executed} executed, ${denied} denied`;
  const details = {
    stopReason: result.stopReason,
    depth: info.depth,
    turns: result.usage.turns,
    toolCalls: own.length,
    executed,
    denied,
    tokens: result.usage.totalTokens,
  };
  if (result.stopReason === 'final_answer')
    return {
      ok: true,
      content: `subagent finished (final_answer) after ${counts}.\nReport:\n${result.finalAnswer ?? ''}`,
      details,
    };
  if (result.stopReason === 'human_cancelled')
    return {
      ok: false,
      errorType: 'interrupted',
      message: `the subagent was cancelled after ${counts}; nothing more will come from it`,
      details,
    };
  const why =
    result.stopReason === 'max_turns'
      ? `it reached subagent.maxTurns (${info.maxTurns})`
      : `${result.stopReason}${result.stopDetail ? `: ${result.stopDetail}` : ''}`;
  const lines = own.slice(-PARTIAL_REPORT_CALLS).map((c) => {
    const outcome = c.ok
      ? `ok: ${oneLine(c.content, 240)}`
      : `${c.errorType ?? 'error'}: ${oneLine(resultMessage(c.content), 160)}`;
    return `- ${c.tool} ${oneLine(c.arguments, 120)} → ${outcome}`;
  });
  const lastWords = [...result.messages]
    .reverse()
    .map((m) => (m.role === 'assistant' ? contentText(m.content) : ''))
    .find((text) => text.trim() !== '');
  const text = [
    `subagent stopped without a final report (${why}) after ${counts}. Partial report built by the harness from what it found:`,
    ...(lines.length > 0 ? lines : ['- (no tool calls)']),
    ...(own.length > PARTIAL_REPORT_CALLS
      ? [`(${own.length - PARTIAL_REPORT_CALLS} earlier calls not shown)`]
      : []),
    ...(lastWords ? [`Last words of the subagent: ${oneLine(lastWords, 600)}`] : []),
  ].join('\n');
  if (result.stopReason === 'model_error')
    return {
      ok: false,
      errorType: 'tool_failed',
      message: `the subagent failed (${why}).\n${text}`,
      details,
    };
  return { ok: true, content: text, details };
}
