// Driver: per N, one fresh process per system (set up and warmed up one after another), then
// SAMPLES rounds; in each round every system takes one sample, one system at a time, the order
// rotating round by round. Medians of wall and CPU µs per step.
// Usage: node probe.mjs [--steps 10,50,200,1000] [--samples 10] [--systems floor,harness-bench,ai-sdk] [--out file.json]
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempWorkspace } from './setup-ws.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : dflt;
};
const STEPS = opt('--steps', '10,50,200,1000').split(',').map(Number);
const SAMPLES = Number(opt('--samples', '10'));
const SYSTEMS = opt('--systems', 'floor,harness-bench,ai-sdk').split(',');
// Results go to --out, default a file in the temp folder (never into the repository).
const OUT = opt('--out', path.join(tmpdir(), 'hb-probe-result.json'));
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').trim();
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function start(system, N) {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(here, 'child.mjs'), [system, String(N)], {
      cwd: here,
      execArgv: ['--import', 'tsx'],
      env: process.env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('message', (m) => (m.ready ? resolve({ child, info: m }) : reject(new Error('bad hello'))));
    child.once('exit', (code) => code && reject(new Error(`${system} N=${N} exited ${code}`)));
  });
}
const sample = (child) =>
  new Promise((resolve) => {
    child.once('message', resolve);
    child.send({ cmd: 'sample' });
  });

const result = {
  started: new Date().toISOString(),
  node: process.version,
  loadBefore: loadavg(),
  steps: STEPS,
  samples: SAMPLES,
  systems: SYSTEMS,
  env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('PROBE_'))),
  perN: {},
};
console.error(`load before: ${result.loadBefore}`);
const workspace = tempWorkspace(); // before the children start: they read PROBE_WS
result.workspace = workspace.dir;
for (const N of STEPS) {
  const procs = {};
  for (const s of SYSTEMS) procs[s] = await start(s, N);
  const per = { loadStart: loadavg(), info: {}, wall: {}, cpu: {} };
  for (const s of SYSTEMS) {
    per.info[s] = procs[s].info;
    per.wall[s] = [];
    per.cpu[s] = [];
  }
  for (let r = 0; r < SAMPLES; r += 1) {
    const order = SYSTEMS.map((_, i) => SYSTEMS[(i + r) % SYSTEMS.length]);
    for (const s of order) {
      const m = await sample(procs[s].child);
      per.wall[s].push(m.wallUs);
      per.cpu[s].push(m.cpuUs);
    }
  }
  for (const s of SYSTEMS) procs[s].child.send({ cmd: 'exit' });
  per.loadEnd = loadavg();
  per.median = Object.fromEntries(
    SYSTEMS.map((s) => [s, { wall: median(per.wall[s]), cpu: median(per.cpu[s]) }]),
  );
  result.perN[N] = per;
  console.error(
    `N=${N} [load ${per.loadStart} -> ${per.loadEnd}] ` +
      SYSTEMS.map((s) => `${s} ${per.median[s].wall.toFixed(1)}/${per.median[s].cpu.toFixed(1)}`).join('  '),
  );
}
result.loadAfter = loadavg();
workspace.dispose();
const m = (N, s, k) => result.perN[N]?.median[s]?.[k];
const ratios = {};
if (m(50, 'ai-sdk', 'wall') && m(50, 'harness-bench', 'wall'))
  ratios.aiOverOursN50 = {
    wall: m(50, 'ai-sdk', 'wall') / m(50, 'harness-bench', 'wall'),
    cpu: m(50, 'ai-sdk', 'cpu') / m(50, 'harness-bench', 'cpu'),
  };
if (m(1000, 'harness-bench', 'wall') && m(10, 'harness-bench', 'wall'))
  ratios.oursGrowth1000over10 = {
    wall: m(1000, 'harness-bench', 'wall') / m(10, 'harness-bench', 'wall'),
    cpu: m(1000, 'harness-bench', 'cpu') / m(10, 'harness-bench', 'cpu'),
  };
// per-round ratios (same round index, samples taken seconds apart)
if (result.perN[50] && SYSTEMS.includes('ai-sdk'))
  ratios.aiOverOursN50PerRound = result.perN[50].wall['ai-sdk'].map(
    (v, i) => v / result.perN[50].wall['harness-bench'][i],
  );
result.ratios = ratios;
writeFileSync(OUT, JSON.stringify(result, null, 1));
console.log(`| N | ${SYSTEMS.map((s) => `${s} wall / CPU µs/step`).join(' | ')} |`);
console.log(`|---|${SYSTEMS.map(() => '---').join('|')}|`);
for (const N of STEPS)
  console.log(
    `| ${N} | ` +
      SYSTEMS.map((s) => `${m(N, s, 'wall').toFixed(1)} / ${m(N, s, 'cpu').toFixed(1)}`).join(' | ') +
      ' |',
  );
console.log(JSON.stringify(ratios, (_k, v) => (typeof v === 'number' ? Number(v.toFixed(3)) : v)));
console.log(`load before ${result.loadBefore}, after ${result.loadAfter}; written ${OUT}`);
