import { describe, expect, it } from 'vitest';
import { faultOf, HarnessBenchError } from './errors.ts';
import { SessionError } from './memory/session-store.ts';
import { ModelError } from './model/types.ts';
import { SandboxUnavailableError } from './sandbox/types.ts';
import { UnknownBuiltinToolError } from './tools/builtin/index.ts';
import { ToolRegistryError } from './tools/registry.ts';

describe('one error hierarchy', () => {
  it('toJSON gives code, fault, message and data', () => {
    const error = new HarnessBenchError('SOME_CODE', 'environment', 'disk full', { path: '/x' });
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      code: 'SOME_CODE',
      fault: 'environment',
      message: 'disk full',
      data: { path: '/x' },
    });
    expect(error).toBeInstanceOf(Error);
  });

  it('every error class of the harness extends it and says whose fault it is', () => {
    const cases: [HarnessBenchError, string, string][] = [
      [
        new SandboxUnavailableError('no bwrap', 'apt-get install -y bubblewrap'),
        'SANDBOX_UNAVAILABLE',
        'environment',
      ],
      [new UnknownBuiltinToolError('read_fiel'), 'UNKNOWN_TOOL', 'user_input'],
      [new ToolRegistryError('two tools are named x'), 'TOOL_REGISTRY', 'user_input'],
      [new SessionError('no session named x'), 'SESSION', 'user_input'],
      [new ModelError('invalid_response', 'no choices'), 'invalid_response', 'model'],
    ];
    for (const [error, code, fault] of cases) {
      expect(error).toBeInstanceOf(HarnessBenchError);
      expect(error.toJSON()).toMatchObject({ code, fault, message: error.message });
      expect(faultOf(error)).toBe(fault);
    }
    expect(new SandboxUnavailableError('m', 'h').toJSON().data).toEqual({ hint: 'h' });
  });

  it('a model error is the environment, the user or the model depending on what failed', () => {
    const fault = (code: ConstructorParameters<typeof ModelError>[0], status?: number) =>
      new ModelError(code, 'm', status === undefined ? {} : { status }).fault;
    expect(fault('network_error')).toBe('environment');
    expect(fault('http_error', 429)).toBe('environment');
    expect(fault('http_error', 503)).toBe('environment');
    expect(fault('http_error', 401)).toBe('user_input');
    expect(fault('http_error', 404)).toBe('user_input');
    expect(fault('http_error', 400)).toBe('model');
    expect(fault('script_exhausted')).toBe('model');
    expect(fault('recording_mismatch')).toBe('model');
  });

  it('anything else thrown is our bug, except a system error of the disk or the network', () => {
    expect(faultOf(new TypeError('x is undefined'))).toBe('harness');
    expect(faultOf('a string')).toBe('harness');
    expect(faultOf(undefined)).toBe('harness');
    const disk = Object.assign(new Error('ENOSPC: no space left on device'), {
      code: 'ENOSPC',
      syscall: 'write',
    });
    expect(faultOf(disk)).toBe('environment');
    expect(faultOf(Object.assign(new Error('x'), { code: 'ENOSPC' }))).toBe('harness');
  });
});
