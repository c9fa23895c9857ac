/**
 * The invariants checked on every fuzzed run (`types.ts` lists them). Each oracle compares the
 * harness's own account of the run (RunResult, events, ledger) with the configuration, with
 * what the observers saw (approver answers, real tool executions, requests the model received),
 * or with itself. Only the top-level scope is checked (the fuzz cases spawn no subagents).
 *
 * Sources: the transcript invariants TI-1..TI-4 (`eval/scenario/transcript.ts`), the budgets and
 * stop reasons of `docs/architecture.md` §5–6, the pipeline order of §4. The oracles live by
 * what they check: `oracles-stop.ts` (stop reason, budgets, loops), `oracles-approval.ts`
 * (approvals, containment, reserved tags), `oracles-record.ts` (transcript, ledger).
 */
import { approvalOracle, containmentOracle, reservedTagOracle } from './oracles-approval.ts';
import { ledgerOracle, transcriptOracle } from './oracles-record.ts';
import type { Add } from './oracles-shared.ts';
import { budgetOracle, loopOracle, stopReasonOracle } from './oracles-stop.ts';
import type { Observation, Violation } from './types.ts';

/** Every violation of the invariants in one observed run; empty when the run is sound. Pure. */
export function checkRun(obs: Observation): Violation[] {
  const violations: Violation[] = [];
  const add: Add = (invariant, message, extra = {}) => violations.push({ invariant, message, ...extra });
  if (obs.thrown !== undefined || !obs.result) {
    add('never-throws', `runHarness threw: ${obs.thrown ?? 'no result'}`);
    return violations;
  }
  const result = obs.result;
  stopReasonOracle(result, add);
  budgetOracle(obs, result, add);
  approvalOracle(obs, result, add);
  containmentOracle(obs, result, add);
  transcriptOracle(obs, result, add);
  ledgerOracle(result, add);
  loopOracle(obs, result, add);
  reservedTagOracle(obs, result, add);
  for (const mismatch of obs.transportMismatches) add('stream-assembly', mismatch);
  return violations;
}
