/**
 * The run a black box stands for (`blackBoxRun`): what the registry's expectation handlers and the
 * case metrics read, built from what the endpoint saw and, when the harness took the case's tools
 * over MCP, from the tool server's call log (which calls ran).
 */
import type { Price } from '../../harness/config.ts';
import { countRequest } from '../../harness/context/tokens.ts';
import type { CallRecord, RunResult } from '../../harness/ledger.ts';
import type { StopReason } from '../../harness/loop/stop-reasons.ts';
import type { McpCallRecord } from '../mcp/case-tools.ts';
import { looksLikeError, type ForeignCall, type ForeignRun } from './project.ts';
import { matchServedCalls } from './served-calls.ts';

/**
 * A call as a ledger record, as far as the outside shows. Without a call log: run and succeeded
 * when answered without an error. With the log entry it ran as (`served`, `null` when the log
 * has none): executed when the tool ran, succeeded when its result was no error; never executed
 * without an entry.
 */
function asRecord(call: ForeignCall, served: McpCallRecord | null | undefined): CallRecord {
  const answered = call.answer !== undefined;
  const ran = served?.executed === true;
  const ok = served === undefined ? answered && !looksLikeError(call.answer!) : ran && served?.ok === true;
  const executed = served === undefined ? ok : ran;
  return {
    callId: call.sentId ?? call.id ?? `call_${call.turn}_${call.index}`,
    turn: call.turn,
    scope: [],
    tool: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
    normalisations: [],
    verdict: 'none',
    executed,
    ok,
    content: call.answer ?? served?.text ?? '',
  };
}

/**
 * The run a black box stands for, for the registry's handlers and the case metrics: its
 * requests, the last request's messages as the conversation, the calls as ledger records
 * (`asRecord`; with `served`, the tool server's call log, executed as it shows), the model calls,
 * the tokens of the served turns (`ForeignRun.tokens`) and their cost at `price` (USD per million
 * tokens; zero without one); no events. `stopReason` is `final_answer` when it ended on one, else
 * `model_error` (the case result's own stop reason stays `null`). Pure.
 */
export function blackBoxRun(
  foreign: ForeignRun,
  price?: Price,
  served?: readonly McpCallRecord[],
): RunResult {
  const matched = served ? matchServedCalls(foreign.calls, served) : undefined;
  const calls = foreign.calls.map((call, i) => asRecord(call, matched ? (matched[i] ?? null) : undefined));
  const stopReason: StopReason = foreign.ending === 'final_answer' ? 'final_answer' : 'model_error';
  return {
    runId: 'black-box',
    stopReason,
    finalAnswer: foreign.finalAnswer,
    messages: [...(foreign.requests.at(-1)?.messages ?? [])],
    requests: foreign.requests,
    events: [],
    ledger: { turns: [], calls, stopReason: null },
    usage: {
      modelCalls: foreign.modelCalls,
      turns: foreign.servedTurns,
      toolCalls: calls.length,
      promptTokens: foreign.tokens.prompt,
      completionTokens: foreign.tokens.completion,
      totalTokens: foreign.tokens.prompt + foreign.tokens.completion,
      maxPromptTokens: Math.max(0, ...foreign.requests.map((r) => countRequest(r))),
      costUsd: price
        ? (foreign.tokens.prompt * price.inputUsdPerMTok +
            foreign.tokens.completion * price.outputUsdPerMTok) /
          1e6
        : 0,
      wallMs: 0,
    },
  };
}
