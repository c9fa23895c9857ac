/**
 * The approved-behaviour gate of a run (`docs/approved-behaviour.md`): each case that ran is
 * compared with the behaviour approved for it (`store.ts`) and gets an `approved` check. Equal: the
 * check passes. Different: it fails with the first divergence (a JSON pointer into the behaviour,
 * the approved and the new value), and a case that passed its expectations fails with
 * "behaviour changed"; expectations still say what must be true, approval catches what changed.
 * None approved for the case under this configuration on a machine like this: the check is not
 * applicable, with the command that approves it. In `write` mode (`harness-bench approve`) the
 * behaviours are collected instead and {@link ApprovalGate.flush} writes them.
 */
import type { RunResult } from '../../harness/ledger.ts';
import { makeCheck, notApplicableCheck } from '../expect/check.ts';
import { diffJson, formatDivergence } from '../replay/request-diff.ts';
import { withCheck, type CaseResult } from '../results.ts';
import { behaviourOf, type Behaviour } from './behaviour.ts';
import { approvedBehaviour, behaviourKey, readApproved, writeApproved } from './store.ts';

/** How a run uses approved behaviour. */
export interface ApprovalOptions {
  /** The folder of the approved files (`approved/` of the project). */
  dir: string;
  /** `check`: compare (the main job); `write`: record what ran (`approve`). */
  mode: 'check' | 'write';
  /** Whether bubblewrap is usable here: behaviours are keyed by it (`behaviourKey`). */
  sandbox: boolean;
}

/** The gate one run goes through. */
export interface ApprovalGate {
  readonly options: ApprovalOptions;
  /**
   * `result` with its `approved` check (check mode), or as it was after noting its behaviour
   * (write mode). `harness`: the name of a foreign harness under test; its behaviours are keyed
   * apart (`<harness>: <configuration>`), so it is never compared with ours.
   */
  apply(result: CaseResult, run: RunResult | undefined, harness?: string): CaseResult;
  /** Write mode: writes the collected behaviours; returns how many cases and how many changed. */
  flush(): { cases: number; changed: number };
}

/** A gate for `options`. */
export function approvalGate(options: ApprovalOptions): ApprovalGate {
  const pending = new Map<string, Record<string, Behaviour>>();
  return {
    options,
    apply(result, run, harness) {
      if (!run || result.status === 'skipped' || result.status === 'error') return result;
      const key = `${harness ? `${harness}: ` : ''}${behaviourKey(result.config, options.sandbox)}`;
      const now = behaviourOf(result, run);
      if (options.mode === 'write') {
        pending.set(result.id, { ...pending.get(result.id), [key]: now });
        return result;
      }
      const approved = approvedBehaviour(readApproved(options.dir, result.id), key);
      if (!approved)
        return withCheck(
          result,
          notApplicableCheck(
            'approved',
            key,
            `no approved behaviour of ${result.id} under ${key}: run harness-bench approve -f ${result.id} to approve it`,
          ),
        );
      const first = diffJson(approved, now, 0, 1)[0];
      return withCheck(
        result,
        first
          ? makeCheck(
              'approved',
              false,
              'the approved behaviour',
              'behaviour changed',
              `behaviour changed: ${formatDivergence(first).replace(': recorded ', ': approved ').replace(', replayed ', ', now ')} (approve it with harness-bench approve -f ${result.id} if the change is right)`,
            )
          : makeCheck(
              'approved',
              true,
              'the approved behaviour',
              'the same',
              `the behaviour is the approved one (${key})`,
            ),
      );
    },
    flush() {
      let changed = 0;
      for (const [id, behaviours] of pending) {
        const old = readApproved(options.dir, id);
        if (
          Object.entries(behaviours).some(
            ([key, b]) => JSON.stringify(approvedBehaviour(old, key)) !== JSON.stringify(b),
          )
        )
          changed += 1;
        writeApproved(options.dir, id, behaviours);
      }
      const cases = pending.size;
      pending.clear();
      return { cases, changed };
    },
  };
}
