/** Case results for the comparison tests. */
import type { CaseResult } from '../results.ts';

/** A passing scenario case of `config` unless overridden (usage 100 tokens, 2 turns, 1 call). */
export function result(id: string, config: string, over: Partial<CaseResult> = {}): CaseResult {
  return {
    id,
    kind: 'scenario',
    config,
    status: 'pass',
    stopReason: 'final_answer',
    file: `scenarios/${id}.yaml`,
    tags: [],
    checks: [],
    usage: {
      modelCalls: 2,
      turns: 2,
      toolCalls: 1,
      promptTokens: 80,
      completionTokens: 20,
      totalTokens: 100,
      costUsd: 0.001,
      durationMs: 3,
    },
    verdicts: { allow: 1, 'ask:approved': 0, 'ask:denied': 0, deny: 0, none: 0 },
    divergences: [],
    ...over,
  } as CaseResult;
}

/** `result` failing with `why`. */
export function failing(id: string, config: string, why = 'stopReason: expected final_answer'): CaseResult {
  return result(id, config, { status: 'fail', firstFailure: why } as Partial<CaseResult>);
}
