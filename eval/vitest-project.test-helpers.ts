/**
 * A throw-away vitest project in a temp folder, as a user's project would be: `harness-bench`
 * and `vitest` in its `node_modules` (links to this package and its vitest), its own files, and
 * vitest run in a child process with the JSON reporter. For the tests of the vitest helpers and
 * of the README's snippets.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from './config-load.ts';

/** One test of vitest's JSON report. */
export interface ReportedTest {
  file: string;
  title: string;
  fullName: string;
  status: 'passed' | 'failed' | 'skipped' | 'pending' | 'todo';
  failureMessages: string[];
}

/**
 * Creates the project: `files` (path → text) and `links` (path → absolute target) under a new
 * temp folder, plus `package.json` (an ES module package) and the two `node_modules` links.
 */
export function vitestProject(files: Record<string, string>, links: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'hb-vitest-project-'));
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(PACKAGE_ROOT, path.join(dir, 'node_modules/harness-bench'), 'dir');
  symlinkSync(path.join(PACKAGE_ROOT, 'node_modules/vitest'), path.join(dir, 'node_modules/vitest'), 'dir');
  writeFileSync(
    path.join(dir, 'package.json'),
    '{ "name": "user-project", "private": true, "type": "module" }\n',
  );
  for (const [name, target] of Object.entries(links)) symlinkSync(target, path.join(dir, name));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

/**
 * Runs `vitest run ARGS…` in the project (a child process, 120 s at most) and resolves with its
 * exit code and every test of the JSON report.
 */
export function runVitest(
  dir: string,
  args: readonly string[] = [],
): Promise<{ code: number; tests: ReportedTest[]; output: string }> {
  const report = path.join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
  const bin = path.join(PACKAGE_ROOT, 'node_modules/vitest/vitest.mjs');
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, 'run', '--reporter=json', `--outputFile=${report}`, ...args],
      {
        cwd: dir,
        timeout: 120_000,
        env: { ...process.env, CI: '1', VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
      },
      (error, stdout, stderr) => {
        let tests: ReportedTest[] = [];
        try {
          const json = JSON.parse(readFileSync(report, 'utf8')) as {
            testResults: { name: string; assertionResults: Omit<ReportedTest, 'file'>[] }[];
          };
          tests = json.testResults.flatMap((f) =>
            f.assertionResults.map((t) => ({ ...t, file: path.relative(dir, f.name) })),
          );
        } catch {
          // no report: the run failed before testing; the output says why
        }
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, tests, output: `${stdout}\n${stderr}` });
      },
    );
  });
}
