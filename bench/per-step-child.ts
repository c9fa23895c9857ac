/**
 * One contender of the per-step table in a process of its own (`per-step.ts` forks one per
 * contender): its heap holds only its own objects, so the collections it pays for are of its own
 * garbage, never another system's. Started as `node --import tsx bench/per-step-child.ts <index>`
 * (`index` into `CONTENDERS`) with an IPC channel, it answers the messages of `ChildRequest`
 * (`child-protocol.ts`) with a `ChildReply` each, in order.
 */
import { Bench } from 'tinybench';
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

async function answer(request: ChildRequest): Promise<ChildReply> {
  if (request.kind === 'warmup') {
    const started = performance.now();
    let runs = 0;
    for (; runs < 5 || performance.now() - started < request.warmupMs; runs += 1)
      await contender!.run(50, workspace.dir);
    return { kind: 'warm', runs };
  }
  const { steps } = request;
  const cpu: number[] = [];
  const bench = new Bench({
    time: request.budgetMs,
    iterations: 1,
    warmup: false,
    retainSamples: true,
    throws: true,
  });
  bench.add('run', async () => {
    const before = process.cpuUsage();
    await contender!.run(steps, workspace.dir);
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / steps);
  });
  await bench.run();
  const result = bench.tasks[0]?.result;
  if (!result || !('latency' in result)) throw new Error('no result');
  return { kind: 'samples', wall: (result.latency.samples ?? []).map((ms) => (ms * 1000) / steps), cpu };
}

// One request at a time: the parent waits for each reply before it sends the next.
process.on('message', (request: ChildRequest) => {
  answer(request).then(send, (error: unknown) =>
    send({ kind: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
