import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../testing/scripted-runs.ts';
import { LocalSandbox } from '../sandbox/local.ts';
import { BranchWatch } from './reminder.ts';

/** A host sandbox that counts its file reads. */
class CountingSandbox extends LocalSandbox {
  reads = 0;
  constructor() {
    super({ allowExec: false });
  }
  override async readFile(file: string): Promise<string> {
    this.reads += 1;
    return super.readFile(file);
  }
}

let space: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  space = tempWorkspace();
});
afterEach(() => space.dispose());

describe('BranchWatch', () => {
  it('reads .git/HEAD once while it is unchanged, and again when a checkout replaces it', async () => {
    const sandbox = new CountingSandbox();
    const watch = new BranchWatch(sandbox, space.ws);
    expect(await watch.current()).toBeUndefined();
    mkdirSync(path.join(space.ws, '.git'));
    const head = path.join(space.ws, '.git', 'HEAD');
    writeFileSync(head, 'ref: refs/heads/main\n');
    expect(await watch.current()).toBe('main');
    expect(await watch.current()).toBe('main');
    expect(await watch.current()).toBe('main');
    expect(sandbox.reads).toBe(1);
    // git writes HEAD.lock and renames it over HEAD: a new file, same size.
    writeFileSync(`${head}.lock`, 'ref: refs/heads/dev1\n');
    renameSync(`${head}.lock`, head);
    expect(await watch.current()).toBe('dev1');
    writeFileSync(head, `${'a'.repeat(40)}\n`);
    expect(await watch.current()).toBe('detached at aaaaaaa');
    expect(sandbox.reads).toBe(3);
  });

  it('is undefined when .git is a file (a linked worktree)', async () => {
    writeFileSync(path.join(space.ws, '.git'), 'gitdir: /elsewhere\n');
    expect(await new BranchWatch(new CountingSandbox(), space.ws).current()).toBeUndefined();
  });

  it('looks at every turn: a checkout between two turns shows at the next', async () => {
    mkdirSync(path.join(space.ws, '.git'));
    const head = path.join(space.ws, '.git', 'HEAD');
    writeFileSync(head, 'ref: refs/heads/main\n');
    const watch = new BranchWatch(new CountingSandbox(), space.ws);
    expect(await watch.current()).toBe('main');
    writeFileSync(head, 'ref: refs/heads/other\n');
    expect(await watch.current()).toBe('other');
  });
});
