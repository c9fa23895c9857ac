// One system in one fresh process: set up, warm up, then take samples when the driver asks.
import { FACTORIES, wsPath } from './systems.mjs';

const [system, nArg] = process.argv.slice(2);
const N = Number(nArg);
const reps = Math.ceil(1000 / N); // a sample covers >= 1,000 steps
const sys = await FACTORIES[system](wsPath());

// warm-up: at least 2 runs and at least 2,000 steps, unmeasured
const warmRuns = Math.max(2, Math.ceil(2000 / N));
for (let r = 0; r < warmRuns; r += 1) await sys.run(N);

let info = {};
if (system === 'harness-bench' && sys.lastResult) {
  const ev = sys.lastResult.events;
  const counts = {};
  for (const e of ev) counts[e.type] = (counts[e.type] ?? 0) + 1;
  info = {
    eventCounts: counts,
    maxPromptTokens: sys.lastResult.usage.maxPromptTokens,
    stopReason: sys.lastResult.stopReason,
  };
}
process.send({ ready: true, system, N, reps, warmRuns, info });

process.on('message', async (msg) => {
  if (msg.cmd === 'sample') {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    let steps = 0;
    for (let r = 0; r < reps; r += 1) steps += await sys.run(N);
    const t1 = process.hrtime.bigint();
    const c1 = process.cpuUsage(c0);
    const wallUs = Number(t1 - t0) / 1000 / steps;
    const cpuUs = (c1.user + c1.system) / steps;
    process.send({ sample: true, wallUs, cpuUs, steps });
  } else if (msg.cmd === 'exit') {
    process.exit(0);
  }
});
