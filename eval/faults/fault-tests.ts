/**
 * The vitest suite of one tag's faults: the tag's scenarios pass on the harness as it is (run in
 * this process), and each fault of the tag, applied to a temporary copy of the repository, makes
 * at least one of them fail (run there by `harness-bench run` in a child process). The test name
 * names the fault; a fault no scenario catches fails with the fault's id and bug, and a fault
 * whose patch no longer applies fails with "patch does not apply". One copy per tag file; the
 * tag files run two at a time across vitest's forks (`maxWorkers`, vitest.config.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultsOf, inputsForTag, judgeFault, runBaseline, type TagInputs } from './library.ts';
import type { FaultTag } from './types.ts';
import { createWorkbench, type CaseOutcome, type Workbench } from './workbench.ts';

/** A fault run may take a while on a loaded 2-core machine (the copy is bundled, the child starts the bench). */
const FAULT_TIMEOUT_MS = 240_000;

/** Declares the tests of `tag`. */
export function faultTests(tag: FaultTag): void {
  describe(`faults of ${tag}`, () => {
    let inputs: TagInputs;
    let baseline: CaseOutcome[];
    let bench: Workbench | undefined;
    beforeAll(async () => {
      inputs = await inputsForTag(tag);
      baseline = await runBaseline(inputs);
      bench = createWorkbench();
    }, FAULT_TIMEOUT_MS);
    afterAll(() => bench?.dispose());

    it(`every ${tag} case passes on the harness as it is`, () => {
      expect(inputs.scenarios.length + inputs.recordings.length).toBeGreaterThan(0);
      const failing = baseline
        .filter((o) => o.status !== 'pass' && o.status !== 'skipped')
        .map((o) => `${o.id}: ${o.status}: ${o.why ?? ''}`);
      expect(failing).toEqual([]);
    });

    for (const fault of faultsOf(tag))
      it(
        `${fault.id} is caught: ${fault.bug}`,
        async (context) => {
          const verdict = await judgeFault(bench!, fault, inputs, baseline);
          if (verdict.unjudged) context.skip(verdict.unjudged);
          expect(
            verdict.caughtBy.map((o) => o.id),
            `fault ${fault.id} (${fault.bug}) is caught by no ${tag} case: a scenario is missing${notCountedText(verdict.notCounted)}`,
          ).not.toEqual([]);
        },
        FAULT_TIMEOUT_MS,
      );
  });
}

/** The cases that errored or were skipped without the fault declaring it, for the failure message. */
function notCountedText(outcomes: readonly CaseOutcome[] | undefined): string {
  if (!outcomes?.length) return '';
  return ` (not counted, the fault declares no such status: ${outcomes.map((o) => `${o.id} ${o.status}: ${o.why ?? ''}`).join('; ')})`;
}
