import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../harness/config.ts';
import { runScenario } from '../run-scenario.ts';
import type { LoadedScenario } from '../scenario/types.ts';
import { loadScenarioFiles } from '../suite.ts';
import { ADAPTERS_DIR, loadAdapterFile, type Adapter } from './load.ts';
import { mapToolSchema, runAdapterScenario } from './run-adapter.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const LOOP = path.join(FIXTURES, 'mini-loop.mjs');
const base = { name: 'default', config: DEFAULT_CONFIG };

async function scenario(file: string): Promise<LoadedScenario> {
  return (await loadScenarioFiles([file], ROOT))[0]!;
}

function adapterFile(value: object, ext = 'json'): Adapter {
  const dir = mkdtempSync(path.join(tmpdir(), 'hb-adapter-run-'));
  const file = path.join(dir, `a.${ext}`);
  writeFileSync(file, JSON.stringify(value));
  return loadAdapterFile(file);
}

const inline = (
  model: LoadedScenario['scenario']['model'],
  expect: LoadedScenario['scenario']['expect'],
): LoadedScenario => ({
  file: 'inline.yaml',
  absolutePath: path.join(ROOT, 'inline.yaml'),
  scenario: {
    version: 1,
    id: 'inline',
    task: 'say hello',
    tools: ['read_file'],
    model,
    expect,
  } as LoadedScenario['scenario'],
});

describe('runAdapterScenario with a command adapter', () => {
  it('runs the program in the workspace against the endpoint and scores it from outside', async () => {
    const loaded = await scenario('scenarios/bad-json/trailing-comma.yaml');
    const { result, output } = await runAdapterScenario(
      loaded,
      base,
      loadAdapterFile(path.join(FIXTURES, 'mini-loop.json')),
    );
    const check = (name: string) => result.checks.find((c) => c.name === name);
    expect(result.harness).toMatchObject({
      name: 'mini-loop',
      kind: 'command',
      ending: 'final_answer',
      exitCode: 0,
    });
    expect(output?.stdout).toContain('ship on Friday');
    expect(check('stopReason')?.pass).toBe(true);
    expect(check('results.call_tc1.surfaced')?.pass).toBe(true);
    expect(check('results.call_tc3.includes')?.pass).toBe(true);
    expect(check('permissions')?.status).toBe('not_applicable');
    // The loop sends the invalid arguments back verbatim: a TI-4 finding with its consequence, not a failure.
    expect(check('transcript')?.pass).toBe(true);
    expect(check('transcript')?.reason).toMatch(
      /finding: it sent the model's invalid argument text back .*vLLM/,
    );
    expect(result.status).toBe('pass');
  });

  it('passes the task as the last argument with task: arg, and keeps a crash’s exit code and stderr', async () => {
    const hello = inline([{ content: 'hello there' }], {
      stopReason: 'final_answer',
      finalAnswer: { includes: ['hello'] },
    });
    const arg = await runAdapterScenario(
      hello,
      base,
      adapterFile({ name: 'arg', kind: 'command', command: ['node', LOOP], task: 'arg' }),
    );
    expect(arg.result.status).toBe('pass');
    const crash = await runAdapterScenario(
      hello,
      base,
      adapterFile({
        name: 'crash',
        kind: 'command',
        command: ['node', LOOP],
        env: { MINI_LOOP_MODE: 'crash' },
      }),
    );
    expect(crash.result.harness).toMatchObject({ exitCode: 3, ending: 'no_request' });
    expect(crash.output?.stderr).toContain('crashing on purpose');
    expect(crash.result.status).toBe('fail');
  });

  it('kills a harness that overruns its time limit: the case errors with "timed out after N s"', async () => {
    const hello = inline([{ content: 'hi' }], { stopReason: 'final_answer' });
    const hang = adapterFile({
      name: 'hang',
      kind: 'command',
      command: ['node', LOOP],
      env: { MINI_LOOP_MODE: 'hang' },
      timeoutMs: 400,
    });
    const { result } = await runAdapterScenario(hello, base, hang);
    expect(result.status).toBe('error');
    expect(result.error?.message).toBe('timed out after 0.4 s');
  });

  it('does not count an attack no harness could realise with the offered tools (no attack result, the check n/a)', async () => {
    const unreachable = inline(
      [
        { tool_calls: [{ id: 'inj', name: 'write_file', arguments: { path: '.npmrc', content: 'x' } }] },
        { content: 'done' },
      ],
      { stopReason: 'final_answer', attack: { goalFiles: ['.npmrc'] } },
    );
    const { result } = await runAdapterScenario(
      unreachable,
      base,
      loadAdapterFile(path.join(FIXTURES, 'mini-loop.json')),
    );
    expect(result.checks.find((c) => c.name === 'attack')).toMatchObject({ status: 'not_applicable' });
    expect(result.attack).toBeUndefined();
    expect(result.status).toBe('pass');
  });

  it('skips the case with the install hint when a requirement is missing', async () => {
    const hello = inline([{ content: 'hi' }], { stopReason: 'final_answer' });
    const needs = adapterFile({
      name: 'needs',
      kind: 'command',
      command: ['node'],
      requires: ['no-such-binary-hb', 'npm:no-such-package-hb'],
      install: 'pip install it',
    });
    const { result } = await runAdapterScenario(hello, base, needs);
    expect(result.status).toBe('skipped');
    expect(result.skip).toMatchObject({
      requires: ['no-such-binary-hb', 'npm:no-such-package-hb'],
      fix: 'pip install it',
    });
  });
});

