/**
 * `npm run bench`: the harness's own cost, measured offline with tinybench and reported as
 * ratios within one run (never as timed assertions in tests):
 * - per-step overhead of a scripted read_file loop at N = 10, 50, 200 and 1,000 steps, for
 *   harness-bench (default configuration, and with session persistence on) beside a bare floor
 *   loop, the Vercel AI SDK and the OpenAI Agents SDK, interleaved (`per-step.ts`);
 * - bash policy decisions per second, cold and cached (`policy.bench.ts`);
 * - replay throughput of the bundled recordings, cases per second (`replay.ts`);
 * - peak resident memory of a 1,000-step run, each system in a fresh process (`rss.ts`);
 * - token counting, seconds per task (`tokens.bench.ts`).
 *
 * Writes `bench/results/latest.json` and prints the tables.
 *
 *   npm run bench                 (about 5–10 minutes on 2 busy cores)
 *   npm run bench -- --quick      (N ≤ 200, 3 rounds, no memory probes)
 *   npm run bench -- --rounds 7
 *   npm run bench -- --quick --steps 10,50 --per-step-only --out /tmp/b.json   (iterating on the loop)
 *
 * `--steps` picks step counts of the per-step table, `--systems floor,harness-bench (default)`
 * measures only those (a system name takes all its configurations), `--per-step-only` skips everything after it,
 * `--out` writes the results elsewhere than `bench/results/latest.json`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Table from 'cli-table3';
import { Bench } from 'tinybench';
import { CONTENDERS, label, measurePerStep, type PerStepRow } from './per-step.ts';
import { addPolicyBenchmarks, decisionsPerSecond } from './policy.bench.ts';
import { replayThroughput } from './replay.ts';
import { peakRss, type RssRow } from './rss.ts';
import { runTokenBench } from './tokens.bench.ts';
import { SAMPLE_STEPS, STEP_COUNTS } from './workload.ts';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : quick ? 3 : 5;
const flag = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const stepsFlag = flag('--steps');
const steps = stepsFlag
  ? stepsFlag.split(',').map((n) => Number(n))
  : quick
    ? STEP_COUNTS.filter((n) => n <= 200)
    : [...STEP_COUNTS];
if (steps.some((n) => !Number.isInteger(n) || n < 1)) {
  process.stderr.write(`--steps ${stepsFlag}: a comma-separated list of positive integers\n`);
  process.exit(2);
}
const perStepOnly = args.includes('--per-step-only');
const systemsFlag = flag('--systems');
const only = systemsFlag?.split(',').map((s) => s.trim());
const known = CONTENDERS.flatMap((c) => [c.system, label(c)]);
const unknown = only?.filter((s) => !known.includes(s)) ?? [];
if (unknown.length > 0) {
  process.stderr.write(
    `--systems: unknown ${unknown.join(', ')}; known: ${[...new Set(known)].join(', ')}\n`,
  );
  process.exit(2);
}
const outFlag = flag('--out');
const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

log(`per-step overhead: ${steps.join(', ')} steps, ${rounds} interleaved rounds`);
const perStep = await measurePerStep({
  steps,
  rounds,
  budgetMs: 300,
  passes: 6,
  warmupMs: quick ? 1000 : 2000,
  ...(only ? { only } : {}),
  onProgress: log,
});

const policyBench = new Bench({ time: 1000 });
if (!perStepOnly) {
  log('policy decisions per second');
  await addPolicyBenchmarks(policyBench);
  await policyBench.run();
}
const policy = {
  coldPerSecond: Math.round(decisionsPerSecond(policyBench, 'policy: bash decision, cold') ?? 0),
  cachedPerSecond: Math.round(decisionsPerSecond(policyBench, 'policy: bash decision, cached') ?? 0),
};

if (!perStepOnly) log('replay throughput');
const replay = perStepOnly
  ? { casesPerSecond: 0, cassettes: 0, cases: 0, failed: 0 }
  : await replayThroughput(quick ? 1500 : 4000);

const rss: RssRow[] = [];
if (!quick && !perStepOnly)
  for (const c of CONTENDERS) {
    log(`peak memory: ${c.system}${c.config ? ` (${c.config})` : ''}, 1,000 steps`);
    rss.push(peakRss(c.system, c.config, 1000));
  }

type Measure = 'usPerStep' | 'cpuUsPerStep';
const at = (measure: Measure, system: string, n: number, config?: string) =>
  perStep.find((r) => r.system === system && r.steps === n && r.config === config)?.[measure] ?? Number.NaN;
const first = steps[0]!;
const last = steps.at(-1)!;
/** The ratios of the targets, on one measure (wall or CPU medians). */
function ratiosOn(measure: Measure) {
  const ours = (n: number) => at(measure, 'harness-bench', n, 'default');
  // The faster of the peers measured (one may be left out with --systems).
  const fasterPeer = (n: number) =>
    Math.min(...[at(measure, 'ai-sdk', n), at(measure, 'openai-agents', n)].filter((x) => !Number.isNaN(x)));
  const perN = steps.map((n) => ({
    steps: n,
    fasterPeerOverOurs: round2(fasterPeer(n) / ours(n)),
    oursOverFloor: round2(ours(n) / at(measure, 'floor', n)),
  }));
  const growth = round2(ours(last) / ours(first));
  // The bare loop's growth in the same run: what a longer run costs on this machine with almost
  // nothing kept (one message per step), beside which ours is read.
  const floorGrowth = round2(at(measure, 'floor', last) / at(measure, 'floor', first));
  const at50 = perN.find((r) => r.steps === 50);
  // null: not measured in this run (a step count or a system left out with --steps / --systems).
  const verdict = (ratio: number | undefined, met: (x: number) => boolean) =>
    ratio === undefined || Number.isNaN(ratio) ? null : met(ratio);
  const targets = {
    'at N=50, at least 10x below the faster peer': verdict(at50?.fasterPeerOverOurs, (x) => x >= 10),
    'at N=50, within 5x of the floor': verdict(at50?.oursOverFloor, (x) => x <= 5),
    [`grows at most 1.2x from N=${first} to N=${last}`]: verdict(growth, (x) => x <= 1.2),
  };
  return { perN, growth, floorGrowth, targets };
}
const wall = ratiosOn('usPerStep');
const cpuRatios = ratiosOn('cpuUsPerStep');

