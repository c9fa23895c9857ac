import { describe, expect, it } from 'vitest';
import { InputError } from '../eval/errors.ts';
import { SessionError } from '../harness/memory/session-store.ts';
import { ModelError } from '../harness/model/types.ts';
import { SandboxUnavailableError } from '../harness/sandbox/types.ts';
import { EXIT_CODES, reportError } from './errors.ts';
import type { CliIo } from './io.ts';

function capture(error: unknown): { code: number; err: string } {
  let err = '';
  const io: CliIo = { stdout: () => {}, stderr: (t) => (err += t), cwd: '/', env: {}, isTTY: false };
  return { code: reportError(error, io), err };
}

describe('the CLI maps an error that reaches the top to an exit code by its fault', () => {
  it('bad input is 2 and names the file, the path and the reason', () => {
    const { code, err } = capture(
      new InputError([{ file: 's.json', path: '/task', reason: 'must be string' }]),
    );
    expect(code).toBe(2);
    expect(err).toContain('s.json: /task: must be string');
    expect(capture(new SessionError('no session named "nope"'))).toEqual({
      code: 2,
      err: 'harness-bench: invalid input [SESSION]: no session named "nope"\n',
    });
  });

  it('an internal error is 3 with the trace; the environment is 4 with the fix; the model is 1', () => {
    const internal = capture(new TypeError('cannot read properties of undefined'));
    expect(internal.code).toBe(EXIT_CODES.internal);
    expect(internal.code).toBe(3);
    expect(internal.err).toMatch(/internal error .*\n.*TypeError: cannot read properties of undefined/);
    const env = capture(
      new SandboxUnavailableError('bubblewrap is not installed', 'apt-get install -y bubblewrap'),
    );
    expect(env.code).toBe(4);
    expect(env.err).toContain('fix: apt-get install -y bubblewrap');
    expect(capture(new ModelError('invalid_response', 'no choices')).code).toBe(1);
  });
});
