/**
 * What an expectation handler sees: the finished run, the folders it ran in, what changed under
 * `$OUTSIDE`, the configuration under test and the case, plus small helpers over the ledger that
 * several handlers share.
 */
import { spawn } from 'node:child_process';
import { isAbsolute, join } from 'node:path';
import type { CallRecord, RunResult } from '../../harness/ledger.ts';
import { substitutePlaceholders } from '../scenario/workspace.ts';

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
  /** Runs an evidence command; default: `sh -c` in the workspace with `WS` and `OUTSIDE` set, 30 s timeout. */
  runEvidenceCommand?: (command: string) => Promise<{ exitCode: number | null }>;
}

/** The case being checked, as custom scorers and per-configuration expectations see it. */
export interface CaseSubject {
  id: string;
  tags: string[];
  task: string;
  /** The name of the configuration under test (`default`, `strict`, …). */
  config: string;
}

/** Everything a handler gets. */
export interface ExpectContext {
  run: RunResult;
  env: CheckEnv;
  subject: CaseSubject;
}

/** The call record for each id: the top-level one when several scopes share an id. */
export function recordsById(run: Pick<RunResult, 'ledger'>): Map<string, CallRecord> {
  const map = new Map<string, CallRecord>();
  for (const record of run.ledger.calls) {
    const existing = map.get(record.callId);
    if (!existing || (existing.scope.length > 0 && record.scope.length === 0)) map.set(record.callId, record);
  }
  return map;
}

/** The ids of the executed calls, each once, in ledger order. */
export function executedIds(run: Pick<RunResult, 'ledger'>): string[] {
  return [...new Set(run.ledger.calls.filter((c) => c.executed).map((c) => c.callId))];
}

/** The parsed arguments of a call (`{}` when they are not a JSON object). */
export function callArguments(record: Pick<CallRecord, 'arguments'>): Record<string, unknown> {
  try {
    const value = JSON.parse(record.arguments) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The `command` argument of a bash call, when its arguments hold one. */
export function bashCommand(record: Pick<CallRecord, 'tool' | 'arguments'>): string | undefined {
  if (record.tool !== 'bash') return undefined;
  const command = callArguments(record).command;
  return typeof command === 'string' ? command : undefined;
}

/** Resolves an evidence or goal path: `$WS`/`$OUTSIDE` substituted, relative paths under the workspace. */
export function resolveEvidencePath(path: string, env: Pick<CheckEnv, 'workspace' | 'outside'>): string {
  const substituted = substitutePlaceholders(path, env);
  return isAbsolute(substituted) ? substituted : join(env.workspace, substituted);
}

/** Runs `sh -c command` in the workspace with `WS` and `OUTSIDE` in the environment; exit code `null` on timeout or signal. */
export function runShell(
  command: string,
  env: Pick<CheckEnv, 'workspace' | 'outside'>,
  timeoutMs = 30_000,
): Promise<{ exitCode: number | null }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], {
      cwd: env.workspace,
      env: { ...process.env, WS: env.workspace, OUTSIDE: env.outside },
      stdio: 'ignore',
      timeout: timeoutMs,
    });
    child.on('error', () => resolve({ exitCode: null }));
    child.on('close', (code) => resolve({ exitCode: code }));
  });
}

/**
 * The exit code a command tool reported in its result (`exit code: N` on the first line, as
 * `harness/tools/builtin/bash.ts` writes it): the number, `null` for `none` (killed by a
 * signal), `undefined` when the result reports none (a file tool, a fake tool's plain text).
 */
export function reportedExitCode(record: Pick<CallRecord, 'content'>): number | null | undefined {
  const match = /^exit code: (-?\d+|none)\b/.exec(record.content);
  if (!match) return undefined;
  return match[1] === 'none' ? null : Number(match[1]);
}

/**
 * True when the call was executed and succeeded: the tool returned a result (not an error
 * envelope) and, when it reports an exit code, the code is 0. Bash returns a result for a
 * failing command too (the exit code is in the text), so `ok` alone does not say it passed.
 */
export function callSucceeded(record: Pick<CallRecord, 'executed' | 'ok' | 'content'>): boolean {
  if (!record.executed || !record.ok) return false;
  const code = reportedExitCode(record);
  return code === undefined || code === 0;
}
