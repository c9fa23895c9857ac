import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../testing/scripted-runs.ts';
import { SYNC_READ_MAX_BYTES } from './beneath.ts';
import { LocalSandbox } from './local.ts';

let space: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  space = tempWorkspace();
});
afterEach(() => space.dispose());

describe('HostFileSandbox.readFile', () => {
  const sandbox = new LocalSandbox({ allowExec: false });

  it('reads small files (the synchronous path) and large ones (asynchronous) whole', async () => {
    const small = path.join(space.ws, 'small.txt');
    const large = path.join(space.ws, 'large.txt');
    writeFileSync(small, 'héllo\n');
    writeFileSync(large, 'x'.repeat(SYNC_READ_MAX_BYTES * 2 + 3));
    writeFileSync(path.join(space.ws, 'empty.txt'), '');
    expect(await sandbox.readFile(small)).toBe('héllo\n');
    expect((await sandbox.readFile(large)).length).toBe(SYNC_READ_MAX_BYTES * 2 + 3);
    expect(await sandbox.readFile(path.join(space.ws, 'empty.txt'))).toBe('');
  });

  it('rejects with the Node error codes for a missing file and a directory', async () => {
    mkdirSync(path.join(space.ws, 'dir'));
    await expect(sandbox.readFile(path.join(space.ws, 'missing.txt'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
    await expect(sandbox.readFile(path.join(space.ws, 'dir'))).rejects.toMatchObject({ code: 'EISDIR' });
  });

  it('never blocks the thread on a FIFO: it is left to the asynchronous read', async () => {
    const fifo = path.join(space.ws, 'pipe');
    try {
      execFileSync('mkfifo', [fifo]);
    } catch {
      return; // no mkfifo here: nothing to check
    }
    const reading = sandbox.readFile(fifo);
    // The main thread is free: a writer opened from here completes the read.
    await new Promise((resolve) => setTimeout(resolve, 20));
    writeFileSync(fifo, 'through the pipe');
    expect(await reading).toBe('through the pipe');
  });
});
