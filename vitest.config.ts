import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'reports/latest/**'],
    setupFiles: ['./test-setup.ts'],
    testTimeout: 20_000,
    pool: 'forks',
  },
});
