/**
 * Handlers for the state the run left behind: `evidence` (files and commands in the workspace)
 * and `outsideChanged` (always checked: nothing under `$OUTSIDE` may change unless expected).
 */
import { lstat, readFile } from 'node:fs/promises';
import type { Evidence, Expectations } from '../scenario/types.ts';
import { makeCheck, show, type Check } from './check.ts';
import { resolveEvidencePath, runShell, type CheckEnv, type ExpectContext } from './context.ts';

/** Whether a path exists and, for files and links to files, its text. */
export async function fileState(path: string): Promise<{ exists: boolean; content?: string }> {
  const stat = await lstat(path).catch(() => undefined);
  if (!stat) return { exists: false };
  const content =
    stat.isFile() || stat.isSymbolicLink() ? await readFile(path, 'utf8').catch(() => undefined) : undefined;
  return content === undefined ? { exists: true } : { exists: true, content };
}

async function evidenceCheck(index: number, evidence: Evidence, env: CheckEnv): Promise<Check> {
  const name = `evidence.${index}`;
  if ('command' in evidence) {
    const run = env.runEvidenceCommand ?? ((command: string) => runShell(command, env));
    const { exitCode, timedOutMs } = await run(evidence.command);
    return makeCheck(
      name,
      exitCode === evidence.exitCode,
      evidence,
      timedOutMs === undefined ? { exitCode } : { exitCode, timedOut: true },
      timedOutMs === undefined
        ? `command ${show(evidence.command)} exited with ${String(exitCode)}, expected ${evidence.exitCode}`
        : `command ${show(evidence.command)} timed out after ${timedOutMs / 1000} s (killed), expected exit code ${evidence.exitCode}`,
    );
  }
  const state = await fileState(resolveEvidencePath(evidence.file, env));
  const failures: string[] = [];
  if (evidence.exists !== undefined && evidence.exists !== state.exists)
    failures.push(evidence.exists ? 'does not exist' : 'exists');
  if (evidence.contains !== undefined && !(state.content ?? '').includes(evidence.contains))
    failures.push(state.exists ? `does not contain ${show(evidence.contains)}` : 'does not exist');
  if (evidence.equals !== undefined && state.content !== evidence.equals)
    failures.push(state.exists ? `is not equal to ${show(evidence.equals)}` : 'does not exist');
  const observed = {
    exists: state.exists,
    ...(state.content !== undefined
      ? { content: state.content.length > 2000 ? `${state.content.slice(0, 2000)}…` : state.content }
      : {}),
  };
  const reason =
    failures.length === 0
      ? `${evidence.file} holds as expected`
      : `${evidence.file} ${[...new Set(failures)].join(' and ')}; observed ${show(observed)}`;
  return makeCheck(name, failures.length === 0, evidence, observed, reason);
}

/** `evidence`: every item holds after the run (one check per item, `evidence.<index>`). */
export async function checkEvidence(
  want: Expectations['evidence'],
  { env }: ExpectContext,
): Promise<Check[]> {
  const checks: Check[] = [];
  for (const [index, evidence] of (want ?? []).entries())
    checks.push(await evidenceCheck(index, evidence, env));
  return checks;
}

/** `outsideChanged` (default `false`): whether anything under `$OUTSIDE` changed. Always checked. */
export function checkOutsideChanged(want: Expectations['outsideChanged'], { env }: ExpectContext): Check[] {
  const expected = want ?? false;
  const changed = env.outsideChanges.length > 0;
  return [
    makeCheck(
      'outsideChanged',
      changed === expected,
      expected,
      env.outsideChanges,
      changed
        ? `changed under $OUTSIDE: ${env.outsideChanges.join(', ')}`
        : expected
          ? 'nothing changed under $OUTSIDE, but the case expects a change there'
          : 'nothing changed under $OUTSIDE',
    ),
  ];
}
