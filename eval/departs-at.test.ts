/**
 * `departsAt` in a cassette's expectations: under the named configuration the replay departs
 * from the recording by design at that call (permissive allows the write the recording's harness
 * asked about and the user declined), so the exact-replay checks become `replay.departsAt`,
 * which fails when the first difference is another call's or there is none.
 */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, PACKAGE_ROOT } from './config-load.ts';
import { InputError } from './errors.ts';
import { loadCassettes, runSuite } from './suite.ts';

const NAME = 'stub-read-then-write-asked';
const SOURCE = path.join(PACKAGE_ROOT, 'recordings/examples');

/** A copy of the example cassette whose sidecar has `departsAt` replaced. */
function copyWith(departsAt: Record<string, string> | undefined): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'hb-departs-'));
  copyFileSync(path.join(SOURCE, `${NAME}.json`), path.join(dir, `${NAME}.json`));
  const sidecar = JSON.parse(readFileSync(path.join(SOURCE, `${NAME}.expect.json`), 'utf8'));
  if (departsAt) sidecar.departsAt = departsAt;
  else delete sidecar.departsAt;
  writeFileSync(path.join(dir, `${NAME}.expect.json`), JSON.stringify(sidecar));
  return dir;
}

async function run(dir: string, config: string) {
  const results = await runSuite({
    configs: [loadConfig(path.join(PACKAGE_ROOT, `configs/${config}.json`))],
    scenarios: [],
    recordings: await loadCassettes([dir], dir),
    version: '0.0.0-test',
  });
  return results.cases[0]!;
}

describe('departsAt', () => {
  it('under permissive the replay departs at the declined write, as the sidecar says: a pass', async () => {
    const c = await run(copyWith({ permissive: 'call_sum1' }), 'permissive');
    expect(c.status).toBe('pass');
    expect(c.checks.map((k) => k.name)).toContain('replay.departsAt');
    expect(c.checks.map((k) => k.name)).not.toContain('replay.ledger');
  });

  it('fails when the first difference is another call, and without departsAt the exact checks fail', async () => {
    const elsewhere = await run(copyWith({ permissive: 'call_notes1' }), 'permissive');
    expect(elsewhere.status).toBe('fail');
    expect(elsewhere.firstFailure).toMatch(/^replay\.departsAt: the first decision that differs .*call_sum1/);
    const exact = await run(copyWith(undefined), 'permissive');
    expect(exact.status).toBe('fail');
    expect(exact.firstFailure).toMatch(/^replay\.ledger/);
  });

  it('fails under a configuration that follows the recording (no departure where one is declared)', async () => {
    const c = await run(copyWith({ default: 'call_sum1' }), 'default');
    expect(c.status).toBe('fail');
    expect(c.firstFailure).toMatch(
      /every decision matches the recording; expected the replay to depart at call_sum1/,
    );
  });

  it('names a call the recording does not have', async () => {
    const dir = copyWith({ permissive: 'call_nope' });
    const error = await loadCassettes([dir], dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).problems.map((p) => `${p.path}: ${p.reason}`)).toEqual([
      '/departsAt/permissive: no call with id "call_nope" in the recording; is it a typo?',
    ]);
  });
});
