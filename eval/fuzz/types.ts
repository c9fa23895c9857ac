/**
 * Shapes shared by the fuzzer's generators, runner, oracles and counterexample writer.
 *
 * A fuzz case is a scenario in our own format (`docs/scenario-format.md`), so a failing case can
 * be written out as a scenario file as it is, plus what the format cannot say: values the
 * scenario schema does not accept (`finish_reason: "content_filter"` or `null`) and the byte cut
 * points of a wire-level stream (the turn served over a fake HTTP connection through the live
 * client, split anywhere, also inside a UTF-8 character or a JSON field).
 */
import type { HarnessConfig } from '../../harness/config.ts';
import type { RunResult } from '../../harness/ledger.ts';
import type { StopReason } from '../../harness/loop/stop-reasons.ts';
import type { ModelRequest } from '../../harness/model/types.ts';
import type { ApprovalAnswer } from '../../harness/policy/types.ts';
import type { EffectClass } from '../../harness/tools/types.ts';
import type { Scenario } from '../scenario/types.ts';
import type { DeltaShape } from './deltas.ts';

/** How the scripted turns reach the harness. */
export type Transport =
  /** The `ScriptedModel` of `harness run` (turns with `stream: true` go through the stream assembler). */
  | { kind: 'scripted' }
  /**
   * The live `OpenAIModel` over a fake `fetch`: every turn is an HTTP exchange (SSE for
   * `stream: true` turns, a JSON body otherwise, an HTTP error for error turns), and the body's
   * bytes are cut at `cuts` (taken modulo the body length), so chunks end anywhere.
   */
  | {
      kind: 'wire';
      cuts: number[];
      /** Streamed turns as deltas of this shape (`deltas.ts`) instead of the scripted model's own. */
      shape?: DeltaShape;
    };

/** One generated case: a scenario (possibly with values outside the file schema) and its transport. */
export interface FuzzCase {
  /** Which generator family made it (for messages and file names). */
  family: string;
  scenario: Scenario;
  transport: Transport;
}

/** An execution a tool really performed (recorded by wrapping `execute`). */
export interface Execution {
  callId: string;
  tool: string;
  /** Resolved absolute paths the harness handed to the tool. */
  resolvedPaths: string[];
}

/** Everything observed about one run of a case. */
export interface Observation {
  /** The run's result; absent when `runHarness` threw or hung. */
  result?: RunResult;
  /** What `runHarness` threw (or the hang message). */
  thrown?: string;
  /** The configuration the run used (the base with the scenario's `config` merged over it). */
  config: HarnessConfig;
  /** Real path of the run's workspace (gone after the run; paths are compared as text). */
  workspace: string;
  /** Every request the model received, in order (deep copies). */
  received: ModelRequest[];
  /** The scripted approver's answers, by call id. */
  answers: Map<string, ApprovalAnswer>;
  /** Every tool execution, in the order `execute` was entered. */
  executions: Execution[];
  /** Each registered tool's effect class and whether it declares paths (for the policy oracle). */
  tools: Map<string, { effect: EffectClass; paths: boolean }>;
  /** What changed under `$OUTSIDE` during the run (`added <p>`, `modified <p>`, `removed <p>`). */
  outsideChanges: string[];
  /** Wire transport: turns the live client assembled differently from the script. */
  transportMismatches: string[];
}

/** The invariants the fuzzer checks on every run. */
export const INVARIANTS = [
  'never-throws',
  'one-stop-reason',
  'budgets',
  'approvals',
  'containment',
  'write-conflicts',
  'transcript',
  'requests',
  'ledger',
  'loop',
  'reserved-tags',
  'stream-assembly',
] as const;

/** One of {@link INVARIANTS}. */
export type Invariant = (typeof INVARIANTS)[number];

/**
 * One broken invariant. `calls` names the call ids that must not have executed (approvals,
 * containment, write conflicts); `modelCalls` the number of model calls a sound harness would
 * have made (budgets): the counterexample writer turns these into `expect` keys.
 */
export interface Violation {
  invariant: Invariant;
  message: string;
  calls?: string[];
  modelCalls?: number;
  /** The stop reason a sound harness ends this run with, when the oracle knows it (a spent budget). */
  stopReason?: StopReason;
}
