/**
 * Garbage-collection time per step of one system at N steps, in a process of its own:
 *
 *   npx tsx bench/gc-probe.ts [steps=1000] [runs=20] [system=default]
 *
 * After unmeasured runs (at least 20, and 20,000 steps), `runs` runs of `steps` steps are timed:
 * wall µs per step, CPU µs per step (user + system, every thread, so the concurrent marker and
 * sweeper count), and the main-thread pauses of the collector per kind (`minor`: scavenges,
 * `major`, `incremental`, `weakcb`), µs per step with their count, from `PerformanceObserver`
 * `gc` entries. Comparing N = 10 with N = 1,000 shows what a long run's kept objects cost the
 * collector. `system` is one of `default`, `session`, `floor`, `floor + read`, `ai-sdk`,
 * `openai-agents`.
 * Figures here are informal; the reported ones come from `npm run bench`.
 * @throws on an unknown system
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { systemNamed } from './systems.ts';
import { benchWorkspace } from './workload.ts';

const steps = Number(process.argv[2] ?? 1000);
const runs = Number(process.argv[3] ?? 20);
const which = process.argv[4] ?? 'default';
const system = systemNamed(which);
const KIND: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};
const gc = new Map<string, { ms: number; n: number }>();
let on = false;
const obs = new PerformanceObserver((list) => {
  if (!on) return;
  for (const e of list.getEntries()) {
    const k = KIND[(e as unknown as { detail: { kind: number } }).detail.kind] ?? 'other';
    const s = gc.get(k) ?? { ms: 0, n: 0 };
    s.ms += e.duration;
    s.n += 1;
    gc.set(k, s);
  }
});
obs.observe({ entryTypes: ['gc'] });
const workspace = benchWorkspace();
const runSteps = system(workspace.dir);
for (let i = 0; i < Math.max(20, 20000 / steps); i += 1) await runSteps(steps);
await new Promise((r) => setTimeout(r, 50));
on = true;
const before = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < runs; i += 1) await runSteps(steps);
const wall = performance.now() - t0;
const used = process.cpuUsage(before);
await new Promise((r) => setTimeout(r, 50));
const total = steps * runs;
const parts = [...gc].map(([k, s]) => `${k} ${((s.ms * 1000) / total).toFixed(2)} µs (${s.n})`);
process.stdout.write(
  `${which} N=${steps}: wall ${((wall * 1000) / total).toFixed(1)} CPU ${((used.user + used.system) / total).toFixed(1)} µs/step; gc ${parts.join(', ')}\n`,
);
workspace.dispose();
obs.disconnect();
