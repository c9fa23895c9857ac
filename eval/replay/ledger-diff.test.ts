import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, mergeConfig } from '../../harness/config.ts';
import type { CallRecord, Ledger, TurnRecord } from '../../harness/ledger.ts';
import { diffConfigs, formatConfigChange } from './config-diff.ts';
import { compareLedgers, formatLedgerDifference, mergeLedgers, ruleConfigKeys } from './ledger-diff.ts';

const turn = (n: number, extra: Partial<TurnRecord> = {}): TurnRecord => ({
  turn: n,
  scope: [],
  wrapUp: false,
  ok: true,
  finishReason: 'tool_calls',
  toolCalls: 1,
  promptTokens: 10,
  completionTokens: 2,
  costUsd: 0,
  ...extra,
});
const call = (id: string, n: number, extra: Partial<CallRecord> = {}): CallRecord => ({
  callId: id,
  turn: n,
  scope: [],
  tool: 'write_file',
  arguments: '{"path":"a"}',
  normalisations: [],
  verdict: 'allow',
  policy: { action: 'allow', rule: 'effects:write', reason: 'r', parts: [] },
  executed: true,
  ok: true,
  content: 'done',
  ...extra,
});
const ledger = (
  turns: TurnRecord[],
  calls: CallRecord[],
  stopReason: Ledger['stopReason'] = 'final_answer',
): Ledger => ({ turns, calls, stopReason });

describe('diffConfigs', () => {
  it('lists changed leaf keys (arrays whole), ignores the model block, and a hash gives nothing', () => {
    const a = mergeConfig(DEFAULT_CONFIG, { model: { name: 'x' } });
    const b = mergeConfig(DEFAULT_CONFIG, {
      permissions: { effects: { write: 'allow' }, bash: [] },
      model: { name: 'y' },
    });
    const changes = diffConfigs(a, b);
    expect(changes.map((c) => c.key)).toEqual(['permissions.bash', 'permissions.effects.write']);
    expect(formatConfigChange(changes[1]!)).toBe('permissions.effects.write "ask" → "allow"');
    expect(diffConfigs('sha256:abc', b)).toEqual([]);
    expect(diffConfigs(a, a)).toEqual([]);
  });
});

describe('compareLedgers', () => {
  const recorded = ledger([turn(1), turn(2, { finishReason: 'stop', toolCalls: 0 })], [call('c1', 1)]);

  it('equal ledgers have no difference', () => {
    expect(compareLedgers(recorded, structuredClone(recorded))).toEqual([]);
  });

  it('a changed verdict is one step with every changed field and the key that explains it', () => {
    const config = diffConfigs(
      DEFAULT_CONFIG,
      mergeConfig(DEFAULT_CONFIG, { permissions: { effects: { write: 'deny' } }, limits: { maxTurns: 3 } }),
    );
    const replayed = ledger(recorded.turns, [
      call('c1', 1, {
        verdict: 'deny',
        policy: { action: 'deny', rule: 'effects:write', reason: 'r', parts: [] },
        executed: false,
        ok: false,
        errorType: 'policy_violation',
        content: 'denied',
      }),
    ]);
    const [first, ...rest] = compareLedgers(recorded, replayed, config);
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ step: 'turn 1, call c1 write_file', turn: 1, callId: 'c1' });
    expect(first!.changes.map((c) => c.field)).toEqual(['verdict', 'executed', 'ok', 'errorType', 'content']);
    expect(first!.cause).toBe('configuration permissions.effects.write "ask" → "deny"');
    expect(formatLedgerDifference(first!)).toMatch(
      /^turn 1, call c1 write_file: verdict "allow" → "deny"; executed true → false;.* \[cause: configuration permissions\.effects\.write/,
    );
  });

  it('names a rule change, and says when no configuration key changed', () => {
    const replayed = ledger(recorded.turns, [
      call('c1', 1, {
        verdict: 'deny',
        policy: { action: 'deny', rule: 'bash:rm *', reason: 'r', parts: [] },
      }),
    ]);
    const [first] = compareLedgers(recorded, replayed, []);
    expect(first!.cause).toBe(
      'rule effects:write → bash:rm *; no configuration key changed (the harness itself decides differently)',
    );
    expect(ruleConfigKeys('paths:write:src/**')).toEqual(['permissions.paths']);
  });

  it('reports missing calls, extra turns and a changed stop reason in run order', () => {
    const replayed = ledger(
      [turn(1), turn(2), turn(3, { finishReason: 'stop', toolCalls: 0 })],
      [call('c1', 1), call('c2', 2)],
      'max_turns',
    );
    const steps = compareLedgers(recorded, replayed).map(
      (d) => `${d.step}: ${d.changes.map((c) => c.field).join(',')}`,
    );
    expect(steps).toEqual([
      'turn 2: finishReason,toolCalls',
      'turn 2, call c2 write_file: call',
      'turn 3: turn',
      'stop: stopReason',
    ]);
  });
});

describe('mergeLedgers', () => {
  it("numbers the turns of later runs after the earlier ones; the stop is the last run's", () => {
    const merged = mergeLedgers([
      ledger([turn(1), turn(2)], [call('a', 2)]),
      ledger([turn(1)], [call('b', 1)], 'human_cancelled'),
    ]);
    expect(merged.turns.map((t) => t.turn)).toEqual([1, 2, 3]);
    expect(merged.calls.map((c) => [c.callId, c.turn])).toEqual([
      ['a', 2],
      ['b', 3],
    ]);
    expect(merged.stopReason).toBe('human_cancelled');
  });
});
