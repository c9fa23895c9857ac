/**
 * One contender of the per-step table in a process of its own (`per-step.ts` forks one per
 * contender): its heap holds only its own objects, so the collections it pays for are of its own
 * garbage, never another system's. Started as `node --import tsx bench/per-step-child.ts <index>`
 * (`index` into `CONTENDERS`) with an IPC channel, it sets its system up once (tools, agent,
 * sandbox: outside every measured run) and answers the messages of `ChildRequest`
 * (`child-protocol.ts`) with a `ChildReply` each, in order.
 */
import type { ChildReply, ChildRequest } from './child-protocol.ts';
import { CONTENDERS } from './per-step.ts';
import { benchWorkspace } from './workload.ts';

const contender = CONTENDERS[Number(process.argv[2])];
const send = (reply: ChildReply) => process.send?.(reply);
if (!contender || !process.send) {
  process.stderr.write(`per-step-child: no contender ${process.argv[2]} or no IPC channel\n`);
  process.exit(2);
}
const workspace = benchWorkspace();
process.on('disconnect', () => {
  workspace.dispose();
  process.exit(0);
});
const runSteps = contender.setup(workspace.dir);

/** Wall ms per step of the warm-up's runs of 50 steps (set by the warm-up request). */
let warmMsPerStep = Number.POSITIVE_INFINITY;
/** A run of `steps` steps shorter than this (ms, guessed from the warm-up) gets an unmeasured run before its sample. */
const PRE_RUN_MAX_MS = 100;

async function answer(request: ChildRequest, idleCpuMs: number): Promise<ChildReply> {
  if (request.kind === 'warmup') {
    const started = performance.now();
    let runs = 0;
    for (; runs < 5 || performance.now() - started < request.warmupMs; runs += 1) await runSteps(50);
    warmMsPerStep = (performance.now() - started) / runs / 50;
    return { kind: 'warm', runs };
  }
  const { steps, runs } = request;
  // One unmeasured run of N steps first, when it is short: the sample before ran another
  // system, whose work left this process's code and data out of the CPU caches, so a sample of
  // one run (ours at N = 1,000) would always be measured cold and a sample of a hundred short
  // runs almost never. The same rule for every system; a long run warms itself.
  if (warmMsPerStep * steps <= PRE_RUN_MAX_MS) await runSteps(steps);
  const before = process.cpuUsage();
  const started = performance.now();
  for (let run = 0; run < runs; run += 1) await runSteps(steps);
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(before);
  await settle();
  return {
    kind: 'sample',
    wallUs: (wallMs * 1000) / (steps * runs),
    cpuUs: (used.user + used.system) / (steps * runs),
    idleCpuMs,
  };
}

/** CPU (ms, all threads) this process used since its last reply: work done while another system was measured. */
let sinceReply = process.cpuUsage();
function cpuSinceReply(): number {
  const used = process.cpuUsage(sinceReply);
  return Math.round((used.user + used.system) / 100) / 10;
}

/**
 * Waits until this process's background threads (concurrent marking and sweeping, the freeing
 * of pages) are done with what the sample left: until a 10 ms window uses under 0.5 ms of CPU, or
 * 5 s. The next sample, another system's, then runs on a quiet machine.
 */
async function settle(): Promise<void> {
  const started = performance.now();
  for (;;) {
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const used = process.cpuUsage(before);
    if (used.user + used.system < 500 || performance.now() - started > 5000) return;
  }
}

// One request at a time: the parent waits for each reply before it sends the next.
process.on('message', (request: ChildRequest) => {
  answer(request, cpuSinceReply()).then(
    (reply) => {
      send(reply);
      sinceReply = process.cpuUsage();
    },
    (error: unknown) =>
      send({
        kind: 'error',
        message: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
  );
});
