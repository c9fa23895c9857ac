/**
 * The matchers of `harness-bench/testing`: their failure messages list every failed check with
 * what was expected, what was observed and why; `.not` works; anything else is refused.
 */
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from './config-load.ts';
import { replayCassette, runScenario, type Scenario } from './testing.ts';

const EXAMPLE = 'recordings/examples/stub-read-then-write-asked.json';

const scenario: Scenario = {
  id: 'matchers/read-then-answer',
  task: 'What does a.txt say?',
  tools: ['read_file'],
  workspace: { files: { 'a.txt': 'hello\n' } },
  model: [
    { tool_calls: [{ id: 'call_1', name: 'read_file', arguments: '{"path":"a.txt"}' }] },
    { content: 'It says hello.' },
  ],
  expect: { stopReason: 'final_answer', executed: ['call_1'] },
};

/** The message of a failed assertion. */
function failure(assertion: () => void): string {
  try {
    assertion();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the assertion did not fail');
}

describe('toPassScenario', () => {
  it('passes a passing run (and its .result), and .not says every check passed', async () => {
    const run = await runScenario(scenario);
    expect(run).toPassScenario();
    expect(run.result).toPassScenario();
    expect(failure(() => expect(run).not.toPassScenario())).toMatch(
      /expected matchers\/read-then-answer \(under default\) not to pass, but all \d+ checks passed/,
    );
  });

  it('fails listing every failed check: name, expected, observed and reason', async () => {
    const run = await runScenario({
      ...scenario,
      expect: { stopReason: 'max_turns', executed: ['call_1'], modelCalls: 5 },
    });
    const message = failure(() => expect(run).toPassScenario());
    expect(message).toMatch(
      /^expected matchers\/read-then-answer \(under default\) to pass; it is fail, 2 of \d+ checks failed:/,
    );
    expect(message).toContain(
      [
        '  ✗ stopReason',
        '      expected: "max_turns"',
        '      observed: "final_answer"',
        '      reason:   expected max_turns, observed final_answer',
      ].join('\n'),
    );
    expect(message).toMatch(/ {2}✗ modelCalls\n {6}expected: 5\n {6}observed: 2\n {6}reason: {3}.+/);
  });

  it('refuses what is not a run', () => {
    expect(failure(() => expect({ status: 'pass' }).toPassScenario())).toMatch(
      /toPassScenario expects what runScenario\(\) or replayCassette\(\)/,
    );
  });
});

describe('toReplayClean', () => {
  it('passes a clean replay', async () => {
    expect(await replayCassette(EXAMPLE, { cwd: PACKAGE_ROOT })).toReplayClean();
  });

  it('fails naming the first divergence, every failed check and every request that differs', async () => {
    const replay = await replayCassette(EXAMPLE, { cwd: PACKAGE_ROOT, config: 'configs/permissive.json' });
    const message = failure(() => expect(replay).toReplayClean());
    expect(message).toMatch(
      /^expected recording\/stub-read-then-write-asked \(under permissive\) to replay clean; it is fail:/,
    );
    expect(message).toMatch(/ {2}✗ replay\.ledger\n {6}expected: .+\n {6}observed: .+/);
    expect(message).toMatch(
      / {2}first divergence: turn 2, call call_sum1 write_file: verdict "ask:denied" → "allow"/,
    );
  });

  it('an imported cassette whose requests differ is not clean, although its replay passes', async () => {
    const clean = await replayCassette('recordings/real/openai-gpt5mini-tool-auto-loop.json', {
      cwd: PACKAGE_ROOT,
    });
    expect(clean).toReplayClean();
    const replay = await replayCassette('recordings/real/groq-gptoss120b-tool-use-failed.json', {
      cwd: PACKAGE_ROOT,
    });
    expect(replay.passed).toBe(true);
    const message = failure(() => expect(replay).toReplayClean());
    expect(message).toMatch(/to replay clean; it is pass:\n {2}first divergence: request 1: /);
    expect(replay.result.divergences.length).toBeGreaterThan(0);
    expect(message.match(/^ {2}request \d+ differs at \//gm)).toHaveLength(replay.result.divergences.length);
  });
});
