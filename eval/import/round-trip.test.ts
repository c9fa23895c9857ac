import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCassette } from '../cassette/load.ts';
import { REAL_DIR } from './import-real.ts';
import { roundTripCheck } from './round-trip.ts';

const FILE = join(REAL_DIR, 'mistral-large-tool-any-loop.json');

describe('the import round trip of a real recording', () => {
  it('passes for the committed cassette', () => {
    expect(roundTripCheck(loadCassette(FILE), FILE)).toMatchObject({ name: 'import.roundTrip', pass: true });
  });

  it('fails, naming the first difference, when the cassette is not what the importer makes', () => {
    const cassette = loadCassette(FILE);
    cassette.exchanges[0]!.response.status = 599;
    const check = roundTripCheck(cassette, FILE)!;
    expect(check.pass).toBe(false);
    expect(check.reason).toMatch(/\/exchanges\/0\/response\/status: committed 599, now 200/);
  });

  it('does not apply to a cassette outside recordings/real', () => {
    expect(roundTripCheck(loadCassette(FILE), '/tmp/elsewhere/x.json')).toBeUndefined();
  });
});
