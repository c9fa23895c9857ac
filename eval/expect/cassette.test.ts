import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, PACKAGE_ROOT } from '../config-load.ts';
import { InputError } from '../errors.ts';
import { loadCassettes, runCase } from '../suite.ts';

const EXAMPLE = path.join(PACKAGE_ROOT, 'recordings/examples/stub-read-then-write-asked.json');
const dir = mkdtempSync(path.join(tmpdir(), 'hb-cassette-expect-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
copyFileSync(EXAMPLE, path.join(dir, 'rec.json'));
const sidecar = (block: unknown) => writeFileSync(path.join(dir, 'rec.expect.json'), JSON.stringify(block));
const problemsOf = async () => {
  try {
    await loadCassettes(['rec.json'], dir);
    return [];
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return error.problems.map((p) => `${p.file} ${p.path}: ${p.reason}`);
  }
};
const config = loadConfig();
const replay = async () => {
  const [recording] = await loadCassettes(['rec.json'], dir);
  return runCase({ kind: 'recording', id: 'recording/x', recording: recording!, config });
};

describe('cassette expectations', () => {
  it('a sidecar is checked after the replay, with the registry; a failed expectation fails the case', async () => {
    sidecar({ expect: { stopReason: 'final_answer', permissions: { call_sum1: 'ask:denied' } } });
    const ok = await replay();
    expect(ok.status).toBe('pass');
    expect(ok.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining(['replay.ledger', 'stopReason', 'permissions.call_sum1', 'transcript']),
    );
    sidecar({
      expect: { stopReason: 'final_answer', permissions: { call_sum1: 'ask:approved' }, claims: ['done'] },
    });
    const bad = await replay();
    expect([bad.status, bad.firstFailure]).toEqual([
      'fail',
      expect.stringMatching(
        /^permissions\.call_sum1: call call_sum1: expected ask:approved, observed ask:denied/,
      ),
    ]);
    expect(bad.checks.find((c) => c.name === 'claims.supported')).toMatchObject({ pass: false });
  });

  it('the sidecar is never picked up as a cassette', async () => {
    sidecar({ expect: { stopReason: 'final_answer' } });
    expect((await loadCassettes([dir], dir)).map((r) => r.file)).toEqual(['rec.json']);
  });

  it('bad blocks are bad input: schema, call ids the recording never made, files a replay cannot see', async () => {
    sidecar({
      expect: {
        stopReason: 'final_answer',
        executed: ['call_ghost'],
        evidence: [{ file: 'summary.txt', exists: false }],
        finalAnswer: { matches: ['('] },
        permisions: {},
      },
    });
    expect(await problemsOf()).toEqual([
      'rec.expect.json /expect/permisions: unknown key "permisions" (did you mean "permissions"?)',
      'rec.expect.json /expect/finalAnswer/matches/0: not a valid regular expression: Invalid regular expression: /(/: Unterminated group',
      'rec.expect.json /expect/evidence: a replay’s workspace is gone when cassette expectations run: check requests, events, calls or claims instead',
      'rec.expect.json /expect/executed/0: no call with id "call_ghost" in the recording; is it a typo?',
    ]);
  });

  it('a block inside the cassette works the same (the sidecar wins when both exist)', async () => {
    rmSync(path.join(dir, 'rec.expect.json'));
    const cassette = JSON.parse(readFileSync(EXAMPLE, 'utf8'));
    writeFileSync(
      path.join(dir, 'rec.json'),
      JSON.stringify({ ...cassette, expect: { stopReason: 'max_turns' } }),
    );
    const result = await replay();
    expect([result.status, result.firstFailure]).toEqual([
      'fail',
      'stopReason: expected max_turns, observed final_answer',
    ]);
  });
});
