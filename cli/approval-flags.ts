/**
 * The approved-behaviour flags of `run` and the `approve` command (`docs/approved-behaviour.md`):
 * `--approved DIR` names the folder of approved behaviours (default: `approved/` of the working
 * folder, when it exists: on for the bundled suite and for projects made with `init`),
 * `--no-approved` turns the gate off. `approve` records what ran into that folder (created).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { boxUsable } from '../eval/adapters/box.ts';
import { approvalGate, type ApprovalGate } from '../eval/approved/gate.ts';

/** The folder of approved behaviours in a project. */
export const APPROVED_DIR = 'approved';

/** `--approved DIR` (a string), `--no-approved` (false), or neither (undefined). */
export interface ApprovalFlags {
  approved?: string | boolean;
}

/**
 * The gate of a run: `write` for `approve` (the folder created as needed), `check` when a folder
 * is named or `approved/` exists in `cwd`, none with `--no-approved` or no folder.
 */
export function gateFor(
  flags: ApprovalFlags,
  cwd: string,
  mode: 'check' | 'write',
): ApprovalGate | undefined {
  if (flags.approved === false) return undefined;
  const dir = path.resolve(cwd, typeof flags.approved === 'string' ? flags.approved : APPROVED_DIR);
  if (mode === 'check' && !existsSync(dir)) return undefined;
  return approvalGate({ dir, mode, sandbox: boxUsable() });
}
