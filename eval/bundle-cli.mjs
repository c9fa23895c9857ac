// The CLI's bundle (types: bundle-cli.d.mts): cli/main.ts and what it imports from harness/,
// eval/ and reports/ (packages stay external) bundled by esbuild into dist/cli.mjs, and
// dist/inputs.json listing every bundled source file with its size, mtime (ms) and SHA-256.
// bin/harness-bench.js runs the bundle only while every one of them is unchanged, and otherwise the
// sources through tsx, so an edited checkout never runs stale code. Written by `npm run build`
// (and `prepare`: scripts/build.mjs) and by the fault library's workbench for each patched copy
// (eval/faults/workbench.ts): one writer, so the reader's contract is kept in one place.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Bundles the CLI of the checkout at `root` into `root/dist` (removed and made again first).
 * @param {string} root absolute path of the checkout
 * @param {{ logLevel?: 'silent' | 'warning' }} [options]
 * @returns {Promise<number>} how many source files the bundle holds
 * @throws what esbuild throws for code it cannot bundle (`dist` is then left empty)
 */
export async function bundleCli(root, options = {}) {
  const { build } = await import('esbuild');
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
    logLevel: options.logLevel ?? 'warning',
  });
  const inputs = Object.keys(result.metafile.inputs)
    .sort()
    .map((file) => {
      const full = path.join(root, file);
      const stat = statSync(full);
      return {
        file,
        size: stat.size,
        mtimeMs: stat.mtimeMs,
        sha256: createHash('sha256').update(readFileSync(full)).digest('hex'),
      };
    });
  writeFileSync(path.join(dist, 'inputs.json'), `${JSON.stringify({ inputs }, null, 1)}\n`);
  return inputs.length;
}
