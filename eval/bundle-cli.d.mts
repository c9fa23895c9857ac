/**
 * Bundles the CLI of the checkout at `root` (absolute) into `root/dist/cli.mjs` and writes
 * `dist/inputs.json` (every bundled source with its size, mtime in ms and SHA-256), which
 * `bin/harness-bench.js` checks before it runs the bundle. Resolves to the number of sources.
 * @throws what esbuild throws for code it cannot bundle (`dist` is then left empty)
 */
export function bundleCli(root: string, options?: { logLevel?: 'silent' | 'warning' }): Promise<number>;
