/**
 * Peak memory of one long run, in a fresh process (so one system's garbage never counts against
 * another): `node --import tsx bench/rss.ts <system> [config] <steps>` prints one JSON line with
 * the resident set before the run and its peak (`process.resourceUsage().maxRSS`), in MB.
 * `peakRss` in `run.ts` starts one of these per system.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CONTENDERS } from './per-step.ts';
import type { SystemName } from './systems.ts';
import { benchWorkspace } from './workload.ts';

/** Peak resident memory of one run. MB (10^6 bytes). */
export interface RssRow {
  system: SystemName;
  config?: string;
  steps: number;
  /** Resident set after loading, before the run. */
  baselineMb: number;
  /** The largest resident set of the process (load and run). */
  peakMb: number;
}

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

/** Runs `system` for `steps` steps in a child process and returns its memory row. @throws when the child fails. */
export function peakRss(system: SystemName, config: string | undefined, steps: number): RssRow {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), system, config ?? '-', String(steps)],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  if (child.status !== 0) throw new Error(`rss probe ${system} failed: ${child.stderr.slice(-2000)}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as RssRow;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [system, config, steps] = process.argv.slice(2) as [SystemName, string, string];
  const contender = CONTENDERS.find((c) => c.system === system && (c.config ?? '-') === config);
  if (!contender) throw new Error(`no system ${system} ${config}`);
  const workspace = benchWorkspace();
  const runSteps = contender.setup(workspace.dir);
  await runSteps(10);
  const baseline = process.memoryUsage().rss;
  await runSteps(Number(steps));
  workspace.dispose();
  const row: RssRow = {
    system,
    ...(config !== '-' ? { config } : {}),
    steps: Number(steps),
    baselineMb: mb(baseline),
    peakMb: mb(process.resourceUsage().maxRSS * 1024),
  };
  console.log(JSON.stringify(row));
}
