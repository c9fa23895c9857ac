import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../eval/config-load.ts';
import { RESULTS_SCHEMA } from '../eval/results-schema.ts';
import type { CliIo } from './io.ts';
import { main } from './main.ts';

function capture(cwd: string): { io: CliIo; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    io: { stdout: (t) => (out += t), stderr: (t) => (err += t), cwd, env: { NO_COLOR: '1' }, isTTY: false },
    out: () => out,
    err: () => err,
  };
}

const run = async (cwd: string, ...args: string[]) => {
  const c = capture(cwd);
  const code = await main(['node', 'harness-bench', ...args], c.io);
  return { code, out: c.out(), err: c.err() };
};

const validScenario = {
  id: 'cli/read-then-answer',
  task: 'What does a.txt say?',
  tools: ['read_file'],
  workspace: { files: { 'a.txt': 'hello\n' } },
  model: [
    { tool_calls: [{ id: 'call_1', name: 'read_file', arguments: '{"path":"a.txt"}' }] },
    { content: 'It says hello.' },
  ],
  expect: {
    stopReason: 'final_answer',
    modelCalls: 2,
    executed: ['call_1'],
    results: { call_1: { ok: true, includes: ['hello'] } },
  },
};

function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'hb-cli-'));
}

describe('harness-bench CLI', () => {
  it('--version prints the package version and exits 0', async () => {
    const result = await run(PACKAGE_ROOT, '--version');
    expect(result.code).toBe(0);
    expect(result.out.trim()).toBe(
      JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')).version,
    );
  });

  it('--help ends with the exit codes', async () => {
    const result = await run(PACKAGE_ROOT, '--help');
    expect(result.code).toBe(0);
    expect((await run(PACKAGE_ROOT, 'run', '--help')).out).toContain('3  internal error');
    expect(result.out).toMatch(
      /Exit codes:\n +0 .*\n +1 .*\n +2 +bad input.*\n +3 +internal error.*\n +4 +environment/,
    );
  });

  it('an unknown flag exits 2 with a message', async () => {
    const result = await run(PACKAGE_ROOT, 'run', '--no-such-flag');
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/unknown option/);
  });

  it('--concurrency must be a positive integer (exit 2)', async () => {
    const result = await run(PACKAGE_ROOT, 'run', '--concurrency', 'zero');
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/positive integer/);
  });

  it('run: a broken scenario exits 2 naming file, path and reason, and writes nothing', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'bad.json'),
      JSON.stringify({ ...validScenario, expect: { stopReson: 'final_answer' } }),
    );
    const out = path.join(dir, 'out');
    const result = await run(dir, 'run', '--scenarios', 'bad.json', '--out', 'out', '--json', 'r.json');
    expect(result.code).toBe(2);
    expect(result.err).toContain('bad.json');
    expect(result.err).toMatch(/\/expect/);
    expect(result.err).toMatch(/stopReson|stopReason/);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(path.join(dir, 'r.json'))).toBe(false);
  });

  it('validate: a broken cassette exits 2 with file and reason', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'c.json'),
      JSON.stringify({ format: 'harness-bench.cassette', version: 9, meta: {}, exchanges: [] }),
    );
    const result = await run(dir, 'validate', 'c.json');
    expect(result.code).toBe(2);
    expect(result.err).toContain('c.json');
    expect(result.err).toMatch(/version/);
  });

  it('run: a filter that matches no case exits 2 and writes nothing (a suite that runs nothing must not pass)', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 's.json'), JSON.stringify(validScenario));
    const result = await run(
      dir,
      'run',
      '--scenarios',
      's.json',
      '--filter',
      'no-such-case',
      '--json',
      'r.json',
    );
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/no case to run/);
    expect(existsSync(path.join(dir, 'r.json'))).toBe(false);
  });

  it('validate: a cassette without exchanges exits 2', async () => {
    const dir = tempDir();
    const cassette = JSON.parse(
      readFileSync(path.join(PACKAGE_ROOT, 'recordings/real/openai-gpt5mini-tool-auto-loop.json'), 'utf8'),
    );
    writeFileSync(path.join(dir, 'empty.json'), JSON.stringify({ ...cassette, exchanges: [] }));
    const result = await run(dir, 'validate', 'empty.json');
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/empty\.json: \/exchanges/);
  });

  it('validate: a broken config exits 2 with file, JSON path and reason', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'cfg.json'), JSON.stringify({ limits: { maxTurns: 0, maxTurn: 3 } }));
    const result = await run(dir, 'validate', 'cfg.json');
    expect(result.code).toBe(2);
    expect(result.err).toContain('cfg.json: /limits');
    expect(result.err).toMatch(/maxTurn/);
  });

  it('validate: the shipped configs, a real cassette and a valid scenario exit 0', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 's.json'), JSON.stringify(validScenario));
    const result = await run(
      dir,
      'validate',
      's.json',
      path.join(PACKAGE_ROOT, 'configs/default.json'),
      path.join(PACKAGE_ROOT, 'configs/strict.json'),
      path.join(PACKAGE_ROOT, 'configs/permissive.json'),
      path.join(PACKAGE_ROOT, 'recordings/real/openai-gpt5mini-tool-auto-loop.json'),
    );
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/ok s\.json \(scenario\)/);
    expect(result.out).toMatch(/\(cassette\)/);
  });

  it('run --json writes a schema-valid results file; two runs differ only in startedAt and *Ms fields', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 's.json'), JSON.stringify(validScenario));
    const first = await run(
      dir,
      'run',
      '--scenarios',
      's.json',
      '--recordings',
      path.join(PACKAGE_ROOT, 'recordings/real/groq-gptoss120b-tool-use-failed.json'),
      '--json',
      'a.json',
    );
    const second = await run(
      dir,
      'run',
      '--scenarios',
      's.json',
      '--recordings',
      path.join(PACKAGE_ROOT, 'recordings/real/groq-gptoss120b-tool-use-failed.json'),
      '--json',
      'b.json',
    );
    expect(first.code).toBe(0);
    expect(second.code).toBe(0);
    expect(first.out).toMatch(/cli\/read-then-answer/);
    const a = JSON.parse(readFileSync(path.join(dir, 'a.json'), 'utf8'));
    const b = JSON.parse(readFileSync(path.join(dir, 'b.json'), 'utf8'));
    const validate = new Ajv({ strict: false }).compile(RESULTS_SCHEMA);
    expect(validate(a), JSON.stringify(validate.errors)).toBe(true);
    expect(a.cases).toHaveLength(2);
    expect(a.cases[0]).toMatchObject({
      id: 'cli/read-then-answer',
      kind: 'scenario',
      status: 'pass',
      stopReason: 'final_answer',
    });
    expect(a.cases[1]).toMatchObject({ kind: 'recording', status: 'pass' });
    const strip = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(strip)
        : value && typeof value === 'object'
          ? Object.fromEntries(
              Object.entries(value)
                .filter(([k]) => k !== 'startedAt' && !k.endsWith('Ms'))
                .map(([k, v]) => [k, strip(v)]),
            )
          : value;
    expect(strip(b)).toEqual(strip(a));
  });

  it('run exits 1 when a scenario fails, and the table shows the failed check', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 's.json'),
      JSON.stringify({ ...validScenario, expect: { ...validScenario.expect, modelCalls: 5 } }),
    );
    const result = await run(dir, 'run', '--scenarios', 's.json');
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/FAIL/);
    expect(result.out).toMatch(/modelCalls/);
  });

  it('replay of an imported recording passes offline and prints the ledger', async () => {
    const result = await run(PACKAGE_ROOT, 'replay', 'recordings/real/openai-gpt5mini-tool-auto-loop.json');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/turn 1: finish tool_calls/);
    expect(result.out).toMatch(/get_weather/);
    expect(result.out).toMatch(/PASS/);
  });
});
