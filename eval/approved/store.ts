/**
 * The approved behaviours on disk (`docs/approved-behaviour.md`): one file per case id,
 * `<dir>/<id>.json` (the id's `/` as folders), format `harness-bench.approved` version 1, holding
 * the behaviour of each configuration it was approved under, keyed by {@link behaviourKey}. A
 * behaviour equal to one written before it in the file is stored as `{ "same": KEY }`, so
 * configurations that behave alike cost one copy. Keys are sorted, the JSON indented: a change
 * reads as a small diff in a pull request.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { InputError } from '../errors.ts';
import type { Behaviour } from './behaviour.ts';

/** One approved file. */
export interface ApprovedFile {
  format: 'harness-bench.approved';
  version: 1;
  id: string;
  behaviours: Record<string, Behaviour | { same: string }>;
}

/**
 * The key of a configuration's behaviour on this machine: the configuration's name, with
 * ` (no sandbox)` when bubblewrap is not usable here (what such a machine runs differs, and is
 * approved apart). Pure.
 */
export function behaviourKey(config: string, sandbox: boolean): string {
  return sandbox ? config : `${config} (no sandbox)`;
}

/** Where the approved file of `id` is under `dir`. Pure. */
export function approvedPath(dir: string, id: string): string {
  return `${path.join(dir, ...id.split('/').map((part) => part.replace(/[^A-Za-z0-9._-]/g, '_')))}.json`;
}

/** Reads `id`'s approved file, `undefined` when there is none. @throws InputError for a file that is not one */
export function readApproved(dir: string, id: string): ApprovedFile | undefined {
  const file = approvedPath(dir, id);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError([{ file, path: '', reason: `not JSON: ${(error as Error).message}` }]);
  }
  const v = value as Partial<ApprovedFile> | null;
  if (
    v?.format !== 'harness-bench.approved' ||
    v.version !== 1 ||
    typeof v.behaviours !== 'object' ||
    !v.behaviours
  )
    throw new InputError([{ file, path: '', reason: 'not a harness-bench.approved file of version 1' }]);
  return v as ApprovedFile;
}

/** The behaviour stored under `key` (following `same`), `undefined` when there is none. Pure. */
export function approvedBehaviour(file: ApprovedFile | undefined, key: string): Behaviour | undefined {
  let entry = file?.behaviours[key];
  for (let hops = 0; entry && 'same' in entry && hops < 8; hops += 1) entry = file!.behaviours[entry.same];
  return entry && !('same' in entry) ? entry : undefined;
}

/**
 * Writes `behaviours` (key → behaviour) into `id`'s approved file, keeping the keys it holds for
 * other configurations, atomically (a temp file renamed over it).
 */
export function writeApproved(dir: string, id: string, behaviours: Record<string, Behaviour>): void {
  const old = readApproved(dir, id);
  const all: Record<string, Behaviour> = {};
  for (const key of Object.keys(old?.behaviours ?? {})) {
    const b = approvedBehaviour(old, key);
    if (b) all[key] = b;
  }
  Object.assign(all, behaviours);
  const stored: ApprovedFile['behaviours'] = {};
  const keys = Object.keys(all).sort();
  for (const key of keys) {
    const same = keys.find((k) => k < key && isDeepStrictEqual(all[k], all[key]) && !('same' in stored[k]!));
    stored[key] = same ? { same } : all[key]!;
  }
  const file = approvedPath(dir, id);
  mkdirSync(path.dirname(file), { recursive: true });
  const text = `${JSON.stringify({ format: 'harness-bench.approved', version: 1, id, behaviours: stored }, null, 1)}\n`;
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}
