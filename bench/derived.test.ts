import { describe, expect, it } from 'vitest';
import { derivedFieldsCost } from './derived.ts';

describe('derivedFieldsCost', () => {
  it('times the ledger and provenance of one run, per step of the run', async () => {
    const row = await derivedFieldsCost(5, 20);
    expect(row.steps).toBe(5);
    expect(row.usPerStep).toBeGreaterThan(0);
  });
});
