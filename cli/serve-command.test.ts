import { readFileSync } from 'node:fs';
import path from 'node:path';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { cli, put, scenario, STACK_LINE, tempDir } from './cli.test-helpers.ts';
import type { CliIo } from './io.ts';
import { serveCommand } from './serve-command.ts';

describe('harness-bench serve', () => {
  it('prints the base URL, serves the script to the openai client until stopped, and logs the requests', async () => {
    const dir = tempDir();
    put(dir, { 's.json': scenario('serve/one') });
    let out = '';
    let err = '';
    let stop: () => void = () => {};
    const until = new Promise<void>((resolve) => {
      stop = resolve;
    });
    const io: CliIo = {
      stdout: (t) => (out += t),
      stderr: (t) => (err += t),
      cwd: dir,
      env: {},
      isTTY: false,
    };
    const done = serveCommand('s.json', { log: 'requests.json' }, io, until);
    while (!out.includes('\n')) await new Promise((r) => setTimeout(r, 10));
    const baseURL = out.trim();
    expect(baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const client = new OpenAI({ baseURL, apiKey: 'x', maxRetries: 0 });
    const first = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'q' }],
    });
    expect(first.choices[0]!.message.tool_calls![0]!.id).toBe('call_1');
    stop();
    expect(await done).toBe(0);
    expect(err).toContain('POST /v1/chat/completions → 200 turn 1');
    expect(err).toContain('served 1 of 2 turns to 1 requests');
    const log = JSON.parse(readFileSync(path.join(dir, 'requests.json'), 'utf8'));
    expect(log[0].body.messages).toEqual([{ role: 'user', content: 'q' }]);
  });

  it('refuses a missing source, a bad port and a bad adapter file with exit 2', async () => {
    const dir = tempDir();
    put(dir, { 's.json': scenario('serve/one'), 'bad.json': { name: 'x', kind: 'module' } });
    for (const args of [
      ['serve'],
      ['serve', 's.json', '--port', '99999'],
      ['serve', 's.json', '--harness', './bad.json'],
      ['serve', 'none.yaml'],
    ]) {
      const { code, err } = await cli(dir, args);
      expect(code, args.join(' ')).toBe(2);
      expect(err).not.toMatch(STACK_LINE);
    }
  });
});

describe('harness-bench run --harness', () => {
  it('rejects an invalid adapter file with file, path and reason (exit 2, nothing run)', async () => {
    const dir = tempDir();
    put(dir, { 's.json': scenario('run/one'), 'bad.json': { name: 'x', kind: 'command', comand: ['node'] } });
    const { code, err } = await cli(dir, ['run', '-s', 's.json', '--harness', './bad.json']);
    expect(code).toBe(2);
    expect(err).toContain('bad.json: /: unknown key "comand" (did you mean "command"?)');
    expect(err).toContain("bad.json: /: must have required property 'command'");
  });

  it('names the known harnesses for an unknown name', async () => {
    const dir = tempDir();
    put(dir, { 's.json': scenario('run/one') });
    const { code, err } = await cli(dir, ['run', '-s', 's.json', '--harness', 'no-such-harness']);
    expect(code).toBe(2);
    expect(err).toMatch(/--harness: no harness "no-such-harness".*known: .*ours/);
  });

  it('runs a scenario through an adapter and writes the harness into results.json and report.md', async () => {
    const dir = tempDir();
    const loop = path.resolve('eval/adapters/fixtures/mini-loop.mjs');
    put(dir, {
      's.json': scenario('run/one', [], {
        expect: { stopReason: 'final_answer', executed: ['call_1'], finalAnswer: { includes: ['hello'] } },
      }),
      'a.json': { name: 'mini', kind: 'command', command: ['node', loop] },
    });
    const { code, out } = await cli(dir, ['run', '-s', 's.json', '--harness', './a.json', '--out', 'out']);
    expect(out).toContain('harness: mini (command, ');
    expect(out).toContain('1 check not applicable');
    expect(code).toBe(0);
    const results = JSON.parse(readFileSync(path.join(dir, 'out/results.json'), 'utf8'));
    expect(results.harness).toMatchObject({ name: 'mini', kind: 'command' });
    expect(results.summary.notApplicableChecks).toBe(1);
    expect(readFileSync(path.join(dir, 'out/report.md'), 'utf8')).toContain(
      'harness: mini (command) · 1 check not applicable',
    );
    const sidecar = JSON.parse(readFileSync(path.join(dir, 'out', results.cases[0].transcript), 'utf8'));
    expect(sidecar.harness).toMatchObject({ exitCode: 0, stdout: 'It says hello.\n', stderr: '' });
  }, 30_000);
});
