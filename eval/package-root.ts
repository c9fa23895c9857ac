/**
 * Where the package's own files are (`configs/`, `scenarios/`, `adapters/`, `recordings/`, `bin/`),
 * whatever the working directory, for the sources and for the bundled CLI alike.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The nearest folder at or above `start` holding a `package.json`; `start/..` when none does.
 * From `eval/` and from `dist/` (scripts/build.mjs bundles the CLI there) it is the same folder.
 */
function nearestPackageFolder(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(start, '..');
  }
}

/** The package root, an absolute path without a trailing separator. */
export const PACKAGE_ROOT = nearestPackageFolder(path.dirname(fileURLToPath(import.meta.url)));
