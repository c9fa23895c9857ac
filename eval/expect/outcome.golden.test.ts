import { describe, expect, it } from 'vitest';
import { bash, call, fixtureRun, golden } from './fixtures.test-helpers.ts';

describe('finalAnswer', () => {
  const run = fixtureRun({ finalAnswer: 'Fixed sum(); all 12 tests pass.' });

  it('matches: every regular expression matches', async () => {
    expect(await golden('finalAnswer', { matches: ['/ALL \\d+ TESTS/i', 'sum\\(\\)'] }, run)).toEqual([
      { name: 'finalAnswer.matches', pass: true, reason: 'every pattern matches the final answer' },
    ]);
    expect(await golden('finalAnswer', { matches: ['^Done'] }, run)).toEqual([
      {
        name: 'finalAnswer.matches',
        pass: false,
        reason: 'final answer "Fixed sum(); all 12 tests pass." does not match "^Done"',
      },
    ]);
  });

  it('excludes: no regular expression matches, and the reason quotes what did', async () => {
    expect(await golden('finalAnswer', { excludes: ['/error|fail/i'] }, run)).toEqual([
      { name: 'finalAnswer.excludes', pass: true, reason: 'no excluded pattern matches the final answer' },
    ]);
    expect(await golden('finalAnswer', { excludes: ['\\d+ tests'] }, run)).toEqual([
      {
        name: 'finalAnswer.excludes',
        pass: false,
        reason:
          'final answer "Fixed sum(); all 12 tests pass." matches excluded "\\\\d+ tests" (matched "12 tests")',
      },
    ]);
  });

  it('a missing answer matches no pattern and excludes every one', async () => {
    const none = fixtureRun({ finalAnswer: null, stopReason: 'max_turns' });
    expect(await golden('finalAnswer', { matches: ['.*'], excludes: ['.*'] }, none)).toEqual([
      {
        name: 'finalAnswer.matches',
        pass: false,
        reason: 'there is no final answer (the run stopped with max_turns), so nothing matches ".*"',
      },
      { name: 'finalAnswer.excludes', pass: true, reason: 'no excluded pattern matches the final answer' },
    ]);
  });
});

describe('calledBefore', () => {
  const calls = [
    call('c1'),
    bash('c2', 'cd app && npm test -- --run', 0, {
      policy: {
        action: 'allow',
        rule: 'bash:npm test*',
        reason: 'allowed',
        parts: [
          { subject: 'cd app', kind: 'command', action: 'allow', rule: 'bash:cd *' },
          { subject: 'npm test -- --run', kind: 'command', action: 'allow', rule: 'bash:npm test*' },
        ],
      },
    }),
    bash('c3', 'pytest -q', 1),
    call('c4', {
      tool: 'write_file',
      arguments: '{"path":"b.txt","content":"x"}',
      executed: false,
      ok: false,
      verdict: 'ask:denied',
      errorType: 'approval_denied',
    }),
  ];
  const run = fixtureRun({ ledger: { turns: [], calls, stopReason: 'final_answer' } });

  it('a command pattern matches a simple command of a compound one', async () => {
    expect(await golden('calledBefore', [{ command: 'npm test*' }], run)).toEqual([
      { name: 'calledBefore.0', pass: true, reason: 'c2 matched command "npm test*" and succeeded' },
    ]);
  });

  it('a command that exited non-zero did not succeed', async () => {
    expect(await golden('calledBefore', [{ command: 'pytest*' }], run)).toEqual([
      {
        name: 'calledBefore.0',
        pass: false,
        reason: 'calls matched command "pytest*" but none was executed and succeeded: c3 exited with 1',
      },
    ]);
    expect((await golden('calledBefore', [{ command: 'pytest*', ok: false }], run))[0]!.pass).toBe(true);
  });

  it('tool and argument subset; a call that was not executed does not count', async () => {
    expect(await golden('calledBefore', [{ tool: 'read_file', args: { path: 'a.txt' } }], run)).toEqual([
      {
        name: 'calledBefore.0',
        pass: true,
        reason: 'c1 matched tool read_file, arguments {"path":"a.txt"} and succeeded',
      },
    ]);
    expect(await golden('calledBefore', [{ tool: 'write_file', args: { path: 'b.txt' } }], run)).toEqual([
      {
        name: 'calledBefore.0',
        pass: false,
        reason:
          'calls matched tool write_file, arguments {"path":"b.txt"} but none was executed and succeeded: c4 not executed (ask:denied, approval_denied)',
      },
    ]);
    expect(await golden('calledBefore', [{ tool: 'search_code' }], run)).toEqual([
      {
        name: 'calledBefore.0',
        pass: false,
        reason:
          'no call matched tool search_code; calls: ["c1 read_file","c2 bash","c3 bash","c4 write_file"]',
      },
    ]);
  });

  it('without a final answer nothing came before it', async () => {
    const stopped = fixtureRun({ stopReason: 'max_turns', finalAnswer: null, ledger: run.ledger });
    expect(await golden('calledBefore', [{ command: 'npm test*' }], stopped)).toEqual([
      {
        name: 'calledBefore.0',
        pass: false,
        reason:
          'the run stopped with max_turns, so no call came before a final answer (wanted command "npm test*")',
      },
    ]);
  });
});
