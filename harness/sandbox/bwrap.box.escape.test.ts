/**
 * Escape tests of the smaller box against the real bubblewrap: the host's files are not there,
 * `/tmp` and the home are capped, the whole command's memory is capped where the host delegates
 * a cgroup (skipped with the reason otherwise), and git runs nothing a repository configures.
 * Each attack is shown to work unboxed first where that is safe. In CI (CI set) they run
 * whatever the probe says, so a host without a usable bwrap fails loudly.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BwrapSandbox } from './bwrap.ts';
import { plantEvilRepository } from './evil-repo.test-helpers.ts';

const inCI = ['1', 'true', 'yes'].includes((process.env.CI ?? '').toLowerCase());
const onLinux = process.platform === 'linux';
const probeWs = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-probe-')));
const probe = onLinux
  ? await new BwrapSandbox(probeWs).probe()
  : { ok: false as const, message: 'not Linux', hint: '' };
rmSync(probeWs, { recursive: true, force: true });
const run = onLinux && (probe.ok || inCI);

const markers = (ws: string) =>
  ['fsmonitor', 'pager', 'extdiff', 'textconv', 'diffcommand', 'clean', 'smudge', 'gpg'].filter((m) =>
    existsSync(path.join(ws, `pwned-${m}`)),
  );

describe.runIf(run)('the smaller box', () => {
  let ws: string;
  const planted: string[] = [];
  beforeAll(() => {
    ws = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-box-esc-')));
  });
  afterAll(() => {
    rmSync(ws, { recursive: true, force: true });
    for (const file of planted) rmSync(file, { recursive: true, force: true });
  });
  const exec = (command: string, sandbox = new BwrapSandbox(ws)) =>
    sandbox.exec(command, { cwd: ws, timeoutMs: 30_000 });

  it('hides the host: no /etc/shadow, /root, /home, /var, /srv, /opt, /mnt; only the box user in /etc/passwd', async () => {
    const result = await exec(
      'for p in /etc/shadow /root /home /var/lib /var/log /srv /opt /mnt /media /boot; do case "$HOME/" in "$p"/*) continue;; esac; [ -e "$p" ] && echo "present $p"; done; cut -d: -f1 /etc/passwd | tr "\\n" " "; echo; ls /',
    );
    expect(result.stdout).not.toContain('present');
    const users = result.stdout.split('\n')[0]!.trim().split(' ').sort();
    expect(users).toEqual(process.getuid?.() === 0 ? ['nobody', 'root'] : ['nobody', 'root', 'user']);
    const top = result.stdout.split('\n').slice(1).join(' ').split(/\s+/).filter(Boolean);
    for (const name of top)
      expect([
        'bin',
        'dev',
        'etc',
        'lib',
        'lib32',
        'lib64',
        'libx32',
        'proc',
        'root',
        'run',
        'sbin',
        'tmp',
        'usr',
        'var',
        ...ws.split('/').slice(1, 2),
        ...process.env.HOME!.split('/').slice(1, 2),
      ]).toContain(name);
  });

  it('a secret planted in a host folder outside the system folders is not readable (and is, unboxed)', async () => {
    const dir = realpathSync(mkdtempSync('/var/tmp/hb-secret-'));
    planted.push(dir);
    writeFileSync(path.join(dir, 'key'), 'PRIVATE KEY');
    expect(readFileSync(path.join(dir, 'key'), 'utf8')).toBe('PRIVATE KEY');
    const result = await exec(`cat ${dir}/key; ls ${dir}`);
    expect(result.stdout + result.stderr).not.toContain('PRIVATE KEY');
    expect(result.stderr).toContain('No such file or directory');
  });

  it('commands still work: bash, coreutils, the loader, locale, time zone, alternatives', async () => {
    const result = await exec(
      'echo ok | tr a-z A-Z; date -u +%Y >/dev/null && echo date; awk "BEGIN{print 1+1}"; id -un',
    );
    expect(result.stdout).toBe(`OK\ndate\n2\n${process.getuid?.() === 0 ? 'root\n' : 'user\n'}`);
  });

  it('/tmp and the home are capped: writing past the size fails with ENOSPC', async () => {
    const small = new BwrapSandbox(ws, { limits: { tmpBytes: 4 * 1024 ** 2, homeBytes: 1024 ** 2 } });
    const result = await exec(
      'head -c 8000000 /dev/zero > /tmp/big; echo "tmp=$?"; head -c 3000000 /dev/zero > "$HOME/big"; echo "home=$?"',
      small,
    );
    expect(result.stdout).toBe('tmp=1\nhome=1\n');
    expect(result.stderr).toContain('No space left on device');
  });

  const cgroup = new BwrapSandbox(probeWs).cgroupPlan();
  it.skipIf(!cgroup.ok)(
    `the whole command's memory is capped: processes that each fit the per-process limit are stopped together${cgroup.ok ? '' : ` (skipped: no delegated cgroup v2 here — ${cgroup.reason}; set HARNESS_BENCH_CGROUP to a cgroup v2 folder with the memory controller enabled for its children)`}`,
    async () => {
      const boxed = new BwrapSandbox(ws, {
        limits: { memoryBytes: 128 * 1024 ** 2, addressSpaceBytes: 512 * 1024 ** 2 },
      });
      const hog = 'head -c 100000000 /dev/zero | tail -c 1 >/dev/null';
      const result = await exec(
        `for i in 1 2 3; do (x=$(${hog}; head -c 80000000 /dev/zero | tr "\\0" a); sleep 2) & done; wait; echo done`,
        boxed,
      );
      expect(result.exitCode === 0 && result.stdout.includes('done') && !result.stderr).toBe(false);
    },
  );

  it('git runs nothing the repository configures (fsmonitor, pager, external diff, textconv, filters, gpg), by name or by path, also with the guard variables unset', async () => {
    plantEvilRepository(ws);
    // Unboxed and unguarded, the repository's programs run.
    spawnSync('git', ['status'], { cwd: ws, env: { PATH: '/usr/bin:/bin', HOME: ws }, stdio: 'ignore' });
    spawnSync('git', ['diff'], { cwd: ws, env: { PATH: '/usr/bin:/bin', HOME: ws }, stdio: 'ignore' });
    expect(markers(ws).length).toBeGreaterThan(0);
    for (const m of markers(ws)) rmSync(path.join(ws, `pwned-${m}`));
    const result = await exec(
      'git status; git diff; git log -p; git show; /usr/bin/git diff; /usr/lib/git-core/git status; unset GIT_CONFIG_COUNT; env -i /usr/bin/git diff; git add a.txt; echo end',
    );
    expect(result.stdout).toContain('end');
    expect(markers(ws)).toEqual([]);
  });
});
