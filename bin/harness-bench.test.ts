import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('..', import.meta.url));

/**
 * A package laid out like this one: bin/harness-bench.js, a source file, a bundle built "from" it
 * and the sources' own `main`, each printing which one ran.
 */
function fakePackage(): { root: string; source: string; run(env?: NodeJS.ProcessEnv): string } {
  const root = mkdtempSync(path.join(tmpdir(), 'hb-bin-'));
  mkdirSync(path.join(root, 'bin'));
  mkdirSync(path.join(root, 'cli'));
  mkdirSync(path.join(root, 'dist'));
  copyFileSync(path.join(REPO, 'bin', 'harness-bench.js'), path.join(root, 'bin', 'harness-bench.js'));
  symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'));
  writeFileSync(path.join(root, 'package.json'), '{ "type": "module" }\n');
  const source = path.join(root, 'cli', 'main.ts');
  writeFileSync(
    source,
    "export async function main(): Promise<number> { console.log('source'); return 0; }\n",
  );
  writeFileSync(
    path.join(root, 'dist', 'cli.mjs'),
    "export async function main() { console.log('bundle'); return 0; }\n",
  );
  const stat = statSync(source);
  const sha256 = createHash('sha256').update(readFileSync(source)).digest('hex');
  const inputs = [{ file: 'cli/main.ts', size: stat.size, mtimeMs: stat.mtimeMs, sha256 }];
  writeFileSync(path.join(root, 'dist', 'inputs.json'), JSON.stringify({ inputs }));
  const run = (env: NodeJS.ProcessEnv = {}) =>
    execFileSync(process.execPath, [path.join(root, 'bin', 'harness-bench.js')], {
      env: { ...process.env, HARNESS_BENCH_FROM_SOURCE: '', ...env },
      encoding: 'utf8',
    }).trim();
  return { root, source, run };
}

describe('bin/harness-bench.js: the bundle or the sources', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('runs the bundle while every source it was built from is unchanged', () => {
    const pkg = fakePackage();
    made.push(pkg.root);
    expect(pkg.run()).toBe('bundle');
  });

  it('keeps the bundle when only the mtime changed (a copy, an unpacked tarball): the content decides', () => {
    const pkg = fakePackage();
    made.push(pkg.root);
    utimesSync(pkg.source, new Date('1985-10-26T08:15:00Z'), new Date('1985-10-26T08:15:00Z'));
    expect(pkg.run()).toBe('bundle');
  });

  it('runs the sources through tsx once a bundled source is edited, even to the same size', () => {
    const pkg = fakePackage();
    made.push(pkg.root);
    writeFileSync(
      pkg.source,
      "export async function main(): Promise<number> { console.log('SOURCE'); return 0; }\n",
    );
    expect(pkg.run()).toBe('SOURCE');
  });

  it('runs the sources when there is no build, or when HARNESS_BENCH_FROM_SOURCE=1 asks', () => {
    const pkg = fakePackage();
    made.push(pkg.root);
    expect(pkg.run({ HARNESS_BENCH_FROM_SOURCE: '1' })).toBe('source');
    rmSync(path.join(pkg.root, 'dist', 'inputs.json'));
    expect(pkg.run()).toBe('source');
  });
});
