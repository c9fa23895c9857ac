import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BwrapSandbox } from '../../sandbox/bwrap.ts';
import { createSandbox } from '../../sandbox/factory.ts';
import { LocalSandbox } from '../../sandbox/local.ts';
import {
  SandboxUnavailableError,
  type ExecOptions,
  type ExecResult,
  type Sandbox,
} from '../../sandbox/types.ts';
import { ToolRegistry } from '../registry.ts';
import type { ToolDefinition } from '../types.ts';
import {
  BASH_DEFAULT_TIMEOUT_S,
  BASH_HEAD_CHARS,
  BASH_TAIL_CHARS,
  bashTool,
  headTail,
  shapeCommandOutput,
} from './bash.ts';
import { outputText, runTool } from './builtin.test-helpers.ts';

let ws: string;
beforeEach(() => {
  ws = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-bash-')));
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

/** A sandbox whose exec answers from a script and records every call. */
function fakeSandbox(
  answer: (command: string, options: ExecOptions) => Promise<ExecResult>,
): Sandbox & { calls: { command: string; options: ExecOptions }[] } {
  const calls: { command: string; options: ExecOptions }[] = [];
  const files = new LocalSandbox({ allowExec: false });
  return Object.assign(Object.create(files) as Sandbox, {
    kind: 'fake',
    calls,
    exec: (command: string, options: ExecOptions) => {
      calls.push({ command, options });
      return answer(command, options);
    },
  });
}

describe('headTail', () => {
  it('leaves text within head + tail alone', () => {
    const text = 'x'.repeat(BASH_HEAD_CHARS + BASH_TAIL_CHARS);
    expect(headTail(text)).toBe(text);
  });

  it('keeps the head and the tail and marks what was elided, in characters and lines', () => {
    const text = `${'a'.repeat(10)}${'\n'.repeat(3)}${'b'.repeat(10)}`;
    expect(headTail(text, 5, 5)).toBe(
      'aaaaa\n[… 13 characters (3 lines) elided; redirect the output to a file and page through it with read_file or search_code …]\nbbbbb',
    );
  });
});

describe('shapeCommandOutput', () => {
  it('gives the exit code, then stdout and stderr', () => {
    expect(shapeCommandOutput({ exitCode: 2, stdout: 'out\n', stderr: 'err\n' })).toBe(
      'exit code: 2\nstdout:\nout\n\nstderr:\nerr\n',
    );
  });

  it('says when there was no output and when a signal killed the command', () => {
    expect(shapeCommandOutput({ exitCode: 0, stdout: '', stderr: '' })).toBe('exit code: 0\n(no output)');
    expect(shapeCommandOutput({ exitCode: null, stdout: '', stderr: 'x' })).toBe(
      'exit code: none (killed by a signal)\nstderr:\nx',
    );
  });

  it('shapes each stream on its own: a flood of stdout does not hide the end of stderr', () => {
    const shaped = shapeCommandOutput({
      exitCode: 1,
      stdout: `${'o'.repeat(50_000)}LAST-OUT`,
      stderr: `FIRST-ERR${'e'.repeat(50_000)}LAST-ERR`,
    });
    expect(shaped.length).toBeLessThan(2 * (BASH_HEAD_CHARS + BASH_TAIL_CHARS) + 500);
    for (const part of ['LAST-OUT', 'FIRST-ERR', 'LAST-ERR', 'characters (0 lines) elided'])
      expect(shaped).toContain(part);
  });
});

describe('bash tool', () => {
  it('shows its command to the policy and is a write by default', () => {
    expect(bashTool.command?.({ command: 'ls -la' })).toBe('ls -la');
    expect(bashTool.effect).toBe('write');
  });

  it('validates its arguments: command required and non-empty, timeout_s an integer of 1..600', () => {
    const registry = new ToolRegistry([bashTool as unknown as ToolDefinition]);
    const validate = registry.get('bash')!.validate;
    expect(validate({ command: 'ls' })).toBe(true);
    expect(validate({ command: 'ls', timeout_s: 600 })).toBe(true);
    for (const bad of [
      {},
      { command: '' },
      { command: 'ls', timeout_s: 0 },
      { command: 'ls', timeout_s: 601 },
      { command: 'ls', timeout_s: 1.5 },
      { command: 'ls', extra: 1 },
    ])
      expect(validate(bad)).toBe(false);
  });

  it('runs in the workspace root with the default timeout and returns the shaped output, ok even for a non-zero exit', async () => {
    const sandbox = fakeSandbox(async () => ({
      exitCode: 1,
      stdout: '',
      stderr: 'no match\n',
      timedOut: false,
    }));
    const out = await runTool(bashTool, { command: 'grep x y' }, ws, { sandbox });
    expect(out).toEqual({
      ok: true,
      content: 'exit code: 1\nstderr:\nno match\n',
      details: { exitCode: 1, stdoutChars: 0, stderrChars: 9, timedOut: false },
      // grep reads files: its output is content this run did not write (taint.untrustedFiles).
      untrusted: 'bash',
    });
    expect(sandbox.calls).toHaveLength(1);
    expect(sandbox.calls[0]!.options).toMatchObject({ cwd: ws, timeoutMs: BASH_DEFAULT_TIMEOUT_S * 1000 });
  });

  it('a timeout is a timeout error with the output so far, and the command is not run again', async () => {
    const sandbox = fakeSandbox(async () => ({
      exitCode: null,
      stdout: 'partial\n',
      stderr: '',
      timedOut: true,
    }));
    const out = await runTool(bashTool, { command: 'sleep 99', timeout_s: 2 }, ws, { sandbox });
    expect(out.ok).toBe(false);
    expect(outputText(out)).toBe(
      'ERROR timeout: the command ran longer than 2 s and was killed with every process it started. Output so far:\nexit code: none (killed by a signal)\nstdout:\npartial\n',
    );
    expect(sandbox.calls).toHaveLength(1);
    expect(sandbox.calls[0]!.options.timeoutMs).toBe(2000);
  });

  it('a missing sandbox is sandbox_unavailable with the hint, and nothing ran', async () => {
    const sandbox = fakeSandbox(async () => {
      throw new SandboxUnavailableError('bubblewrap is not installed', 'apt-get install -y bubblewrap');
    });
    const out = await runTool(bashTool, { command: 'touch x' }, ws, { sandbox });
    expect(outputText(out)).toBe(
      'ERROR sandbox_unavailable: bubblewrap is not installed; the command was not run. apt-get install -y bubblewrap',
    );
  });

  it('any other failure to start is tool_failed, not retried', async () => {
    const sandbox = fakeSandbox(async () => {
      throw Object.assign(new Error('spawn bwrap EACCES'), { code: 'EACCES' });
    });
    const out = await runTool(bashTool, { command: 'true' }, ws, { sandbox });
    expect(outputText(out)).toBe('ERROR tool_failed: bash could not run the command: spawn bwrap EACCES');
    expect(sandbox.calls).toHaveLength(1);
  });

  it('a cancelled run is interrupted', async () => {
    const controller = new AbortController();
    const sandbox = fakeSandbox(async () => {
      controller.abort();
      return { exitCode: 137, stdout: '', stderr: '', timedOut: false };
    });
    const out = await runTool(bashTool, { command: 'sleep 5' }, ws, { sandbox, signal: controller.signal });
    expect(out).toMatchObject({ ok: false, errorType: 'interrupted' });
  });

  it('with sandbox.kind auto and no bwrap on the host, it answers sandbox_unavailable and never runs unboxed', async () => {
    const sandbox = createSandbox('auto', ws, {
      platform: 'linux',
      bwrapBinary: path.join(ws, 'no-bwrap-here'),
    });
    const out = await runTool(bashTool, { command: 'echo ran > ran.txt' }, ws, { sandbox });
    expect(out).toMatchObject({ ok: false, errorType: 'sandbox_unavailable' });
    expect(outputText(out)).toContain('apt-get install -y bubblewrap');
    expect(() => readFileSync(path.join(ws, 'ran.txt'))).toThrow();
  });
});

const bwrapUsable = process.platform === 'linux' && (await new BwrapSandbox(tmpdir()).probe()).ok;
const inCI = ['1', 'true', 'yes'].includes((process.env.CI ?? '').toLowerCase());

describe.runIf(bwrapUsable || (process.platform === 'linux' && inCI))('bash under bubblewrap', () => {
  it('runs the command in the workspace and returns exit code and output', async () => {
    const out = await runTool(
      bashTool,
      { command: 'echo hello > f.txt; cat f.txt; echo oops >&2; exit 3' },
      ws,
      { sandbox: new BwrapSandbox(ws) },
    );
    expect(outputText(out)).toBe('exit code: 3\nstdout:\nhello\n\nstderr:\noops\n');
    expect(readFileSync(path.join(ws, 'f.txt'), 'utf8')).toBe('hello\n');
  });

  it('a timeout_s shorter than the command: timeout error, every process killed', async () => {
    const out = await runTool(bashTool, { command: 'echo started; sleep 30', timeout_s: 1 }, ws, {
      sandbox: new BwrapSandbox(ws),
    });
    expect(out).toMatchObject({ ok: false, errorType: 'timeout' });
    expect(outputText(out)).toContain('started');
  });
});
