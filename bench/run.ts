/**
 * tinybench suites: harness overhead per step, measured offline. Results are reported as ratios
 * within one run (never as timed assertions in tests).
 *
 *   npm run bench
 */
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Bench } from 'tinybench';
import { DEFAULT_CONFIG } from '../harness/config.ts';
import { deterministicDeps } from '../harness/deps.ts';
import { runHarness } from '../harness/loop/run.ts';
import { ScriptedModel } from '../harness/model/scripted-model.ts';
import { decide } from '../harness/policy/policy.ts';
import { LocalSandbox } from '../harness/sandbox/local.ts';
import { parseArguments } from '../harness/tools/arguments.ts';
import { FILE_TOOLS } from '../harness/tools/builtin/files.ts';
import { addPolicyBenchmarks, decisionsPerSecond } from './policy.bench.ts';
import { runTokenBench } from './tokens.bench.ts';

const workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-bench-')));
writeFileSync(path.join(workspace, 'a.txt'), 'hello\n'.repeat(100));
const config = {
  ...DEFAULT_CONFIG,
  limits: { ...DEFAULT_CONFIG.limits, maxTurns: 1000, maxToolCalls: 10_000 },
};

const turns = (n: number) => [
  ...Array.from({ length: n }, (_, i) => ({
    tool_calls: [
      { id: `c${i}`, name: 'read_file', arguments: `{"path":"a.txt","offset":${(i % 90) + 1},"limit":5}` },
    ],
  })),
  { content: 'done' },
];

const bench = new Bench({ time: 1000 });
bench
  .add('parseArguments (valid JSON object)', () => {
    parseArguments('{"path":"src/index.ts","offset":10,"limit":50}', false);
  })
  .add('policy decide (file read inside the workspace)', () => {
    decide(
      {
        tool: 'read_file',
        effect: 'read',
        paths: [
          {
            requested: 'a.txt',
            absolute: `${workspace}/a.txt`,
            inside: true,
            relative: 'a.txt',
            access: 'read',
          },
        ],
      },
      config,
    );
  })
  .add('policy decide (bash command, 16 rules)', () => {
    decide({ tool: 'bash', effect: 'write', paths: [], commands: ['git status --short'] }, config);
  })
  .add('runHarness: 20 turns of read_file', async () => {
    await runHarness({
      task: 'read',
      config,
      model: new ScriptedModel(turns(20)),
      tools: [FILE_TOOLS.read_file!],
      sandbox: new LocalSandbox({ allowExec: false }),
      workspace,
      deps: deterministicDeps(),
    });
  });

await addPolicyBenchmarks(bench);
await bench.run();
console.table(bench.table());
const cold = decisionsPerSecond(bench, 'policy: bash decision, cold');
const cached = decisionsPerSecond(bench, 'policy: bash decision, cached');
if (cold && cached)
  console.log(`bash policy decisions per second: ${Math.round(cold)} cold, ${Math.round(cached)} cached`);
const perTurn = bench.tasks.find((t) => t.name.startsWith('runHarness'))?.result;
const policy = bench.tasks.find((t) => t.name.startsWith('policy decide (file'))?.result;
if (perTurn && 'latency' in perTurn && policy && 'latency' in policy) {
  const turnMs = perTurn.latency.mean / 21;
  console.log(
    `harness overhead per turn (incl. one file read): ${(turnMs * 1000).toFixed(1)} µs; policy decision is ${((policy.latency.mean / turnMs) * 100).toFixed(2)}% of a turn`,
  );
}

// Seconds per task: a separate bench of three iterations each (bench/tokens.bench.ts).
await runTokenBench();
