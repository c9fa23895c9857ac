import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, mergeConfig } from '../harness/config.ts';
import { SandboxUnavailableError } from '../harness/sandbox/types.ts';
import { loadConfig } from './config-load.ts';
import { InputError } from './errors.ts';
import { caseSandbox } from './unavailable-sandbox.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'hb-unavailable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const exec = { cwd: dir, timeoutMs: 5000, signal: new AbortController().signal, env: {} };

describe('caseSandbox', () => {
  it('unavailable: every kind, none included, refuses to run a command and says why', async () => {
    for (const kind of ['auto', 'bwrap', 'seatbelt', 'none'] as const) {
      const sandbox = caseSandbox(mergeConfig(DEFAULT_CONFIG, { sandbox: { kind } }), dir, true);
      const error = await sandbox.exec('touch made.txt', exec).catch((e: unknown) => e);
      expect(error, kind).toBeInstanceOf(SandboxUnavailableError);
    }
  });

  it('available: the configuration’s own sandbox (none runs the command)', async () => {
    const sandbox = caseSandbox(mergeConfig(DEFAULT_CONFIG, { sandbox: { kind: 'none' } }), dir, false);
    expect((await sandbox.exec('echo hi', exec)).stdout).toBe('hi\n');
  });
});

describe('sandbox: "unavailable" in a configuration file', () => {
  it('is a bench option, apart from the harness configuration', () => {
    const file = path.join(dir, 'nosandbox.json');
    writeFileSync(file, JSON.stringify({ sandbox: 'unavailable', limits: { maxTurns: 3 } }));
    const loaded = loadConfig(file);
    expect(loaded.bench).toEqual({ sandbox: 'unavailable' });
    expect(loaded.config.sandbox).toEqual(DEFAULT_CONFIG.sandbox);
    expect(loaded.config.limits.maxTurns).toBe(3);
  });

  it('any other string is bad input with its path', () => {
    const file = path.join(dir, 'typo.json');
    writeFileSync(file, JSON.stringify({ sandbox: 'unavaliable' }));
    const error = (() => {
      try {
        loadConfig(file);
      } catch (e) {
        return e;
      }
    })() as InputError;
    expect(error).toBeInstanceOf(InputError);
    expect(error.problems[0]).toMatchObject({
      path: '/sandbox',
      reason: expect.stringContaining('"unavailable"'),
    });
  });
});
