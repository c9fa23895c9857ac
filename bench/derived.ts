/**
 * What reading a run's derived fields costs. `RunResult.ledger` and `RunResult.provenance` are
 * computed when first read (`harness/ledger.ts`, `defineDerivedFields`), so the per-step table,
 * whose systems never read them, leaves them out; this figure puts them back for a caller that
 * reads both: one run of the per-step workload under the default configuration, then the two
 * derivations timed with tinybench on its events and messages (as cold or warm as the machine
 * leaves them), in µs per step of the run.
 */
import { Bench } from 'tinybench';
import { buildLedger } from '../harness/ledger.ts';
import { messageOrigins } from '../harness/policy/taint.ts';
import { deterministicDeps } from '../harness/deps.ts';
import { runHarness } from '../harness/loop/run.ts';
import { ScriptedModel } from '../harness/model/scripted-model.ts';
import { LocalSandbox } from '../harness/sandbox/local.ts';
import { FILE_TOOLS } from '../harness/tools/builtin/files.ts';
import { HARNESS_CONFIGS, scriptedTurns } from './systems.ts';
import { benchWorkspace } from './workload.ts';

/** The derived-fields figure of `bench/results/latest.json`. */
export interface DerivedRow {
  /** Steps of the run whose fields were derived. */
  steps: number;
  /** Median time to build the ledger and the provenance, divided by the run's steps (µs). */
  usPerStep: number;
}

/**
 * Times building the ledger and provenance of one `steps`-step run for `budgetMs`.
 * @throws when the run does not end with its final answer
 */
export async function derivedFieldsCost(steps: number, budgetMs: number): Promise<DerivedRow> {
  const workspace = benchWorkspace();
  try {
    const result = await runHarness({
      task: 'read the file',
      config: HARNESS_CONFIGS.default,
      model: new ScriptedModel(scriptedTurns(steps)),
      tools: [FILE_TOOLS.read_file!],
      sandbox: new LocalSandbox({ allowExec: false }),
      workspace: workspace.dir,
      deps: deterministicDeps(),
    });
    if (result.stopReason !== 'final_answer')
      throw new Error(`derived: the run ended with ${result.stopReason}`);
    const bench = new Bench({ time: budgetMs });
    bench.add('ledger + provenance', () => {
      buildLedger(result.events);
      messageOrigins(result.messages, () => false);
    });
    await bench.run();
    const task = bench.tasks[0]?.result;
    if (!task || !('latency' in task)) throw new Error('derived: no result');
    return { steps, usPerStep: Math.round(((task.latency.p50 ?? Number.NaN) * 1000 * 100) / steps) / 100 };
  } finally {
    workspace.dispose();
  }
}
