// `npm run build` (and `prepare`, so `npm ci` runs it): bundles the CLI (cli/main.ts and what it
// imports from harness/, eval/ and reports/; packages stay external) into dist/cli.mjs with
// esbuild, so `harness-bench` starts without compiling TypeScript on every run. dist/inputs.json
// lists every bundled source file with its size, mtime (ms) and SHA-256: bin/harness-bench.js
// uses the bundle only while every one of them is unchanged, and otherwise runs the sources
// through tsx, so an edited checkout never runs stale code.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: ['cli/main.ts'],
  outfile: 'dist/cli.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
});
const inputs = Object.keys(result.metafile.inputs)
  .sort()
  .map((file) => {
    const stat = statSync(path.join(root, file));
    const sha256 = createHash('sha256')
      .update(readFileSync(path.join(root, file)))
      .digest('hex');
    return { file, size: stat.size, mtimeMs: stat.mtimeMs, sha256 };
  });
writeFileSync(path.join(dist, 'inputs.json'), `${JSON.stringify({ inputs }, null, 1)}\n`);
process.stdout.write(`built dist/cli.mjs from ${inputs.length} source files\n`);
