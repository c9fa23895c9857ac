import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../testing/scripted-runs.ts';
import { LocalSandbox } from '../sandbox/local.ts';
import { BRANCH_REFRESH_MS, BranchWatch } from './reminder.ts';

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

  it('in a quiet run, looks again only once the refresh time of the run clock has passed; otherwise every time', async () => {
    mkdirSync(path.join(space.ws, '.git'));
    const head = path.join(space.ws, '.git', 'HEAD');
    writeFileSync(head, 'ref: refs/heads/main\n');
    const watch = new BranchWatch(new CountingSandbox(), space.ws);
    expect(await watch.current({ nowMs: 5000, quiet: true })).toBe('main');
    writeFileSync(head, 'ref: refs/heads/other\n');
    // Quiet and recent: the last look stands (a read changes no branch).
    expect(await watch.current({ nowMs: 5000 + BRANCH_REFRESH_MS - 1, quiet: true })).toBe('main');
    // Quiet, but the refresh time has passed: someone else's checkout shows.
    expect(await watch.current({ nowMs: 5000 + BRANCH_REFRESH_MS, quiet: true })).toBe('other');
    writeFileSync(head, 'ref: refs/heads/third\n');
    // Not quiet (a command or a write ran): it looks at once.
    expect(await watch.current({ nowMs: 5000 + BRANCH_REFRESH_MS + 1, quiet: false })).toBe('third');
    writeFileSync(head, 'ref: refs/heads/fourth\n');
    // A clock that went back is no reason to trust the last look.
    expect(await watch.current({ nowMs: 10, quiet: true })).toBe('fourth');
    writeFileSync(head, 'ref: refs/heads/fifth\n');
    expect(await watch.current()).toBe('fifth');
  });
});
