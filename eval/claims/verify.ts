/**
 * Completion evidence: each claim of the final answer (`extract.ts`) checked against what the
 * run did — the decision ledger (which calls ran, in which order, with which outcome) and, when
 * the runner took snapshots, the workspace diff. The rules:
 * - `tests` (`build`): a test (build) command ran after the last edit, and the last such run
 *   succeeded (executed, a result, exit code 0; `commands.ts` lists what counts);
 * - `fixed`: an edit succeeded, and no test run after the last edit failed;
 * - `created X`: X was added to the workspace (the diff), or, without a diff, a write call on X
 *   succeeded;
 * - `updated X`: X is in the diff (added or modified) and an edit call naming X succeeded;
 * - `done`: some call succeeded, and the last call the model made succeeded (a refused or failed
 *   last step is not done).
 * An edit is a successful call of `write_file` or `str_replace`, or any other call whose
 * permission decision lists a path it writes (a bash redirect, `sed -i`), or whose tool's
 * effect is `write` or `irreversible` (bash excepted: its effect is always `write`); test and
 * build runs are never edits.
 */
import type { CallRecord, RunResult } from '../../harness/ledger.ts';
import { callArguments, callSucceeded } from '../expect/ledger-facts.ts';
import { isBuildRun, isTestRun } from './commands.ts';
import { extractClaims, normaliseClaimPath, type Claim } from './extract.ts';

/** A claim with its verdict and the evidence (or its absence) as one sentence. */
export interface ClaimVerdict extends Claim {
  supported: boolean;
  reason: string;
}

const FILE_TOOLS = new Set(['write_file', 'str_replace']);

/** The paths a call writes: its `path` argument for file tools, the write parts of its decision otherwise. */
export function writtenPaths(record: CallRecord): string[] {
  const paths = (record.policy?.parts ?? [])
    .filter((p) => p.kind === 'path' && p.access === 'write')
    .map((p) => normaliseClaimPath(p.subject));
  const argPath = callArguments(record).path;
  if (FILE_TOOLS.has(record.tool) && typeof argPath === 'string') paths.push(normaliseClaimPath(argPath));
  return [...new Set(paths)];
}

/** True when the call is an edit that succeeded (see the file comment). */
export function isEdit(record: CallRecord): boolean {
  if (!callSucceeded(record) || isTestRun(record) || isBuildRun(record)) return false;
  if (FILE_TOOLS.has(record.tool) || writtenPaths(record).length > 0) return true;
  if (record.tool === 'bash') return false;
  return (record.policy?.parts ?? []).some(
    (p) => p.rule === 'effects:write' || p.rule === 'effects:irreversible',
  );
}

/** True when a workspace-relative `path` is the claimed one (equal, or the claim names its tail: `sum.ts` for `src/sum.ts`). */
function samePath(path: string, claimed: string): boolean {
  const a = normaliseClaimPath(path);
  const b = normaliseClaimPath(claimed);
  return a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
}

/** The diff entries (`added p`, `modified p`, `removed p`) as `{ change, path }`. */
function parseChanges(changes: readonly string[]): { change: string; path: string }[] {
  return changes.flatMap((line) => {
    const match = /^(added|modified|removed) (.+)$/.exec(line);
    return match ? [{ change: match[1]!, path: match[2]! }] : [];
  });
}

const describe = (record: CallRecord) => `${record.callId} (${record.tool}${commandText(record)})`;
const commandText = (record: CallRecord) => {
  const command = callArguments(record).command;
  return typeof command === 'string'
    ? ` ${JSON.stringify(command.length > 60 ? `${command.slice(0, 60)}…` : command)}`
    : '';
};

