// A/B of variants (a system plus PROBE_* settings), each in its own fresh process, samples
// interleaved round by round like probe.mjs. Usage: node ab.mjs VARIANTS.json N [samples]
// VARIANTS.json: [{ "label": "...", "system": "harness-bench", "env": { "PROBE_OURS_SANDBOX": "local" } }, ...]
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempWorkspace } from './setup-ws.mjs';
const here = path.dirname(fileURLToPath(import.meta.url));
const [file, nArg, sArg, outArg] = process.argv.slice(2);
const variants = JSON.parse(readFileSync(file, 'utf8'));
const N = Number(nArg);
const SAMPLES = Number(sArg ?? 10);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const start = (v) =>
  new Promise((resolve, reject) => {
    const child = fork(path.join(here, 'child.mjs'), [v.system, String(N)], {
      cwd: here,
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, ...v.env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('message', (m) => resolve({ child, info: m.info }));
    child.once('exit', (code) => code && reject(new Error(`${v.label} exited ${code}`)));
  });
const sample = (child) =>
  new Promise((resolve) => {
    child.once('message', resolve);
    child.send({ cmd: 'sample' });
  });
const load0 = readFileSync('/proc/loadavg', 'utf8').trim();
const workspace = tempWorkspace(); // before the children start: they read PROBE_WS
const procs = [];
for (const v of variants) procs.push(await start(v));
const wall = variants.map(() => []),
  cpu = variants.map(() => []);
for (let r = 0; r < SAMPLES; r += 1)
  for (let j = 0; j < variants.length; j += 1) {
    const k = (j + r) % variants.length;
    const m = await sample(procs[k].child);
    wall[k].push(m.wallUs);
    cpu[k].push(m.cpuUs);
  }
for (const p of procs) p.child.send({ cmd: 'exit' });
const load1 = readFileSync('/proc/loadavg', 'utf8').trim();
workspace.dispose();
console.log(`N=${N}, ${SAMPLES} samples each, load ${load0} -> ${load1}`);
const rows = variants.map((v, k) => ({
  label: v.label,
  wall: median(wall[k]),
  cpu: median(cpu[k]),
  info: procs[k].info,
  wallSamples: wall[k],
  cpuSamples: cpu[k],
}));
for (const r of rows)
  console.log(
    `  ${r.label.padEnd(48)} ${r.wall.toFixed(1).padStart(8)} / ${r.cpu.toFixed(1).padStart(8)} µs/step` +
      (r.info?.eventCounts
        ? `  compaction events/run: ${r.info.eventCounts.compaction ?? 0}, maxPromptTokens ${r.info.maxPromptTokens}`
        : ''),
  );
if (outArg) writeFileSync(outArg, JSON.stringify({ N, SAMPLES, load0, load1, rows }, null, 1));
