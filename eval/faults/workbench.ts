/**
 * The fault workbench: a temporary copy of the repository's code (harness, eval, cli, reports,
 * bin, configs, adapters — every folder the CLI reads at start-up; tests and fixtures left out, `node_modules` linked), a fault applied to it, and
 * the scenarios of its tag run there by `harness-bench run` in a child process, exactly as a
 * user runs them. Between faults the patched files are restored from the repository, so one copy
 * serves a whole catalogue. Before a run the patched copy is bundled as `npm ci` bundles a
 * checkout (`bundleCopy`), so the child starts from `dist/cli.mjs` instead of compiling every
 * source file through tsx: about a second instead of three to four on 2 cores.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleCli } from '../bundle-cli.mjs';
import { PACKAGE_ROOT } from '../config-load.ts';
import type { CaseResult } from '../results.ts';
import { applyFault, type AppliedPatch } from './patch.ts';
import type { Fault } from './types.ts';

/** Folders and files of the repository the harness needs to run. */
const CODE = [
  'harness',
  'eval',
  'cli',
  'reports',
  'bin',
  'configs',
  'adapters',
  'package.json',
  'tsconfig.json',
];

/** One case of a run, reduced to what the fault tests compare. */
export interface CaseOutcome {
  id: string;
  config: string;
  status: CaseResult['status'];
  /** The first failed check or the error, one line. */
  why?: string;
}

/** A copy of the repository's code to break. */
export interface Workbench {
  root: string;
  /** Applies `fault` (after restoring the files the previous fault changed). @throws PatchDoesNotApplyError */
  apply(fault: Fault): AppliedPatch[];
  /** Bundles the copy as it is now (patched) into its `dist/` (see {@link bundleCopy}). */
  bundle(): Promise<void>;
  /** Restores every file a fault changed, and removes the bundle. */
  reset(): void;
  /** Removes the copy. */
  dispose(): void;
}

/** Copies the repository at `source` (default: this package) to a temp folder. */
export function createWorkbench(source: string = PACKAGE_ROOT): Workbench {
  const root = mkdtempSync(path.join(tmpdir(), 'hb-fault-'));
  for (const item of CODE)
    cpSync(path.join(source, item), path.join(root, item), {
      recursive: true,
      filter: (from) => !from.endsWith('.test.ts') && !from.includes(`${path.sep}fixtures`),
    });
  symlinkSync(path.join(source, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  let touched: string[] = [];
  const reset = () => {
    for (const file of touched) writeFileSync(path.join(root, file), readFileSync(path.join(source, file)));
    touched = [];
    rmSync(path.join(root, 'dist'), { recursive: true, force: true });
  };
  return {
    root,
    apply(fault) {
      reset();
      const applied = applyFault(root, fault);
      touched = applied.map((a) => a.file);
      return applied;
    },
    bundle: () => bundleCopy(root),
    reset,
    dispose() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * Bundles the CLI of the copy at `root` (patched) into `root/dist/cli.mjs` with `dist/inputs.json`,
 * as `npm ci` does for the checkout (`eval/bundle-cli.mjs`, the one writer of both). `bin/harness-bench.js` of the
 * copy runs the bundle only while every one of them is unchanged, and otherwise the sources
 * through tsx, so a stale bundle can never stand in for the patched code; a copy esbuild cannot
 * bundle is left without one, to tsx. In this process (the
 * esbuild service stays up): a quarter of a second, against seconds of tsx start-up in the child.
 */
export async function bundleCopy(root: string): Promise<void> {
  try {
    await bundleCli(root, { logLevel: 'silent' });
  } catch {
    // A patch esbuild cannot bundle: the child runs the sources through tsx and says why it
    // cannot start (a broken fault, exit 2 or 3), as it did before there was a bundle.
    rmSync(path.join(root, 'dist'), { recursive: true, force: true });
  }
}

/** What to run: scenario and cassette files (absolute paths), and the configurations. */
export interface RunInputs {
  scenarios: readonly string[];
  recordings?: readonly string[];
  /** Configuration files; default: `configs/default.json` of the copy. */
  configs?: readonly string[];
  /** Environment of the child (CI is passed through by default). */
  env?: NodeJS.ProcessEnv;
  /** @default 180000 */
  timeoutMs?: number;
  /** `--bail`: start no case after the first that fails or errors. */
  bail?: boolean;
}

/** The run could not produce results (a patch that breaks the harness's startup, a timeout). */
export class WorkbenchRunError extends Error {
  override readonly name = 'WorkbenchRunError';
}

/**
 * Runs `harness-bench run` in the copy and returns every case's outcome. A child that exits 0 or
 * 1 without writing results died before the end (an uncaught error): it is run once more, since on
 * a loaded machine that can be a transient (tsx's transform cache written by a parallel process);
 * when it dies again the error carries its stderr.
 * @throws WorkbenchRunError when the child exits with 2, 3 or 4, is killed, or writes no results twice
 */
export async function runInCopy(root: string, inputs: RunInputs): Promise<CaseOutcome[]> {
  try {
    return await runOnce(root, inputs);
  } catch (error) {
    if (!(error instanceof NoResultsError)) throw error;
    return runOnce(root, inputs);
  }
}

/** The child ended with 0 or 1 but wrote no results file. */
class NoResultsError extends WorkbenchRunError {}

async function runOnce(root: string, inputs: RunInputs): Promise<CaseOutcome[]> {
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'hb-fault-out-')), 'results.json');
  const args = [path.join(root, 'bin', 'harness-bench.js'), 'run', '--json', out];
  for (const file of inputs.scenarios) args.push('-s', file);
  for (const file of inputs.recordings ?? []) args.push('-r', file);
  for (const file of inputs.configs ?? []) args.push('-c', file);
  if (inputs.bail) args.push('--bail');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    NO_COLOR: '1',
    // Secrets a user's shell would hold: the sandbox scenarios check that none reaches a command.
    OPENAI_API_KEY: 'sk-hb-canary-not-a-key',
    GITHUB_TOKEN: 'ghp_hb_canary_not_a_token',
    ...(process.env.CI ? { CI: process.env.CI } : {}),
    ...inputs.env,
  };
  try {
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString('utf8')).slice(-20_000);
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), inputs.timeoutMs ?? 180_000);
      child.on('error', reject);
      child.on('close', (exit) => {
        clearTimeout(timer);
        resolve({ code: exit, stderr });
      });
    });
    if (code !== 0 && code !== 1)
      throw new WorkbenchRunError(
        `harness-bench run exited with ${code === null ? 'a signal (timeout?)' : code}: ${stderr.trim().split('\n').slice(-12).join('\n')}`,
      );
    let parsed: { cases: CaseResult[] };
    try {
      parsed = JSON.parse(readFileSync(out, 'utf8')) as { cases: CaseResult[] };
    } catch (error) {
      throw new NoResultsError(
        `no results were written (exit ${code}): ${(error as Error).message}; stderr: ${stderr.trim().split('\n').slice(-12).join('\n')}`,
      );
    }
    return parsed.cases.map(outcomeOf);
  } finally {
    rmSync(path.dirname(out), { recursive: true, force: true });
  }
}

/** The outcome of one case result. */
export function outcomeOf(result: CaseResult): CaseOutcome {
  const why = result.error?.message ?? result.firstFailure ?? result.skip?.reason;
  return {
    id: result.id,
    config: result.config,
    status: result.status,
    ...(why !== undefined ? { why: why.split('\n')[0]!.slice(0, 300) } : {}),
  };
}
