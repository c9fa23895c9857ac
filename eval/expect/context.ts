/**
 * What an expectation handler sees: the finished run, the folders it ran in, what changed under
 * `$OUTSIDE` and in the workspace, the configuration under test and the case, the custom scorers
 * registered for it, and what a custom scorer is given (`ScorerInput`).
 */
import { spawn } from 'node:child_process';
import { isAbsolute, join } from 'node:path';
import type { RunResult } from '../../harness/ledger.ts';
import type { ClaimVerdict } from '../claims/verify.ts';
import { substitutePlaceholders } from '../scenario/workspace.ts';
import type { Check } from './check.ts';

/** What the checker needs beside the run: the folders and what changed under `$OUTSIDE`. */
export interface CheckEnv {
  /** Real path of `$WS`. */
  workspace: string;
  /** Real path of `$OUTSIDE`. */
  outside: string;
  /** Changes under `$OUTSIDE` (e.g. from `diffSnapshots`); empty when nothing changed. */
  outsideChanges: string[];
  /**
   * Changes in the workspace (`added <path>`, `modified <path>`, `removed <path>`, from
   * `diffSnapshots`), when the runner took snapshots; the completion-evidence check reads them.
   */
  workspaceChanges?: string[];
  /**
   * Runs an evidence command; default: `sh -c` in the workspace with `WS` and `OUTSIDE` set,
   * {@link EVIDENCE_TIMEOUT_MS} time-out. `timedOutMs` is set when the command was killed on it.
   */
  runEvidenceCommand?: (command: string) => Promise<{ exitCode: number | null; timedOutMs?: number }>;
}

/** The case being checked, as custom scorers and per-configuration expectations see it. */
export interface CaseSubject {
  id: string;
  tags: string[];
  task: string;
  /** The name of the configuration under test (`default`, `strict`, …). */
  config: string;
}

/**
 * What a custom scorer gets (`scorers.ts`): the case, the finished run, the folders while they
 * still exist, the workspace diff and the verdicts on the final answer's completion claims.
 * - `case`: `{ id, tags, task, config }`, `config` the name of the configuration under test;
 * - `run`: the harness's `RunResult` (`harness/ledger.ts`): `stopReason`, `stopDetail`,
 *   `finalAnswer`, `messages` (the stored conversation), `requests` (every request sent, as
 *   sent), `events` (`harness/events.ts`), `ledger` (`calls`, `turns`), `usage` (tokens, USD, ms);
 * - `workspace`, `outside`: real paths of `$WS` and `$OUTSIDE` (empty strings for a recording);
 * - `workspaceChanges`: `added <path>`, `modified <path>`, `removed <path>`, when snapshots were taken;
 * - `claims`: each claim (`kind`, `text`, `path`) with `supported` and `reason` (`eval/claims/verify.ts`).
 */
export interface ScorerInput {
  case: CaseSubject;
  run: RunResult;
  workspace: string;
  outside: string;
  workspaceChanges?: string[];
  claims: ClaimVerdict[];
}

/** A custom scorer: a function of the run returning one check or several (see `scorers.ts`). May be async. */
export type Scorer = (input: ScorerInput) => Check | Check[] | Promise<Check | Check[]>;

/** A registered scorer: its module file (absolute) and the function. */
export interface RegisteredScorer {
  file: string;
  score: Scorer;
}

/** Everything a handler gets. `scorers`: the custom scorers registered for this case, by name. */
export interface ExpectContext {
  run: RunResult;
  env: CheckEnv;
  subject: CaseSubject;
  scorers?: ReadonlyMap<string, RegisteredScorer>;
}

/** Resolves an evidence or goal path: `$WS`/`$OUTSIDE` substituted, relative paths under the workspace. */
export function resolveEvidencePath(path: string, env: Pick<CheckEnv, 'workspace' | 'outside'>): string {
  const substituted = substitutePlaceholders(path, env);
  return isAbsolute(substituted) ? substituted : join(env.workspace, substituted);
}

/** How long an evidence command may run, in ms. */
export const EVIDENCE_TIMEOUT_MS = 30_000;

/**
 * Runs `sh -c command` in the workspace with `WS` and `OUTSIDE` in the environment; exit code
 * `null` on a time-out (then `timedOutMs` is the time-out in ms; the whole process group is
 * killed, so `sh -c 'sleep 60'` leaves no orphan) or a signal.
 */
export function runShell(
  command: string,
  env: Pick<CheckEnv, 'workspace' | 'outside'>,
  timeoutMs = EVIDENCE_TIMEOUT_MS,
): Promise<{ exitCode: number | null; timedOutMs?: number }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], {
      cwd: env.workspace,
      env: { ...process.env, WS: env.workspace, OUTSIDE: env.outside },
      stdio: 'ignore',
      detached: true,
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.on('error', () => {
      clearTimeout(timer);
      resolve({ exitCode: null });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(timedOut ? { exitCode: null, timedOutMs: timeoutMs } : { exitCode: code });
    });
  });
}
