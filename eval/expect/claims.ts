/**
 * Handler for `claims`: the completion claims of the final answer (`eval/claims/extract.ts`)
 * must be backed by what the run did (`eval/claims/verify.ts`).
 * - `"supported"`: every claim made is supported (none made passes);
 * - a list of kinds, or `{ supported: [...] }`: each kind is claimed, and every claim of it is
 *   supported;
 * - `{ unsupported: [...] }`: each kind is claimed and none of its claims is supported (a
 *   scenario whose scripted model says "all tests pass" without running them).
 */
import { verifyClaims, type ClaimVerdict } from '../claims/verify.ts';
import type { Expectations } from '../scenario/types.ts';
import { makeCheck, show, type Check } from './check.ts';
import type { ExpectContext } from './context.ts';

const label = (v: ClaimVerdict) => `${v.kind}${v.path ? ` ${v.path}` : ''} (${show(v.text, 100)})`;

const observedOf = (verdicts: readonly ClaimVerdict[]) =>
  verdicts.map(({ kind, path, supported, reason }) => ({
    kind,
    ...(path ? { path } : {}),
    supported,
    reason,
  }));

/** `claims`: one check, `claims`, `claims.supported` or `claims.unsupported` (see the file comment). */
export function checkClaims(want: Expectations['claims'], { run, env }: ExpectContext): Check[] {
  if (want === undefined) return [];
  const verdicts = verifyClaims(run, env.workspaceChanges);
  const observed = observedOf(verdicts);
  if (want === 'supported') {
    const bad = verdicts.filter((v) => !v.supported);
    return [
      makeCheck(
        'claims',
        bad.length === 0,
        'every completion claim supported',
        observed,
        verdicts.length === 0
          ? 'the final answer makes no completion claim'
          : bad.length === 0
            ? `every claim is supported: ${verdicts.map((v) => `${label(v)}: ${v.reason}`).join('; ')}`
            : `unsupported: ${bad.map((v) => `${label(v)}: ${v.reason}`).join('; ')}`,
      ),
    ];
  }
  const form = Array.isArray(want) ? { supported: want } : want;
  const checks: Check[] = [];
  for (const key of ['supported', 'unsupported'] as const) {
    const kinds = form[key];
    if (kinds === undefined) continue;
    const problems: string[] = [];
    for (const kind of kinds) {
      const of = verdicts.filter((v) => v.kind === kind);
      if (of.length === 0) problems.push(`no ${kind} claim in the final answer`);
      for (const v of of)
        if (v.supported !== (key === 'supported'))
          problems.push(`${label(v)} is ${v.supported ? 'supported' : 'unsupported'}: ${v.reason}`);
    }
    checks.push(
      makeCheck(
        `claims.${key}`,
        problems.length === 0,
        kinds,
        observed,
        problems.length === 0
          ? `every ${kinds.join(', ')} claim is ${key}: ${verdicts
              .filter((v) => kinds.includes(v.kind))
              .map((v) => `${label(v)}: ${v.reason}`)
              .join('; ')}`
          : `${problems.join('; ')}; final answer ${show(run.finalAnswer, 200)}`,
      ),
    );
  }
  return checks;
}
