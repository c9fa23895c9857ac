/**
 * What tracing costs per step: the same scripted 50-step read_file loop with no subscriber
 * (tracing off: the loop's `deps.onEvent` is absent), with a subscriber that does nothing (the
 * price of the hook itself), and with the {@link RunTracer} building OpenTelemetry spans into a
 * span processor that drops them (span creation without I/O). Interleaved by tinybench in one
 * run (rounds with the order rotated, the median round); reported as µs per step and as ratios,
 * never asserted.
 *
 *   npx tsx bench/trace.ts
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BasicTracerProvider, NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Bench } from 'tinybench';
import { DEFAULT_CONFIG } from '../harness/config.ts';
import { deterministicDeps, type HarnessDeps } from '../harness/deps.ts';
import { runHarness } from '../harness/loop/run.ts';
import { ScriptedModel } from '../harness/model/scripted-model.ts';
import { LocalSandbox } from '../harness/sandbox/local.ts';
import { FILE_TOOLS } from '../harness/tools/builtin/files.ts';
import { RunTracer } from '../eval/trace/run-tracer.ts';

const STEPS = 50;
const workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-bench-trace-')));
writeFileSync(path.join(workspace, 'a.txt'), 'hello\n'.repeat(100));
const config = {
  ...DEFAULT_CONFIG,
  limits: { ...DEFAULT_CONFIG.limits, maxTurns: 1000, maxToolCalls: 10_000 },
};
const script = [
  ...Array.from({ length: STEPS }, (_, i) => ({
    tool_calls: [
      { id: `c${i}`, name: 'read_file', arguments: `{"path":"a.txt","offset":${(i % 90) + 1},"limit":5}` },
    ],
  })),
  { content: 'done' },
];
const tracer = new BasicTracerProvider({ spanProcessors: [new NoopSpanProcessor()] }).getTracer('bench');

const loop = (subscribe?: (deps: HarnessDeps) => void) => async () => {
  const deps = deterministicDeps();
  subscribe?.(deps);
  await runHarness({
    task: 'read',
    config,
    model: new ScriptedModel(script),
    tools: [FILE_TOOLS.read_file!],
    sandbox: new LocalSandbox({ allowExec: false }),
    workspace,
    deps,
  });
};

const tasks: [string, () => Promise<void>][] = [
  ['tracing off (no subscriber)', loop()],
  ['empty subscriber', loop((deps) => void (deps.onEvent = () => undefined))],
  [
    'RunTracer building spans',
    loop((deps) => void (deps.onEvent = new RunTracer({ tracer, model: 'm', provider: 'p' }).onEvent)),
  ],
];
// Interleaved: ROUNDS short benches, the task order rotated each round; the median round per task.
const ROUNDS = 7;
const samples = new Map<string, number[]>(tasks.map(([name]) => [name, []]));
for (let round = 0; round < ROUNDS; round += 1) {
  const bench = new Bench({ time: 500, warmup: round === 0 });
  for (let i = 0; i < tasks.length; i += 1) {
    const [name, fn] = tasks[(i + round) % tasks.length]!;
    bench.add(name, fn);
  }
  await bench.run();
  for (const task of bench.tasks) {
    const result = task.result;
    if (result && 'latency' in result)
      samples.get(task.name)!.push((result.latency.mean * 1000) / (STEPS + 1));
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const off = median(samples.get('tracing off (no subscriber)')!);
console.log(`| ${STEPS}-step loop, median of ${ROUNDS} interleaved rounds | µs per step | vs off |`);
console.log('|---|---|---|');
for (const [name, xs] of samples)
  console.log(`| ${name} | ${median(xs).toFixed(1)} | ${(median(xs) / off).toFixed(2)}× |`);
rmSync(workspace, { recursive: true, force: true });
