// Creates the workspace: 1,000 small files (a few hundred bytes each) in 10 folders.
// As a script: node setup-ws.mjs DIR (or PROBE_WS=DIR node setup-ws.mjs); probe.mjs and ab.mjs
// call makeWorkspace() on a temp folder of their own when PROBE_WS is not set.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileName } from './systems.mjs';

/** Writes the 1,000 files under `ws` (emptied first). PROBE_FLAT and PROBE_FILE_LINES apply. */
export function makeWorkspace(ws) {
  rmSync(ws, { recursive: true, force: true });
  const LINES = Number(process.env.PROBE_FILE_LINES ?? 8);
  for (let i = 0; i < 1000; i += 1) {
    const p = path.join(ws, fileName(i));
    mkdirSync(path.dirname(p), { recursive: true });
    const lines = [];
    for (let l = 0; l < LINES; l += 1)
      lines.push(`// file ${i} line ${l + 1}: export const value${l} = ${i * 8 + l};`);
    writeFileSync(p, `${lines.join('\n')}\n`);
  }
  return ws;
}

/**
 * The workspace to use: `$PROBE_WS` when set (made with this script beforehand), else a new temp
 * folder made here; `dispose` removes only a folder made here. Sets `PROBE_WS` for the children.
 */
export function tempWorkspace() {
  if (process.env.PROBE_WS) return { dir: process.env.PROBE_WS, dispose: () => {} };
  const dir = makeWorkspace(mkdtempSync(path.join(tmpdir(), 'hb-probe-ws-')));
  process.env.PROBE_WS = dir;
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const ws = process.argv[2] ?? process.env.PROBE_WS;
  if (!ws) {
    process.stderr.write('usage: node setup-ws.mjs DIR (or PROBE_WS=DIR)\n');
    process.exit(2);
  }
  makeWorkspace(ws);
  console.log(`wrote 1000 files under ${ws}`);
}
