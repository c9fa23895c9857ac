#!/usr/bin/env node
// The `harness-bench` command: TypeScript sources run through tsx, so `npx harness-bench`
// works right after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv);
