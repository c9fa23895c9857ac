/**
 * Replay throughput: every bundled recording (`recordings/`, canaries left out) replayed through the live harness
 * under the default configuration, over and over for a time budget, one case at a time. Cases
 * per second (a case is one cassette replayed and scored).
 */
import path from 'node:path';
import { loadConfig, PACKAGE_ROOT } from '../eval/config-load.ts';
import { runRecording } from '../eval/run-recording.ts';
import { loadCassettes } from '../eval/suite.ts';

/** The replay figure of `bench/results/latest.json`. */
export interface ReplayRow {
  /** Distinct cassettes. */
  cassettes: number;
  /** Cases replayed in the measured time. */
  cases: number;
  casesPerSecond: number;
  /** Cases that did not pass (they must be 0: the bundled suite passes). */
  failed: number;
}

/** Replays the bundled recordings for `budgetMs` (after one unmeasured pass). */
export async function replayThroughput(budgetMs: number): Promise<ReplayRow> {
  const config = loadConfig();
  // Canaries are edited on purpose: their replay must diverge, and the suite scores them as such.
  const recordings = (await loadCassettes([path.join(PACKAGE_ROOT, 'recordings')], PACKAGE_ROOT)).filter(
    (r) => !r.canary,
  );
  for (const r of recordings) await runRecording(r.cassette, r.file, config);
  let cases = 0;
  let failed = 0;
  const started = performance.now();
  while (performance.now() - started < budgetMs || cases === 0)
    for (const r of recordings) {
      const { result } = await runRecording(r.cassette, r.file, config);
      cases += 1;
      if (result.status !== 'pass') failed += 1;
    }
  const seconds = (performance.now() - started) / 1000;
  return {
    cassettes: recordings.length,
    cases,
    casesPerSecond: Math.round((cases / seconds) * 10) / 10,
    failed,
  };
}
