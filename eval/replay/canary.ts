/**
 * Canary cassettes: a recording edited on purpose, with the divergence the replay must report
 * for the edit. They keep the replay engine's own checks in the main job: with every bundled
 * recording replaying clean, a replay that stopped comparing a field, or that took an edited
 * history for a new conversation, would pass everything. A canary file (`<name>.canary.json`,
 * beside the cassettes, loaded by the same folders and globs) holds
 *
 *     { "canary": "what was edited, in words",
 *       "base": "../real/some-recording.json",          // relative to the canary file
 *       "patch": [ { "op": "replace", "path": "/exchanges/1/request/body/model", "value": "x" } ],
 *       "flags": "exchange 1 /model" }                    // the first divergence it must report
 *
 * `patch` is a JSON Patch (RFC 6902, https://datatracker.ietf.org/doc/html/rfc6902) applied to
 * the base cassette. The case passes when the replay's first divergence
 * (`findings.firstDivergence`, `exchange N /pointer`) is `flags` or lies inside it, and fails otherwise
 * ("the replay did not flag the edit"); the replay's other checks, which the edit breaks on
 * purpose, are left out.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import jsonPatch, { type Operation } from 'fast-json-patch';
import { loadCassette, validateCassette } from '../cassette/load.ts';
import type { Cassette } from '../cassette/types.ts';
import { InputError, type InputProblem } from '../errors.ts';
import { withChecks } from '../expect/cassette.ts';
import { makeCheck } from '../expect/check.ts';
import type { CaseResult } from '../results.ts';

/** What a canary expects of its replay. */
export interface CanarySpec {
  /** The edit, in words. */
  edit: string;
  /** The start of the first divergence the replay must report (`exchange N /pointer`). */
  flags: string;
}

/** True for a canary file name (`*.canary.json`). */
export function isCanaryFile(file: string): boolean {
  return /\.canary\.json$/i.test(file);
}

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Loads a canary: its base cassette with the patch applied, id `canary-<name>`.
 *
 * @throws InputError (file shown as `shown`, JSON path, reason) for a file that is not JSON, a
 *   missing or wrong field, a base that is not a cassette, a patch that does not apply, or a
 *   patched cassette that no longer matches the cassette schema.
 */
export function loadCanary(file: string, shown: string): { cassette: Cassette; canary: CanarySpec } {
  const fail = (at: string, reason: string): never => {
    throw new InputError([{ file: shown, path: at, reason }]);
  };
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return fail('', `not a canary: ${(error as Error).message}`);
  }
  if (!isObj(doc)) return fail('', 'a canary is an object with canary, base, patch and flags');
  for (const key of ['canary', 'base', 'flags'] as const)
    if (typeof doc[key] !== 'string' || doc[key] === '') fail(`/${key}`, 'must be a non-empty string');
  if (!Array.isArray(doc.patch) || doc.patch.length === 0)
    fail('/patch', 'must be a non-empty JSON Patch list');
  const base = path.resolve(path.dirname(file), doc.base as string);
  let cassette: Cassette;
  try {
    cassette = structuredClone(loadCassette(base));
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return fail('/base', `the base is not a cassette: ${error.problems[0]?.reason ?? ''}`);
  }
  const invalid = jsonPatch.validate(doc.patch as Operation[], cassette);
  if (invalid)
    fail(`/patch/${invalid.index}`, `does not apply: ${invalid.name} (${invalid.message.split('\n')[0]})`);
  jsonPatch.applyPatch(cassette, doc.patch as Operation[], false, true);
  const name = path.basename(file).replace(/\.canary\.json$/i, '');
  cassette.meta = { ...cassette.meta, id: `canary-${name}`, title: `canary: ${doc.canary as string}` };
  const problems: InputProblem[] = validateCassette(cassette, shown);
  if (problems.length > 0) throw new InputError(problems);
  return { cassette, canary: { edit: doc.canary as string, flags: doc.flags as string } };
}

/** True when `first` is the divergence `flags` names, or one inside it (`/messages/2` → `/messages/2/content`). */
function flagsAt(first: string, flags: string): boolean {
  return first === flags || first.startsWith(flags.endsWith('/') ? flags : `${flags}/`);
}

/**
 * A canary's verdict from its replay's result: pass when the first divergence starts with
 * `canary.flags`. The replay's exact-replay checks (`replay.*`), which the edit breaks on
 * purpose, are replaced by this one; an errored case stays an error.
 */
export function canaryVerdict(result: CaseResult, canary: CanarySpec): CaseResult {
  if (result.status === 'error' || result.status === 'skipped') return result;
  const first = result.findings?.firstDivergence;
  const check = makeCheck(
    'replay.canary',
    typeof first === 'string' && flagsAt(first, canary.flags),
    canary.flags,
    first ?? null,
    first
      ? `edit "${canary.edit}": the first divergence reported is ${first}`
      : `edit "${canary.edit}": the replay did not flag the edit (no divergence reported)`,
  );
  const kept = result.checks.filter((c) => !c.name.startsWith('replay.'));
  return withChecks({ ...result, checks: kept, status: 'pass' } as CaseResult, [check]);
}
