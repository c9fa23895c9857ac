import { describe, expect, it } from 'vitest';
import { event, fixtureRun, golden } from './fixtures.test-helpers.ts';

const events = [
  event('approval_decision', {
    seq: 1,
    callId: 'c1',
    approved: true,
    by: 'approver',
    grant: 'bash:npm test*',
  }),
  event('approval_decision', { seq: 2, callId: 'c2', approved: true, by: 'grant', grant: 'bash:npm test*' }),
  event('approval_decision', { seq: 3, callId: 'c3', approved: false, by: 'approver' }),
];
const run = fixtureRun({ events });

describe('grants', () => {
  it('given and usedBy are exact sets', async () => {
    expect(await golden('grants', { given: ['bash:npm test*'], usedBy: ['c2'] }, run)).toEqual([
      { name: 'grants.given', pass: true, reason: 'grants given: exactly ["bash:npm test*"]' },
      {
        name: 'grants.usedBy',
        pass: true,
        reason: 'calls approved by a grant: exactly ["c2"] (c2 by bash:npm test*)',
      },
    ]);
  });

  it('a grant too wide, or one never used, is named', async () => {
    expect(await golden('grants', { given: ['bash:npm test -- *'], usedBy: ['c2', 'c3'] }, run)).toEqual([
      {
        name: 'grants.given',
        pass: false,
        reason:
          'grants given: expected exactly ["bash:npm test -- *"], observed ["bash:npm test*"]; missing: bash:npm test -- *; unexpected: bash:npm test*',
      },
      {
        name: 'grants.usedBy',
        pass: false,
        reason:
          'calls approved by a grant: expected exactly ["c2","c3"], observed ["c2"]; missing: c3 (c2 by bash:npm test*)',
      },
    ]);
    expect(await golden('grants', { given: [], usedBy: [] }, fixtureRun())).toEqual([
      { name: 'grants.given', pass: true, reason: 'grants given: exactly []' },
      { name: 'grants.usedBy', pass: true, reason: 'calls approved by a grant: exactly []' },
    ]);
  });
});
