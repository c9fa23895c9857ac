import { readdirSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// The fault library's per-tag tests (eval/faults/<tag>.test.ts) apply 123 harness faults to
// temporary copies of the repository and run each tag's scenarios on every one: about 10 CPU
// minutes. They run in CI as their own step (`npm run test:faults`, .ci/run), so `npm test` stays
// well under its time budget; catalogue.test.ts (every patch still applies) and library.test.ts
// (which cases a fault runs) stay in `npm test`.
const faultTagTests = readdirSync(new URL('./eval/faults/', import.meta.url))
  .filter((f) => f.endsWith('.test.ts') && f !== 'catalogue.test.ts' && f !== 'library.test.ts')
  .map((f) => `eval/faults/${f}`);
const withFaults = process.env.HARNESS_BENCH_FAULTS === '1';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    // .stryker-tmp: StrykerJS's sandbox copies while `npm run mutate` runs.
    exclude: [
      'node_modules/**',
      'reports/latest/**',
      '.stryker-tmp/**',
      ...(withFaults ? [] : faultTagTests),
    ],
    setupFiles: ['./test-setup.ts'],
    testTimeout: 90_000,
    // Hooks clean up temp trees (afterAll rmSync); on a loaded machine they need the same room.
    hookTimeout: 90_000,
    pool: 'forks',
  },
});
