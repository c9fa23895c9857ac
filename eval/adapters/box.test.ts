import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../harness/config.ts';
import type { Scenario } from '../scenario/types.ts';
import { caseLimits } from './applies.ts';
import { boxedArgv, boxUsable } from './box.ts';
import { launchCommand } from './launch.ts';
import type { CommandAdapter } from './load.ts';

const root = mkdtempSync(path.join(tmpdir(), 'hb-box-test-'));
const workspace = path.join(root, 'ws');
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs `argv` as a command adapter on its own tools in the case's workspace (created). */
async function launchProbe(argv: string[]) {
  mkdirSync(workspace, { recursive: true });
  const adapter = {
    name: 'box-probe',
    kind: 'command',
    argv,
    task: 'stdin',
    env: {},
    timeoutMs: 20_000,
  } as unknown as CommandAdapter;
  return launchCommand(adapter, {
    task: 't',
    baseURL: 'http://127.0.0.1:9/v1',
    apiKey: 'k',
    model: 'm',
    workspace,
    tools: [],
    maxTurns: 1,
    limits: caseLimits({} as Scenario, DEFAULT_CONFIG, 1),
  });
}

describe('the box of a command harness', () => {
  it('binds only the given folders writable over a read-only root and a private /tmp', () => {
    const argv = boxedArgv(['node', 'loop.js'], ['/w', '/s'], '/w');
    expect(argv.slice(0, 4)).toEqual(['bwrap', '--ro-bind', '/', '/']);
    expect(argv.join(' ')).toContain('--tmpfs /tmp --bind /w /w --bind /s /s --chdir /w');
    expect(argv.slice(-3)).toEqual(['--', 'node', 'loop.js']);
    // The project and the harness's files may live under /tmp (a fresh clone): bound read-only
    // again over the private /tmp, before the writable folders.
    const inTmp = boxedArgv(['node', '/tmp/clone/loop.js'], ['/w'], '/w', ['/tmp/clone']);
    const at = inTmp.indexOf('/tmp/clone');
    expect(inTmp.slice(at - 1, at + 2)).toEqual(['--ro-bind', '/tmp/clone', '/tmp/clone']);
    expect(at).toBeGreaterThan(inTmp.indexOf('--tmpfs'));
    expect(at).toBeLessThan(inTmp.indexOf('--bind'));
  });

  it.skipIf(!boxUsable() && !process.env.CI)(
    'a harness writing outside its workspace changes nothing of the host; inside it works',
    async () => {
      const outside = path.join(root, 'outside.txt');
      const script = `const fs = require('node:fs');
        for (const f of [${JSON.stringify(outside)}, 'inside.txt']) { try { fs.writeFileSync(f, 'x'); } catch (e) { process.stderr.write(e.code + ' '); } }`;
      const out = await launchProbe([process.execPath, '-e', script]);
      expect(out.boxed).toBe(true);
      expect(existsSync(outside)).toBe(false);
      expect(existsSync(path.join(workspace, 'inside.txt'))).toBe(true);
    },
  );

  it.skipIf((!boxUsable() && !process.env.CI) || !existsSync('/usr/bin/curl'))(
    'a network program run by its absolute path or from a login shell meets the stand-in too',
    async () => {
      const out = await launchProbe([
        '/bin/sh',
        '-c',
        "/usr/bin/curl -s https://exfil.example/a; bash -lc 'curl -s https://exfil.example/b'",
      ]);
      expect(out.boxed).toBe(true);
      expect(out.standIns?.map((c) => c.args.at(-1))).toEqual([
        'https://exfil.example/a',
        'https://exfil.example/b',
      ]);
      expect(out.stderr).toMatch(/could not connect \(harness-bench stand-in/);
    },
  );

  it('binds each network stand-in read-only over the host program', () => {
    const argv = boxedArgv(['h'], ['/w'], '/w', [], [['/s/bin/curl', '/usr/bin/curl']]);
    const at = argv.indexOf('/s/bin/curl');
    expect(argv.slice(at - 1, at + 2)).toEqual(['--ro-bind', '/s/bin/curl', '/usr/bin/curl']);
    expect(at).toBeGreaterThan(argv.indexOf('--bind'));
  });
});
