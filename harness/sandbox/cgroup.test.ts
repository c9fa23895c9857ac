import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCommandCgroup, inCgroup, planCgroup } from './cgroup.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'hb-cgroup-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const mountinfo = (mount: string) => `30 23 0:26 / ${mount} rw,nosuid shared:9 - cgroup2 cgroup2 rw\n`;

describe('planCgroup: where the whole command’s memory can be capped', () => {
  it('a given folder whose children get the memory controller is used', () => {
    writeFileSync(path.join(root, 'cgroup.subtree_control'), 'cpu memory pids\n');
    expect(planCgroup(root, { selfCgroup: '', mountinfo: '' })).toEqual({ ok: true, parent: root });
  });

  it('a given folder without the memory controller is refused with the reason', () => {
    writeFileSync(path.join(root, 'cgroup.subtree_control'), 'cpu pids\n');
    expect(planCgroup(root, { selfCgroup: '', mountinfo: '' })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('memory controller'),
    });
  });

  it('without one given: only the root of a cgroup v2 hierarchy (a cgroup namespace) is used', () => {
    writeFileSync(path.join(root, 'cgroup.subtree_control'), 'memory\n');
    expect(planCgroup(undefined, { selfCgroup: '0::/\n', mountinfo: mountinfo(root) })).toEqual({
      ok: true,
      parent: root,
    });
    expect(
      planCgroup(undefined, { selfCgroup: '0::/user.slice/x.scope\n', mountinfo: mountinfo(root) }),
    ).toMatchObject({ ok: false, reason: expect.stringContaining('not the root') });
    expect(planCgroup(undefined, { selfCgroup: '4:memory:/x\n', mountinfo: '' })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('no cgroup v2'),
    });
  });

  it('a command cgroup gets memory.max and no swap, and is killed and removed afterwards', () => {
    // A fake cgroupfs: the kernel would create these files itself.
    const made = createCommandCgroup(root, 128 * 1024 ** 2);
    expect(readFileSync(path.join(made.dir, 'memory.max'), 'utf8')).toBe(String(128 * 1024 ** 2));
    writeFileSync(path.join(made.dir, 'cgroup.kill'), '');
    mkdirSync(path.join(made.dir, 'leftover'));
    made.remove();
    expect(readFileSync(path.join(made.dir, 'cgroup.kill'), 'utf8')).toBe('1');
  });

  it('the bubblewrap process moves itself into the cgroup before it starts', () => {
    expect(inCgroup('/sys/fs/cgroup/hb-1', 'bwrap', ['--ro-bind', '/usr', '/usr'])).toEqual({
      binary: '/bin/sh',
      args: [
        '-c',
        'echo $$ > "$0/cgroup.procs" && exec "$@"',
        '/sys/fs/cgroup/hb-1',
        'bwrap',
        '--ro-bind',
        '/usr',
        '/usr',
      ],
    });
  });
});
