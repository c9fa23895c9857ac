/**
 * `npm run bench`: the harness's own cost, measured offline and reported as ratios within one
 * run (never as timed assertions in tests):
 * - per-step overhead of a scripted read_file loop at N = 10, 50, 200 and 1,000 steps (N − 1
 *   reads of distinct files, then a final answer), for harness-bench (default configuration, and
 *   with session persistence on) beside a bare floor loop, the floor with the file read, the
 *   Vercel AI SDK and the OpenAI Agents SDK, each system the same number of samples per step
 *   count, interleaved in rounds (`per-step.ts`);
 * - bash policy decisions per second, cold and cached (`policy.bench.ts`, tinybench);
 * - replay throughput of the bundled recordings, cases per second (`replay.ts`);
 * - peak resident memory of a 1,000-step run, each system in a fresh process (`rss.ts`);
 * - token counting, seconds per task (`tokens.bench.ts`).
 *
 * Writes `bench/results/latest.json` (every per-step sample in it) and prints the tables.
 *
 *   npm run bench                 (about 10 minutes on 2 busy cores)
 *   npm run bench -- --quick      (N ≤ 200, 3 rounds of 1 sample, no memory probes)
 *   npm run bench -- --rounds 7 --samples 3
 *   npm run bench -- --quick --steps 10,50 --per-step-only --out /tmp/b.json   (iterating on the loop)
 *
 * `--rounds` and `--samples` (per system, step count and round) fix the sample count of every
 * system alike; `--steps` picks step counts of the per-step table (2 to {@link MAX_STEPS}),
 * `--systems 'floor,floor + read,harness-bench (default)'` measures only those (a system name takes
 * all its configurations), `--per-step-only` skips everything after it, `--out` writes the
 * results elsewhere than `bench/results/latest.json`.
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
import { MAX_STEPS, SAMPLE_STEPS, STEP_COUNTS } from './workload.ts';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const flag = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const rounds = Number(flag('--rounds') ?? (quick ? 3 : 5));
const samplesPerRound = Number(flag('--samples') ?? (quick ? 1 : 2));
if (![rounds, samplesPerRound].every((n) => Number.isInteger(n) && n >= 1)) {
  process.stderr.write('--rounds and --samples: positive integers\n');
  process.exit(2);
}
const stepsFlag = flag('--steps');
const steps = stepsFlag
  ? stepsFlag.split(',').map((n) => Number(n))
  : quick
    ? STEP_COUNTS.filter((n) => n <= 200)
    : [...STEP_COUNTS];
if (steps.some((n) => !Number.isInteger(n) || n < 2 || n > MAX_STEPS)) {
  process.stderr.write(`--steps ${stepsFlag}: a comma-separated list of integers from 2 to ${MAX_STEPS}\n`);
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

const loadBefore = os.loadavg().map((l) => round2(l));
log(
  `per-step overhead: ${steps.join(', ')} steps, ${rounds} interleaved rounds of ${samplesPerRound} samples per system`,
);
const perStep = await measurePerStep({
  steps,
  rounds,
  samplesPerRound,
  warmupMs: quick ? 1000 : 2000,
  ...(only ? { only } : {}),
  onProgress: log,
});
const loadAfter = os.loadavg().map((l) => round2(l));

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
const row = (system: string, n: number, config?: string) =>
  perStep.find((r) => r.system === system && r.steps === n && r.config === config);
const at = (measure: Measure, system: string, n: number, config?: string) =>
  row(system, n, config)?.[measure] ?? Number.NaN;
const first = steps[0]!;
const last = steps.at(-1)!;
const PEERS = ['ai-sdk', 'openai-agents'] as const;
/** The ratios of the targets, on one measure (wall or CPU medians). */
function ratiosOn(measure: Measure) {
  const ours = (n: number) => at(measure, 'harness-bench', n, 'default');
  // The fastest of the peers measured (one may be left out with --systems).
  const fastestPeer = (n: number) =>
    Math.min(...PEERS.map((p) => at(measure, p, n)).filter((x) => !Number.isNaN(x)));
  const perN = steps.map((n) => ({
    steps: n,
    fastestPeerOverOurs: round2(fastestPeer(n) / ours(n)),
    oursOverFloor: round2(ours(n) / at(measure, 'floor', n)),
    oursOverFloorRead: round2(ours(n) / at(measure, 'floor + read', n)),
  }));
  const growth = round2(ours(last) / ours(first));
  // The floors' growth in the same run: what a longer run costs on this machine with almost
  // nothing kept (one message per step), beside which ours is read.
  const floorGrowth = round2(at(measure, 'floor', last) / at(measure, 'floor', first));
  const floorReadGrowth = round2(at(measure, 'floor + read', last) / at(measure, 'floor + read', first));
  const at50 = perN.find((r) => r.steps === 50);
  // null: not measured in this run (a step count or a system left out with --steps / --systems).
  const verdict = (ratio: number | undefined, met: (x: number) => boolean) =>
    ratio === undefined || !Number.isFinite(ratio) ? null : met(ratio);
  const targets = {
    'at N=50, the fastest peer at least 5x slower per step than ours': verdict(
      at50?.fastestPeerOverOurs,
      (x) => x >= 5,
    ),
    [`grows at most 1.2x from N=${first} to N=${last}`]: verdict(growth, (x) => x <= 1.2),
  };
  return { perN, growth, floorGrowth, floorReadGrowth, targets };
}
const wall = ratiosOn('usPerStep');
const cpuRatios = ratiosOn('cpuUsPerStep');

