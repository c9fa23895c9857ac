/**
 * A second shrinking pass after fast-check's: fast-check shrinks each generated value within its
 * generator (an alternating pair stays a pair, a segment keeps its turns), so the smallest case
 * it finds can still carry turns the failure never reaches. This pass removes whole turns, then
 * single tool calls, then fake-tool results and approver rules, one at a time, keeping each
 * removal while the case still breaks one of the same invariants. Deterministic; bounded by
 * `maxRuns` re-runs.
 */
import type { HarnessConfig } from '../../harness/config.ts';
import { isErrorTurn } from '../../harness/model/scripted-model.ts';
import type { FuzzCase, Violation } from './types.ts';

type Check = (fuzzCase: FuzzCase, base: HarnessConfig) => Promise<{ violations: Violation[] }>;

function withModel(fuzzCase: FuzzCase, model: FuzzCase['scenario']['model']): FuzzCase {
  return { ...fuzzCase, scenario: { ...fuzzCase.scenario, model } };
}

/** Candidate smaller cases, smallest steps last within each kind. */
function* candidates(fuzzCase: FuzzCase): Generator<FuzzCase> {
  const { model } = fuzzCase.scenario;
  for (let i = model.length - 1; i >= 0; i -= 1)
    if (model.length > 1)
      yield withModel(
        fuzzCase,
        model.filter((_, k) => k !== i),
      );
  for (let i = 0; i < model.length; i += 1) {
    const turn = model[i]!;
    if (isErrorTurn(turn)) continue;
    if (turn.repeat !== undefined && turn.repeat > 1)
      yield withModel(
        fuzzCase,
        model.map((t, k) => (k === i ? { ...turn, repeat: turn.repeat! - 1 } : t)),
      );
    const calls = turn.tool_calls ?? [];
    for (let c = 0; c < calls.length; c += 1)
      if (calls.length > 1)
        yield withModel(
          fuzzCase,
          model.map((t, k) => (k === i ? { ...turn, tool_calls: calls.filter((_, j) => j !== c) } : t)),
        );
  }
  const fakes = fuzzCase.scenario.fakeTools ?? {};
  for (const [name, spec] of Object.entries(fakes)) {
    const results = spec.results ?? [];
    for (let r = 0; r < results.length; r += 1)
      if (results.length > 1)
        yield {
          ...fuzzCase,
          scenario: {
            ...fuzzCase.scenario,
            fakeTools: { ...fakes, [name]: { ...spec, results: results.filter((_, j) => j !== r) } },
          },
        };
  }
  const rules = fuzzCase.scenario.approver?.rules ?? [];
  for (let r = 0; r < rules.length; r += 1)
    yield {
      ...fuzzCase,
      scenario: {
        ...fuzzCase.scenario,
        approver: { ...fuzzCase.scenario.approver, rules: rules.filter((_, j) => j !== r) },
      },
    };
}

/**
 * The smallest case reachable by single removals that still breaks one of the invariants of
 * `violations`, with its violations. Re-runs the case at most `maxRuns` times.
 */
export async function minimizeCase(
  fuzzCase: FuzzCase,
  violations: Violation[],
  base: HarnessConfig,
  check: Check,
  maxRuns = 400,
): Promise<{ fuzzCase: FuzzCase; violations: Violation[]; runs: number }> {
  const wanted = new Set(violations.map((v) => v.invariant));
  let best = { fuzzCase, violations };
  let runs = 0;
  let progress = true;
  while (progress && runs < maxRuns) {
    progress = false;
    for (const candidate of candidates(best.fuzzCase)) {
      if (runs >= maxRuns) break;
      runs += 1;
      const { violations: found } = await check(candidate, base);
      if (found.some((v) => wanted.has(v.invariant))) {
        best = { fuzzCase: candidate, violations: found };
        progress = true;
        break;
      }
    }
  }
  return { ...best, runs };
}