/**
 * The target ratios round by round (wall; each a ratio of two round medians, measured minutes
 * apart at most, so a drift of the machine during the run moves both sides alike): how steady
 * the pooled figures are. `null` where a system or step count was not measured.
 */
function ratiosPerRound() {
  const medians = (system: string, n: number, config?: string) =>
    perStep.find((r) => r.system === system && r.steps === n && r.config === config)?.roundMedians ?? [];
  const ratio = (top: readonly number[], bottom: readonly number[]) =>
    Array.from({ length: rounds }, (_, i) => {
      const x = (top[i] ?? Number.NaN) / (bottom[i] ?? Number.NaN);
      return Number.isFinite(x) ? round2(x) : null;
    });
  const ours = (n: number) => medians('harness-bench', n, 'default');
  // The faster of the peers measured, round by round (as the pooled figure).
  const peer = (n: number) => {
    const [a, b] = [medians('ai-sdk', n), medians('openai-agents', n)];
    return Array.from({ length: rounds }, (_, i) =>
      Math.min(a[i] ?? Number.POSITIVE_INFINITY, b[i] ?? Number.POSITIVE_INFINITY),
    );
  };
  return {
    growth: ratio(ours(last), ours(first)),
    fasterPeerOverOursAt50: ratio(peer(50), ours(50)),
    oursOverFloorAt50: ratio(ours(50), medians('floor', 50)),
  };
}
const perRound = ratiosPerRound();

const cpus = os.cpus();
const results = {
  format: 'harness-bench.bench',
  version: 1,
  date: new Date().toISOString(),
  machine: {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGb: Math.round(os.totalmem() / 1e8) / 10,
    platform: `${process.platform} ${process.arch}`,
    node: process.version,
    loadAverage: os.loadavg().map((l) => round2(l)),
  },
  method: {
    workload:
      'scripted read_file loop: N calls with distinct arguments on a 100-line file, then a final answer; every system runs the same tool body except harness-bench, which runs its own read_file through its sandbox',
    sample: `as many whole runs of N steps back to back as cover ${SAMPLE_STEPS} steps (${SAMPLE_STEPS / 10} runs at N = 10, one at N = 1,000), divided by their steps (µs per step), so every sample holds its share of the collector's periodic work; usPerStep is the median over all samples`,
    rounds,
    interleaved:
      "every round runs every system at every N, the order of the systems and of the step counts rotating by round; a round's 300 ms per system is spent in 6 slices alternating between the systems (a system whose run outlasts its budget runs once)",
    isolation:
      "each system in a process of its own (forked once, warmed up, one system running at a time, no memory reducer), so no system pays for collecting another system's garbage; a slice starts with one unmeasured run when a run is shorter than the slice, and ends when the process's background threads are quiet",
    perRound:
      'the target ratios computed round by round from each round’s medians (wall): how steady the pooled medians are',
    harnessConfigs:
      'default: DEFAULT_CONFIG with budgets raised so N steps fit; session: the same with session.enabled',
  },
  perStep: perStep satisfies PerStepRow[],
  ratios: { wall: wall.perN, cpu: cpuRatios.perN },
  perRound,
  growth: {
    from: first,
    to: last,
    wall: wall.growth,
    cpu: cpuRatios.growth,
    floorWall: wall.floorGrowth,
    floorCpu: cpuRatios.floorGrowth,
  },
  targets: { wall: wall.targets, cpu: cpuRatios.targets },
  policy,
  replay,
  peakRss: rss,
};

