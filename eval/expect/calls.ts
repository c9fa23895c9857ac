/**
 * Handlers for what happened to each tool call: `executed`, `notExecuted`, `results` and
 * `permissions`. Call ids are those of the script (or assigned by the harness); the loader
 * rejects ids the script cannot produce, so these checks cannot be vacuous.
 */
import { decodeToolResult } from '../../harness/tools/types.ts';
import type { Expectations } from '../scenario/types.ts';
import { makeCheck, show, type Check } from './check.ts';
import type { ExpectContext } from './context.ts';
import { executedIds, recordsById } from './ledger-facts.ts';

/** The model-visible text plus, for error envelopes, the decoded message (so includes may contain quotes). */
function searchableText(content: string): string {
  const decoded = decodeToolResult(content, '');
  return decoded.ok ? content : `${content}\n${decoded.message}`;
}

/** `executed`: exactly these call ids were executed (passed policy and approval, handed to the tool). */
export function checkExecuted(want: Expectations['executed'], { run }: ExpectContext): Check[] {
  if (want === undefined) return [];
  const executed = executedIds(run);
  const wanted = [...new Set(want)];
  const missing = wanted.filter((id) => !executed.includes(id));
  const extra = executed.filter((id) => !wanted.includes(id));
  const pass = missing.length === 0 && extra.length === 0;
  const reason = pass
    ? `executed exactly ${show(wanted)}`
    : `expected exactly ${show(wanted)}, observed ${show(executed)}${missing.length ? `; not executed: ${missing.join(', ')}` : ''}${extra.length ? `; unexpected: ${extra.join(', ')}` : ''}`;
  return [makeCheck('executed', pass, wanted, executed, reason)];
}

/** `notExecuted`: none of these ids was executed (one check per id). */
export function checkNotExecuted(want: Expectations['notExecuted'], { run }: ExpectContext): Check[] {
  const byId = recordsById(run);
  return (want ?? []).map((id) => {
    const record = byId.get(id);
    const observed = record ? (record.executed ? 'executed' : 'not executed') : 'no such call';
    return makeCheck(
      `notExecuted.${id}`,
      !record?.executed,
      'not executed',
      observed,
      `call ${id}: ${observed}`,
    );
  });
}

/** `results`: per call id, `ok`, `errorType`, `retryable` and `includes` (one check per field). */
export function checkResults(want: Expectations['results'], { run }: ExpectContext): Check[] {
  const byId = recordsById(run);
  const checks: Check[] = [];
  for (const [id, expected] of Object.entries(want ?? {})) {
    const record = byId.get(id);
    const missing = `call ${id} not found; calls: ${show([...byId.keys()])}`;
    if (expected.ok !== undefined)
      checks.push(
        makeCheck(
          `results.${id}.ok`,
          record?.ok === expected.ok,
          expected.ok,
          record?.ok,
          record
            ? record.ok === expected.ok
              ? `call ${id} ${record.ok ? 'succeeded' : 'failed'} as expected`
              : `call ${id} ${record.ok ? 'succeeded' : `failed (${record.errorType ?? 'error'})`}, expected it to ${expected.ok ? 'succeed' : 'fail'}; content ${show(record.content, 200)}`
            : missing,
        ),
      );
    if (expected.errorType !== undefined) {
      const observed = record ? (record.errorType ?? null) : undefined;
      const reason = record
        ? `expected ${expected.errorType}, observed ${String(observed)}; content ${show(record.content, 200)}`
        : missing;
      checks.push(
        makeCheck(
          `results.${id}.errorType`,
          observed === expected.errorType,
          expected.errorType,
          observed,
          reason,
        ),
      );
    }
    if (expected.retryable !== undefined) {
      const observed = record ? (record.retryable ?? null) : undefined;
      checks.push(
        makeCheck(
          `results.${id}.retryable`,
          observed === expected.retryable,
          expected.retryable,
          observed,
          record ? undefined : missing,
        ),
      );
    }
    if (expected.includes !== undefined) {
      const text = record ? searchableText(record.content).toLowerCase() : '';
      const absent = expected.includes.filter((s) => !record || !text.includes(s.toLowerCase()));
      const reason = !record
        ? missing
        : absent.length === 0
          ? 'every substring present'
          : `missing ${show(absent)} in ${show(record.content, 500)}`;
      checks.push(
        makeCheck(
          `results.${id}.includes`,
          !!record && absent.length === 0,
          expected.includes,
          record ? { content: record.content, missing: absent } : undefined,
          reason,
        ),
      );
    }
  }
  return checks;
}

/** `permissions`: per call id, the verdict (`allow`, `ask:approved`, `ask:denied`, `deny`, `none`). */
export function checkPermissions(want: Expectations['permissions'], { run }: ExpectContext): Check[] {
  const byId = recordsById(run);
  return Object.entries(want ?? {}).map(([id, verdict]) => {
    const record = byId.get(id);
    const rule = record?.policy ? ` (rule ${record.policy.rule}: ${record.policy.reason})` : '';
    return makeCheck(
      `permissions.${id}`,
      record?.verdict === verdict,
      verdict,
      record?.verdict,
      !record
        ? `call ${id} not found`
        : record.verdict === verdict
          ? `call ${id}: ${verdict}`
          : `call ${id}: expected ${verdict}, observed ${record.verdict}${rule}`,
    );
  });
}