/**
 * The ratios round by round (wall; each a ratio of two round medians of equal sample counts,
 * measured minutes apart at most, so a drift of the machine during the run moves both sides
 * alike): how steady the pooled figures are. `null` where a system or step count was not measured.
 */
function ratiosPerRound() {
  const medians = (system: string, n: number, config?: string) => row(system, n, config)?.roundMedians ?? [];
  const ratio = (top: readonly number[], bottom: readonly number[]) =>
    Array.from({ length: rounds }, (_, i) => {
      const x = (top[i] ?? Number.NaN) / (bottom[i] ?? Number.NaN);
      return Number.isFinite(x) ? round2(x) : null;
    });
  const ours = (n: number) => medians('harness-bench', n, 'default');
  // The fastest of the peers measured, round by round (as the pooled figure).
  const peer = (n: number) =>
    Array.from({ length: rounds }, (_, i) =>
      Math.min(...PEERS.map((p) => medians(p, n)[i] ?? Number.POSITIVE_INFINITY)),
    );
  return {
    growth: ratio(ours(last), ours(first)),
    fastestPeerOverOursAt50: ratio(peer(50), ours(50)),
    oursOverFloorAt50: ratio(ours(50), medians('floor', 50)),
    oursOverFloorReadAt50: ratio(ours(50), medians('floor + read', 50)),
  };
}
const perRound = ratiosPerRound();
const cpus = os.cpus();
const results = {
  format: 'harness-bench.bench',
  version: 2,
  date: new Date().toISOString(),
  machine: {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGb: Math.round(os.totalmem() / 1e8) / 10,
    platform: `${process.platform} ${process.arch}`,
    node: process.version,
    /** `os.loadavg()` (1, 5, 15 minutes) before and after the per-step rounds. */
    loadAverage: { before: loadBefore, after: loadAfter },
  },
  method: {
    workload:
      'a run of N steps: N - 1 scripted read_file calls, each on a file of its own read whole (999 files of 8 lines, 336-360 bytes, in 10 folders of 100: dir00/f0000.txt ...), then a final answer; the peers and floor + read run the same tool body (read the whole file, number its lines), harness-bench its own read_file through its sandbox, the floor no tool body (no file I/O: the same result string appended every step)',
    setup:
      'every system set up once per process (tools, agent, sandbox, model), outside the measured runs; AI SDK: tool() with jsonSchema(...) and an ajv validate function, generateText with stopWhen: stepCountIs(N); Agents SDK: tool() with a zod object made once, one Agent, run() per request',
    sample: `as many whole runs of N steps back to back as cover ${SAMPLE_STEPS} steps (${SAMPLE_STEPS / 10} runs at N = 10, one at N = 1,000), divided by their steps (µs per step), so every sample holds its share of the collector's periodic work; usPerStep is the median over all samples`,
    rounds,
    samplesPerRound,
    interleaved:
      'every system takes exactly samplesPerRound samples of every N in every round (rounds x samplesPerRound in all, the same for every system); within a step count the samples alternate between the systems one by one, the order of the systems and of the step counts rotating by round',
    isolation:
      "each system in a process of its own (forked once, set up, warmed up, one system running at a time, no memory reducer), so no system pays for collecting another system's garbage; a sample starts with one unmeasured run when a run is shorter than 100 ms, and ends when the process's background threads are quiet",
    perRound:
      'the ratios computed round by round from each round’s medians (wall, equal sample counts): how steady the pooled medians are',
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
    floorReadWall: wall.floorReadGrowth,
    floorReadCpu: cpuRatios.floorReadGrowth,
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
const table = new Table({
  head: [
    `µs per step: wall median / min / CPU median (${rounds * samplesPerRound} samples each)`,
    ...steps.map(String),
  ],
});
for (const c of CONTENDERS.filter((c) => perStep.some((r) => r.system === c.system && r.config === c.config)))
  table.push([
    name(c),
    ...steps.map((n) => {
      const r = row(c.system, n, c.config);
      return r ? `${r.usPerStep} / ${r.minUsPerStep} / ${r.cpuUsPerStep}` : '';
    }),
  ]);
/** A ratio as `3.7×`, or `—` when a system it needs was not measured (`--systems`). */
const times = (x: number) => (Number.isFinite(x) ? `${x}×` : '—');
const both = (pick: (r: (typeof wall.perN)[number]) => number) =>
  steps.map((_, i) => `${times(pick(wall.perN[i]!))} / ${times(pick(cpuRatios.perN[i]!))}`);
table.push(['fastest peer ÷ ours (wall / CPU)', ...both((r) => r.fastestPeerOverOurs)]);
table.push(['ours ÷ floor (wall / CPU)', ...both((r) => r.oursOverFloor)]);
table.push(['ours ÷ floor + read (wall / CPU)', ...both((r) => r.oursOverFloorRead)]);
console.log(table.toString());
console.log(
  `growth of ours, N=${last} ÷ N=${first}: ${times(wall.growth)} wall, ${times(cpuRatios.growth)} CPU (in this run the floor's: ${times(wall.floorGrowth)} wall, ${times(cpuRatios.floorGrowth)} CPU; floor + read's: ${times(wall.floorReadGrowth)} wall, ${times(cpuRatios.floorReadGrowth)} CPU)`,
);
const listed = (xs: readonly (number | null)[]) => xs.map((x) => (x === null ? '—' : `${x}×`)).join(' ');
console.log(`round by round (wall, ${samplesPerRound} samples per system per round):`);
console.log(`  growth of ours, N=${last} ÷ N=${first}: ${listed(perRound.growth)}`);
console.log(`  fastest peer ÷ ours at N=50: ${listed(perRound.fastestPeerOverOursAt50)}`);
console.log(`  ours ÷ floor at N=50: ${listed(perRound.oursOverFloorAt50)}`);
console.log(`  ours ÷ floor + read at N=50: ${listed(perRound.oursOverFloorReadAt50)}`);
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
  `machine: ${results.machine.cpu}, ${results.machine.cores} cores, ${results.machine.platform}, Node ${process.version}, load ${loadBefore.join(' ')} before the rounds, ${loadAfter.join(' ')} after`,
);
console.log(`wrote ${path.relative(process.cwd(), out)}`);

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

// Seconds per task: a separate bench of three iterations each (bench/tokens.bench.ts).
if (!perStepOnly) await runTokenBench();
