/**
 * `npm run faults`: applies every fault of the catalogue (or of `--tag T`, or one `--fault ID`)
 * to a temporary copy of the repository, runs its tag's cases there, and prints which cases
 * caught it and the catch rate per tag. Exit 1 when a fault is not caught or does not apply.
 *
 *     npm run faults -- --tag loop
 *     npm run faults -- --fault loop/names-only
 */
import { parseArgs } from 'node:util';
import { faultsOf, inputsForTag, judgeFault, runBaseline, type FaultVerdict } from './library.ts';
import { FAULT_TAGS, type FaultTag } from './types.ts';
import { createWorkbench, type CaseOutcome } from './workbench.ts';

/** One tag's line of the summary. */
export interface TagSummary {
  tag: FaultTag;
  faults: number;
  caught: number;
  scenarios: number;
  recordings: number;
}

/** Runs the faults and prints one line per fault and per tag; resolves with the exit code. */
export async function reportFaults(options: {
  tags: readonly FaultTag[];
  only?: string;
  out?: (line: string) => void;
}): Promise<number> {
  const out = options.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const bench = createWorkbench();
  const summaries: TagSummary[] = [];
  let bad = 0;
  try {
    for (const tag of options.tags) {
      const faults = faultsOf(tag).filter((f) => options.only === undefined || f.id === options.only);
      if (faults.length === 0) continue;
      const inputs = await inputsForTag(tag);
      const baseline = await runBaseline(inputs);
      const broken = baseline.filter((o) => o.status === 'fail' || o.status === 'error');
      for (const o of broken)
        out(`  ! ${tag}: ${o.id} does not pass on the harness as it is: ${o.why ?? o.status}`);
      let caught = 0;
      for (const fault of faults) {
        const started = performance.now();
        let verdict: FaultVerdict | undefined;
        let problem: string | undefined;
        try {
          verdict = await judgeFault(bench, fault, inputs, baseline, { allCatches: true });
        } catch (error) {
          problem = (error as Error).message;
        }
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        if (verdict && verdict.caughtBy.length > 0) {
          caught += 1;
          out(`  ✓ ${fault.id} (${seconds} s): ${verdict.caughtBy.map(caughtText).join('; ')}`);
        } else {
          bad += 1;
          out(
            `  ✗ ${fault.id} (${seconds} s): ${problem ?? verdict?.unjudged ?? 'caught by no case'} — ${fault.bug}`,
          );
        }
        for (const o of verdict?.notCounted ?? []) {
          out(
            `      not counted: ${o.id} ${o.status} (${o.why ?? 'no reason'}): the fault declares no ${o.status}`,
          );
        }
      }
      summaries.push({
        tag,
        faults: faults.length,
        caught,
        scenarios: inputs.scenarios.length,
        recordings: inputs.recordings.length,
      });
    }
  } finally {
    bench.dispose();
  }
  out('');
  for (const s of summaries)
    out(
      `${s.tag.padEnd(18)} ${String(s.caught).padStart(3)}/${String(s.faults).padEnd(3)} caught (${((100 * s.caught) / s.faults).toFixed(0)}%) by ${s.scenarios} scenarios${s.recordings > 0 ? ` and ${s.recordings} recordings` : ''}`,
    );
  const total = summaries.reduce((n, s) => n + s.faults, 0);
  const caught = summaries.reduce((n, s) => n + s.caught, 0);
  out(`all                ${caught}/${total} caught`);
  return bad > 0 ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { tag: { type: 'string', multiple: true }, fault: { type: 'string' } },
  });
  const only = values.fault;
  const tags = (values.tag ?? (only ? [only.split('/')[0]!] : [...FAULT_TAGS])) as FaultTag[];
  const unknown = tags.filter((t) => !FAULT_TAGS.includes(t));
  if (unknown.length > 0) {
    process.stderr.write(`unknown tag ${unknown.join(', ')}; tags: ${FAULT_TAGS.join(', ')}\n`);
    process.exit(2);
  }
  process.exitCode = await reportFaults({ tags, ...(only ? { only } : {}) });
}

/** One catching case for the report: its id, configuration and the check that caught the fault. */
function caughtText(o: CaseOutcome): string {
  return `${o.id} [${o.config}] ${o.status === 'fail' ? '' : `${o.status}: `}${o.why ?? 'no check named'}`;
}
