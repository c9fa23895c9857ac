/**
 * Handler for `transcript`: always checked, whether the key is written or not. The invariants
 * TI-1 to TI-4 of `docs/conventions.md` hold on every request sent and on the stored conversation.
 */
import type { Expectations } from '../scenario/types.ts';
import { transcriptProblems } from '../scenario/transcript.ts';
import { makeCheck, type Check } from './check.ts';
import type { ExpectContext } from './context.ts';

/** `transcript`: one check, listing the first ten problems when any. */
export function checkTranscript(_want: Expectations['transcript'], { run }: ExpectContext): Check[] {
  const problems = [
    ...run.requests.flatMap((request, i) =>
      transcriptProblems(request.messages).map((p) => `request ${i + 1}: ${p}`),
    ),
    ...transcriptProblems(run.messages).map((p) => `stored conversation: ${p}`),
  ];
  return [
    makeCheck(
      'transcript',
      problems.length === 0,
      'TI-1..TI-4 hold',
      problems,
      problems.length === 0
        ? 'TI-1..TI-4 hold in every request and the stored conversation'
        : problems.slice(0, 10).join('; '),
    ),
  ];
}
