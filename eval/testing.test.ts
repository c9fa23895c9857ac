import { describe, expect, it } from 'vitest';
// The public testing entry, imported by its package name as a user's suite would.
import { ScriptedModel, runScenario, type Scenario } from 'harness-bench/testing';

const scenario: Scenario = {
  id: 'testing-api/inline',
  task: 'Read a.txt',
  tools: ['read_file'],
  workspace: { files: { 'a.txt': 'alpha\n' } },
  model: [
    { tool_calls: [{ id: 'c1', name: 'read_file', arguments: { path: 'a.txt' } }] },
    { content: 'alpha' },
  ],
  expect: {
    stopReason: 'final_answer',
    executed: ['c1'],
    results: { c1: { ok: true, includes: ['alpha'] } },
  },
};

describe('harness-bench/testing', () => {
  it('runScenario runs an inline scenario and returns the case result and the raw run', async () => {
    const { result, run } = await runScenario(scenario);
    expect(result.status).toBe('pass');
    expect(run?.ledger.calls.map((c) => c.callId)).toEqual(['c1']);
  });

  it('runScenario reports a failed expectation with the observed value', async () => {
    const { result } = await runScenario({
      ...scenario,
      expect: { ...scenario.expect, stopReason: 'max_turns' },
    });
    expect(result.status).toBe('fail');
    expect(result.firstFailure).toBe('stopReason: expected max_turns, observed final_answer');
  });

  it('runScenario loads a scenario file by path', async () => {
    const { result } = await runScenario('scenarios/bad-json/missing-colon.json');
    expect(result.status).toBe('pass');
  });

  it('runScenario runs a scenario against a foreign harness and scores it as a black box', async () => {
    const { result } = await runScenario('scenarios/bad-json/missing-colon.json', {
      harness: 'minimal-loop',
    });
    expect(result.harness?.name).toBe('minimal-loop');
    expect(result.status).toBe('pass');
    expect(result.checks.some((c) => c.status === 'not_applicable')).toBe(true);
    const { result: ours } = await runScenario('scenarios/bad-json/missing-colon.json', { harness: 'ours' });
    expect(ours.harness).toBeUndefined();
  });

  it('ScriptedModel is exported for hand-written harness tests', async () => {
    const model = new ScriptedModel([{ content: 'hi' }]);
    const response = await model.generate({ model: 'm', messages: [] });
    expect(response.content).toBe('hi');
    await expect(model.generate({ model: 'm', messages: [] })).rejects.toMatchObject({
      code: 'script_exhausted',
    });
  });
});