const out = outFlag
  ? path.resolve(outFlag)
  : path.join(path.dirname(fileURLToPath(import.meta.url)), 'results', 'latest.json');
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);

const name = (r: { system: string; config?: string }) => (r.config ? `${r.system} (${r.config})` : r.system);
const table = new Table({ head: ['µs per step: wall median / min / CPU median', ...steps.map(String)] });
for (const c of CONTENDERS.filter((c) => perStep.some((r) => r.system === c.system && r.config === c.config)))
  table.push([
    name(c),
    ...steps.map((n) => {
      const row = perStep.find((r) => r.system === c.system && r.config === c.config && r.steps === n);
      return row ? `${row.usPerStep} / ${row.minUsPerStep} / ${row.cpuUsPerStep}` : '';
    }),
  ]);
/** A ratio as `3.7×`, or `—` when a system it needs was not measured (`--systems`). */
const times = (x: number) => (Number.isFinite(x) ? `${x}×` : '—');
const both = (pick: (r: (typeof wall.perN)[number]) => number) =>
  steps.map((_, i) => `${times(pick(wall.perN[i]!))} / ${times(pick(cpuRatios.perN[i]!))}`);
table.push(['faster peer ÷ ours (wall / CPU)', ...both((r) => r.fasterPeerOverOurs)]);
table.push(['ours ÷ floor (wall / CPU)', ...both((r) => r.oursOverFloor)]);
console.log(table.toString());
console.log(
  `growth of ours, N=${last} ÷ N=${first}: ${times(wall.growth)} wall, ${times(cpuRatios.growth)} CPU (the floor's in this run: ${times(wall.floorGrowth)} wall, ${times(cpuRatios.floorGrowth)} CPU)`,
);
const listed = (xs: readonly (number | null)[]) => xs.map((x) => (x === null ? '—' : `${x}×`)).join(' ');
console.log(
  `round by round (wall): growth ${listed(perRound.growth)}; faster peer ÷ ours at N=50 ${listed(perRound.fasterPeerOverOursAt50)}; ours ÷ floor at N=50 ${listed(perRound.oursOverFloorAt50)}`,
);
const said = (met: boolean | null) => (met === null ? 'not measured' : met ? 'met' : 'missed');
for (const [target, met] of Object.entries(wall.targets))
  console.log(
    `${said(met).padEnd(6)} (wall) ${target}; ${said(cpuRatios.targets[target] ?? null)} on CPU time`,
  );
if (perStepOnly) console.log('policy decisions and replay throughput: not measured (--per-step-only)');
else {
  console.log(
    `bash policy decisions per second: ${policy.coldPerSecond} cold, ${policy.cachedPerSecond} cached`,
  );
  console.log(
    `replay: ${replay.casesPerSecond} cases per second (${replay.cassettes} recordings, ${replay.cases} cases, ${replay.failed} not passing)`,
  );
}
if (rss.length > 0) {
  const mem = new Table({ head: ['peak RSS at 1,000 steps (MB)', 'before the run', 'peak'] });
  for (const r of rss) mem.push([name(r), r.baselineMb, r.peakMb]);
  console.log(mem.toString());
}
console.log(
  `machine: ${results.machine.cpu}, ${results.machine.cores} cores, ${results.machine.platform}, Node ${process.version}, load ${results.machine.loadAverage.join(' ')}`,
);
console.log(`wrote ${path.relative(process.cwd(), out)}`);

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

// Seconds per task: a separate bench of three iterations each (bench/tokens.bench.ts).
if (!perStepOnly) await runTokenBench();
