import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spillWhole } from '../context/spill.ts';
import { ignoreFolder, SessionStore } from '../memory/session-store.ts';
import { LocalSandbox } from './local.ts';

let base: string;
let ws: string;
let outside: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-own-files-')));
  ws = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  mkdirSync(ws);
  mkdirSync(outside);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const leaked = () => readdirSync(outside, { recursive: true });

describe("the harness's own files never go through a link (the harness's own writes)", () => {
  it('a .harness-bench link shipped with the repository: spill files, the .gitignore and sessions are refused, nothing lands outside', async () => {
    symlinkSync(outside, path.join(ws, '.harness-bench'));
    const kept = await spillWhole('whole output', {
      sandbox: new LocalSandbox({ allowExec: false }),
      workspace: ws,
      folder: '.harness-bench/spill/run_1',
      callId: 'call_1',
    });
    expect(kept).toBeUndefined();
    await ignoreFolder(path.join(ws, '.harness-bench', 'spill', 'run_1'));
    const store = new SessionStore(path.join(ws, '.harness-bench', 'sessions'), () => 0, { root: ws });
    await expect(store.create('s1')).rejects.toMatchObject({ code: 'ELOOP' });
    expect(leaked()).toEqual([]);
  });

  it('a link deeper in the harness folder (sessions → outside) is refused too', async () => {
    mkdirSync(path.join(ws, '.harness-bench'));
    symlinkSync(outside, path.join(ws, '.harness-bench', 'sessions'));
    const store = new SessionStore(path.join(ws, '.harness-bench', 'sessions'), () => 0, { root: ws });
    await expect(store.create('s1')).rejects.toMatchObject({ code: 'ELOOP' });
    expect(leaked()).toEqual([]);
  });

  it('without links, the harness folder is created and used as before', async () => {
    const store = new SessionStore(path.join(ws, '.harness-bench', 'sessions'), () => 0, { root: ws });
    const writer = await store.create('s1');
    await writer.event('end');
    await writer.flush();
    expect(readdirSync(path.join(ws, '.harness-bench')).sort()).toEqual(['.gitignore', 'sessions']);
    expect((await store.load('s1')).id).toBe('s1');
  });
});
