import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    // .stryker-tmp: StrykerJS's sandbox copies while `npm run mutate` runs.
    exclude: ['node_modules/**', 'reports/latest/**', '.stryker-tmp/**'],
    setupFiles: ['./test-setup.ts'],
    testTimeout: 90_000,
    // Hooks clean up temp trees (afterAll rmSync); on a loaded machine they need the same room.
    hookTimeout: 90_000,
    pool: 'forks',
  },
});