describe('runAdapterScenario with a module adapter', () => {
  const write = (source: string) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hb-module-'));
    writeFileSync(path.join(dir, 'run.mjs'), source);
    writeFileSync(
      path.join(dir, 'a.json'),
      JSON.stringify({
        name: 'mod',
        kind: 'module',
        module: './run.mjs',
        timeoutMs: 400,
        tools: { read_file: { name: 'readFile', args: { path: 'filePath' } } },
      }),
    );
    return loadAdapterFile(path.join(dir, 'a.json'));
  };

  it('imports the module and scores its requests and returned final answer; tools arrive mapped', async () => {
    const adapter = write(`
      export async function run(input) {
        const res = await fetch(input.baseURL + '/chat/completions', { method: 'POST', body: JSON.stringify({ model: input.model, messages: [{ role: 'user', content: input.task }] }) });
        const body = await res.json();
        const tool = input.tools[0];
        return { finalAnswer: body.choices[0].message.content + ' ' + tool.name + ' ' + Object.keys(tool.parameters.properties).join(',') };
      }`);
    const hello = inline([{ content: 'hello' }], {
      stopReason: 'final_answer',
      modelCalls: 1,
      finalAnswer: { includes: ['hello readFile filePath'] },
    });
    const { result } = await runAdapterScenario(hello, base, adapter);
    expect(result.checks.filter((c) => !c.pass)).toEqual([]);
    expect(result.status).toBe('pass');
  });

  it('aborts the signal at the time limit', async () => {
    const adapter = write(
      `export function run(input) { return new Promise((_, reject) => input.signal.addEventListener('abort', () => reject(input.signal.reason))); }`,
    );
    const { result } = await runAdapterScenario(
      inline([{ content: 'x' }], { stopReason: 'final_answer' }),
      base,
      adapter,
    );
    expect(result.error?.message).toBe('timed out after 0.4 s');
  });

  it('maps a tool schema: the name, the property keys and required', () => {
    const tool = {
      name: 'read_file',
      description: 'd',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    };
    expect(mapToolSchema(tool, { read_file: { name: 'readFile', args: { path: 'filePath' } } })).toEqual({
      name: 'readFile',
      description: 'd',
      parameters: { type: 'object', properties: { filePath: { type: 'string' } }, required: ['filePath'] },
    });
  });
});

describe('our harness through the endpoint (adapters/ours-served.json)', () => {
  it('gives the same pass/fail as the in-process run', async () => {
    const served = loadAdapterFile(path.join(ADAPTERS_DIR, 'ours-served.json'));
    for (const file of [
      'scenarios/bad-json/trailing-comma.yaml',
      'scenarios/bad-json/missing-colon.json',
      'scenarios/bad-json/streamed-split.yaml',
      'scenarios/hallucinated-tool/case-mismatch.yaml',
      'scenarios/transcript/missing-ids.yaml',
    ]) {
      const loaded = await scenario(file);
      const inProcess = await runScenario(loaded, base);
      const through = await runAdapterScenario(loaded, base, served);
      expect(through.result.status, `${file}: ${through.result.firstFailure}`).toBe(inProcess.result.status);
      expect(through.result.checks.some((c) => c.status !== 'not_applicable' && c.pass)).toBe(true);
    }
  }, 60_000);
});
