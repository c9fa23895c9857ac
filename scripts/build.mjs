// `npm run build` (and `prepare`, so `npm ci` runs it): the CLI bundled into dist/cli.mjs, with
// dist/inputs.json, so `harness-bench` starts without compiling TypeScript on every run
// (eval/bundle-cli.mjs says how bin/harness-bench.js uses them).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli } from '../eval/bundle-cli.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const count = await bundleCli(root);
process.stdout.write(`built dist/cli.mjs from ${count} source files\n`);
