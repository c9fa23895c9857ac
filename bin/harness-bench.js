#!/usr/bin/env node
// The `harness-bench` command. `npm ci` (the `prepare` script, scripts/build.mjs) bundles the CLI
// into dist/cli.mjs; it is used while every source file it was built from is unchanged (size and
// mtime, else SHA-256, against dist/inputs.json). Otherwise (an edited checkout, no build) the
// TypeScript sources run through tsx, as they always may.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** True when dist/cli.mjs exists and was built from the sources as they are now. */
function bundleIsFresh() {
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(`${root}dist/inputs.json`, 'utf8')).inputs;
    statSync(`${root}dist/cli.mjs`);
  } catch {
    return false;
  }
  for (const input of inputs) {
    const file = `${root}${input.file}`;
    let stat;
    try {
      stat = statSync(file);
    } catch {
      return false;
    }
    if (stat.size !== input.size) return false;
    if (stat.mtimeMs === input.mtimeMs) continue;
    // Copied or unpacked files keep their content and lose their mtime (npm packs a fixed one).
    if (createHash('sha256').update(readFileSync(file)).digest('hex') !== input.sha256) return false;
  }
  return true;
}

let main;
if (process.env.HARNESS_BENCH_FROM_SOURCE !== '1' && bundleIsFresh()) {
  ({ main } = await import('../dist/cli.mjs'));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../cli/main.ts'));
}
process.exitCode = await main(process.argv);
