/**
 * The fault catalogue, one file per tag (`eval/faults/README.md`), and the cassettes the
 * `replay` faults run besides the scenarios tagged `replay`.
 */
import type { Fault } from '../types.ts';
import { BAD_JSON_FAULTS } from './bad-json.ts';
import { BUDGET_FAULTS } from './budget.ts';
import { CONTEXT_FAULTS } from './context.ts';
import { HALLUCINATED_TOOL_FAULTS } from './hallucinated-tool.ts';
import { INJECTION_FAULTS } from './injection.ts';
import { LOOP_FAULTS } from './loop.ts';
import { PERMISSIONS_FAULTS } from './permissions.ts';
import { REPLAY_FAULTS } from './replay.ts';
import { SANDBOX_FAULTS } from './sandbox.ts';
import { SESSION_FAULTS } from './session.ts';
import { SUBAGENT_FAULTS } from './subagent.ts';
import { TRANSCRIPT_FAULTS } from './transcript.ts';

/** Every fault of every tag. */
export const CATALOGUE: readonly Fault[] = [
  ...BAD_JSON_FAULTS,
  ...BUDGET_FAULTS,
  ...CONTEXT_FAULTS,
  ...HALLUCINATED_TOOL_FAULTS,
  ...INJECTION_FAULTS,
  ...LOOP_FAULTS,
  ...PERMISSIONS_FAULTS,
  ...REPLAY_FAULTS,
  ...SANDBOX_FAULTS,
  ...SESSION_FAULTS,
  ...SUBAGENT_FAULTS,
  ...TRANSCRIPT_FAULTS,
];

/** Cassettes (paths relative to the repository) run with the `replay` faults. */
export const REPLAY_RECORDINGS: readonly string[] = ['recordings/examples/stub-read-then-write-asked.json'];