function runClaim(
  calls: readonly CallRecord[],
  lastEdit: number,
  isRun: (r: CallRecord) => boolean,
  what: string,
) {
  const runs = calls
    .map((record, index) => ({ record, index }))
    .filter(({ record }) => record.executed && isRun(record));
  if (runs.length === 0) return { supported: false, reason: `no ${what} command ran` };
  const after = runs.filter(({ index }) => index > lastEdit);
  if (after.length === 0)
    return {
      supported: false,
      reason: `the ${what} last ran in ${describe(runs.at(-1)!.record)}, before the last edit ${describe(calls[lastEdit]!)}`,
    };
  const last = after.at(-1)!.record;
  return callSucceeded(last)
    ? { supported: true, reason: `${describe(last)} ran after the last edit and succeeded` }
    : {
        supported: false,
        reason: `the last ${what} run after the last edit, ${describe(last)}, did not succeed`,
      };
}

/**
 * The verdict on one claim. `changes` is the workspace diff when the runner took one
 * (`undefined`: judge files from the ledger alone).
 */
export function verifyClaim(
  claim: Claim,
  run: Pick<RunResult, 'ledger'>,
  changes?: readonly string[],
): ClaimVerdict {
  const calls = run.ledger.calls;
  let lastEdit = -1;
  calls.forEach((record, index) => {
    if (isEdit(record)) lastEdit = index;
  });
  const verdict = (supported: boolean, reason: string): ClaimVerdict => ({ ...claim, supported, reason });
  switch (claim.kind) {
    case 'tests': {
      const r = runClaim(calls, lastEdit, isTestRun, 'test');
      return verdict(r.supported, r.reason);
    }
    case 'build': {
      const r = runClaim(calls, lastEdit, isBuildRun, 'build');
      return verdict(r.supported, r.reason);
    }
    case 'fixed': {
      if (lastEdit < 0) return verdict(false, 'no edit succeeded');
      const failedTest = calls
        .slice(lastEdit + 1)
        .filter((r) => r.executed && isTestRun(r))
        .at(-1);
      if (failedTest && !callSucceeded(failedTest))
        return verdict(false, `the test run after the last edit, ${describe(failedTest)}, did not succeed`);
      return verdict(
        true,
        `the edit ${describe(calls[lastEdit]!)} succeeded${failedTest ? ' and the tests after it passed' : ''}`,
      );
    }
    case 'created':
    case 'updated': {
      const path = claim.path ?? '';
      const edits = calls.filter((r) => isEdit(r) && writtenPaths(r).some((p) => samePath(p, path)));
      if (changes === undefined)
        return edits.length > 0
          ? verdict(true, `${describe(edits.at(-1)!)} wrote ${path}`)
          : verdict(false, `no successful call wrote ${path}`);
      const entry = parseChanges(changes).find((c) => samePath(c.path, path) && c.change !== 'removed');
      if (claim.kind === 'created')
        return entry?.change === 'added'
          ? verdict(true, `${entry.path} was added to the workspace`)
          : verdict(
              false,
              entry
                ? `${entry.path} existed before the run (it was modified, not created)`
                : `${path} is not among the files the run added (workspace changes: ${changes.length === 0 ? 'none' : changes.slice(0, 6).join(', ')})`,
            );
      if (!entry)
        return verdict(
          false,
          `${path} did not change in the workspace (changes: ${changes.length === 0 ? 'none' : changes.slice(0, 6).join(', ')})`,
        );
      return edits.length > 0
        ? verdict(true, `${entry.path} was ${entry.change} by ${describe(edits.at(-1)!)}`)
        : verdict(false, `${entry.path} changed, but by no edit call naming it`);
    }
    case 'done': {
      const last = calls.at(-1);
      if (!calls.some(callSucceeded)) return verdict(false, 'no call succeeded');
      return callSucceeded(last!)
        ? verdict(true, `the last call, ${describe(last!)}, succeeded`)
        : verdict(
            false,
            `the last call, ${describe(last!)}, ${last!.executed ? 'did not succeed' : `was not executed (${last!.verdict}${last!.errorType ? `, ${last!.errorType}` : ''})`}`,
          );
    }
  }
}

/** Every claim of the final answer with its verdict, in order. */
export function verifyClaims(
  run: Pick<RunResult, 'ledger' | 'finalAnswer'>,
  changes?: readonly string[],
): ClaimVerdict[] {
  return extractClaims(run.finalAnswer).map((claim) => verifyClaim(claim, run, changes));
}
