/**
 * A profiling driver for the per-step workload: runs one system of `systems.ts` at N steps,
 * repeatedly, after a warm-up, and prints CPU µs per step. Summarise a profile with
 * `bench/profile-summary.ts`:
 *
 *   npx tsx bench/profile.ts [steps=50] [runs=400] [system=default] [out.cpuprofile]
 *   npx tsx bench/profile-summary.ts out.cpuprofile
 *
 * With `out.cpuprofile`, the measured runs (not the start-up nor the warm-up) are profiled with
 * the inspector's sampling profiler (250 µs interval) and the profile written there.
 *
 * `system` is `default` or `session` (harness-bench configurations), `floor`, `floor + read`,
 * `ai-sdk` or `openai-agents`. Figures printed here are informal; the reported ones come from `npm run bench`.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { systemNamed } from './systems.ts';
import { benchWorkspace } from './workload.ts';

const steps = Number(process.argv[2] ?? 50);
const runs = Number(process.argv[3] ?? 400);
const which = process.argv[4] ?? 'default';
const out = process.argv[5];
const system = systemNamed(which);

const workspace = benchWorkspace();
const runSteps = system(workspace.dir);
try {
  for (let i = 0; i < 100; i += 1) await runSteps(50);
  const samples: number[] = [];
  const session = out ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 250 });
    await session.post('Profiler.start');
  }
  for (let i = 0; i < runs; i += 1) {
    const before = process.cpuUsage();
    await runSteps(steps);
    const used = process.cpuUsage(before);
    samples.push((used.user + used.system) / steps);
  }
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(out!, JSON.stringify(profile));
    session.disconnect();
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)]!;
  process.stdout.write(
    `${which} at ${steps} steps: median ${median.toFixed(1)} CPU µs/step, min ${samples[0]!.toFixed(1)} (${runs} runs)\n`,
  );
} finally {
  workspace.dispose();
}
