/**
 * A/B of two trees of this repository in one process: the default-config harness of
 * `systems.ts` from another checkout (A, e.g. `git archive <commit> | tar -x -C /tmp/prev` with
 * `node_modules` linked in) against this one (B), runs alternating so both see the same load.
 * Prints the median and 10th percentile of CPU µs per step of each, and B ÷ A. On a busy shared
 * machine this measures a change far better than two separate `npm run bench` runs.
 *
 *   npx tsx bench/ab.ts /tmp/prev [steps=50] [runs=400]
 *
 * A tree from before systems were set up once per workspace (`harness(config)` returning
 * `(steps, workspace) => Promise<void>`) is run through that older shape.
 *
 * @throws when the other tree has no `bench/systems.ts`
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { benchWorkspace } from './workload.ts';
import * as B from './systems.ts';

const [other, stepsArg, runsArg] = process.argv.slice(2);
if (!other || !existsSync(path.join(other, 'bench', 'systems.ts')))
  throw new Error('usage: ab.ts OTHER_TREE [steps] [runs] (OTHER_TREE/bench/systems.ts must exist)');
const steps = Number(stepsArg ?? 50);
const runs = Number(runsArg ?? 400);
const A = (await import(path.resolve(other, 'bench', 'systems.ts'))) as typeof B;

const workspace = benchWorkspace();
/** A tree's default-config harness set up for the workspace, in either shape of `systems.ts`. */
function setUp(tree: typeof B): B.RunSteps {
  const system = tree.harness(tree.HARNESS_CONFIGS.default) as unknown as (...args: unknown[]) => unknown;
  if (system.length >= 2) return (n) => system(n, workspace.dir) as Promise<void>;
  return system(workspace.dir) as B.RunSteps;
}
const a = setUp(A);
const b = setUp(B);
const cpu = { a: [] as number[], b: [] as number[] };
const once = async (system: B.RunSteps, into: number[]) => {
  const before = process.cpuUsage();
  await system(steps);
  const used = process.cpuUsage(before);
  into.push((used.user + used.system) / steps);
};
try {
  for (let i = 0; i < 60; i += 1) {
    await a(50);
    await b(50);
  }
  for (let i = 0; i < runs; i += 1)
    if (i % 2 === 0) {
      await once(b, cpu.b);
      await once(a, cpu.a);
    } else {
      await once(a, cpu.a);
      await once(b, cpu.b);
    }
} finally {
  workspace.dispose();
}
const at = (list: number[], q: number) => [...list].sort((x, y) => x - y)[Math.floor(list.length * q)]!;
const show = (list: number[]) => `median ${at(list, 0.5).toFixed(1)}, p10 ${at(list, 0.1).toFixed(1)}`;
process.stdout.write(
  `N=${steps}, ${runs} runs each: A ${show(cpu.a)} | B ${show(cpu.b)} | B/A ${(at(cpu.b, 0.5) / at(cpu.a, 0.5)).toFixed(3)} CPU µs per step\n`,
);
