/**
 * Escape tests against the real bubblewrap: every attempt must fail to escape. Each attack is
 * also run unboxed (LocalSandbox, kind "none") where that is safe, to show the attack itself
 * works and the test could fail. In CI (CI set) they run whatever the probe says, so a host
 * where bwrap is missing or unusable fails loudly instead of skipping; locally they skip
 * with the probe's reason.
 */
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BwrapSandbox, detectHost } from './bwrap.ts';
import { LocalSandbox } from './local.ts';

const inCI = ['1', 'true', 'yes'].includes((process.env.CI ?? '').toLowerCase());
const onLinux = process.platform === 'linux';
const probeWs = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-probe-')));
const probe = onLinux
  ? await new BwrapSandbox(probeWs).probe()
  : { ok: false as const, message: 'not Linux', hint: '' };
rmSync(probeWs, { recursive: true, force: true });
const run = onLinux && (probe.ok || inCI);
if (!run && onLinux)
  console.warn(
    `bwrap escape tests skipped (set CI=true to make this a failure): ${probe.ok ? '' : `${probe.message}; ${probe.hint}`}`,
  );

describe.runIf(onLinux && inCI)('bubblewrap in CI', () => {
  it('is installed and usable (the probe succeeds); otherwise every escape test below fails too', () => {
    expect(probe.ok ? 'usable' : `${probe.message} — ${probe.hint}`).toBe('usable');
  });
});

/** Processes on the host whose command line contains `marker`. */
function hostProcessesWith(marker: string): number {
  let count = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) count += 1;
    } catch {
      /* gone */
    }
  }
  return count;
}

describe.runIf(run)('bubblewrap escape tests', () => {
  let ws: string;
  let outsideTmp: string;
  let outsideVar: string;
  let sandbox: BwrapSandbox;
  const unboxed = new LocalSandbox({ allowExec: true });

  beforeAll(() => {
    ws = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-ws-esc-')));
    outsideTmp = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-out-esc-')));
    outsideVar = realpathSync(mkdtempSync('/var/tmp/hb-out-esc-'));
    sandbox = new BwrapSandbox(ws);
  });
  afterAll(() => {
    for (const dir of [ws, outsideTmp, outsideVar]) rmSync(dir, { recursive: true, force: true });
  });
  const reset = () => {
    for (const dir of [outsideTmp, outsideVar]) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'victim.txt'), 'original');
    }
  };
  const victims = () =>
    [outsideTmp, outsideVar].map((dir) => ({
      dir,
      files: readdirSync(dir).sort(),
      victim: readFileSync(path.join(dir, 'victim.txt'), 'utf8'),
    }));
  const untouched = () =>
    [outsideTmp, outsideVar].map((dir) => ({ dir, files: ['victim.txt'], victim: 'original' }));
  const exec = (command: string, timeoutMs = 20_000) => sandbox.exec(command, { cwd: ws, timeoutMs });

  it('writing outside through ".." fails (and the same command unboxed does write)', async () => {
    const rel = (dir: string) => path.relative(ws, dir);
    const command = [outsideTmp, outsideVar]
      .map((dir) => `echo OWNED > ${rel(dir)}/victim.txt; echo x > ${rel(dir)}/new.txt`)
      .join('; ');
    reset();
    const result = await exec(command);
    expect(victims()).toEqual(untouched());
    expect(result.stderr).toMatch(/No such file or directory|Read-only file system/);
    reset();
    await unboxed.exec(command, { cwd: ws, timeoutMs: 20_000 });
    expect(victims().map((v) => v.victim)).toEqual(['OWNED\n', 'OWNED\n']);
  });

  it('writing outside through absolute paths fails: /tmp is private, the rest of the root is read-only', async () => {
    reset();
    const command = [outsideTmp, outsideVar]
      .map((dir) => `echo OWNED > ${dir}/victim.txt; mkdir -p ${dir}/sub; touch ${dir}/new.txt`)
      .join('; ');
    const result = await exec(`${command}; echo x > /etc/hb-escape-test; touch /usr/hb-escape-test`);
    expect(victims()).toEqual(untouched());
    expect(result.stderr).toContain('Read-only file system');
    expect(() => readFileSync('/etc/hb-escape-test')).toThrow();
  });

  it('writing outside through a symlink in the workspace fails (link to a folder, link to a file, dangling link)', async () => {
    reset();
    symlinkSync(outsideTmp, path.join(ws, 'outbox-tmp'));
    symlinkSync(outsideVar, path.join(ws, 'outbox-var'));
    symlinkSync(path.join(outsideVar, 'victim.txt'), path.join(ws, 'notes.md'));
    symlinkSync(path.join(outsideVar, 'not-yet.txt'), path.join(ws, 'draft.txt'));
    try {
      await exec(
        'echo OWNED > outbox-tmp/victim.txt; echo OWNED > outbox-var/victim.txt; echo OWNED > notes.md; echo x > draft.txt; cp /etc/hostname outbox-var/',
      );
      expect(victims()).toEqual(untouched());
    } finally {
      for (const link of ['outbox-tmp', 'outbox-var', 'notes.md', 'draft.txt'])
        rmSync(path.join(ws, link), { force: true });
    }
  });

  it('root inside cannot remount / read-write: it holds no capabilities', async () => {
    reset();
    const result = await exec(
      `grep CapEff /proc/self/status; mount -o remount,rw,bind /; echo OWNED > ${outsideVar}/victim.txt`,
    );
    expect(result.stdout).toMatch(/CapEff:\s+0+\n/);
    expect(victims()).toEqual(untouched());
  });

  it('writes inside the workspace work and are seen on the host', async () => {
    const result = await exec('mkdir -p sub && echo hello > sub/file.txt && cat sub/file.txt');
    expect(result).toMatchObject({ exitCode: 0, stdout: 'hello\n', timedOut: false });
    expect(readFileSync(path.join(ws, 'sub', 'file.txt'), 'utf8')).toBe('hello\n');
  });

  it('the home folder and /run are empty inside', async () => {
    const home = realpathSync(mkdtempSync('/var/tmp/hb-home-'));
    writeFileSync(path.join(home, 'id_rsa'), 'PRIVATE KEY');
    try {
      const boxed = new BwrapSandbox(ws, { host: { ...detectHost(), home } });
      const result = await boxed.exec(
        `echo "home=$HOME"; ls -A "$HOME" | wc -l; cat ${home}/id_rsa; ls -A /run`,
        { cwd: ws, timeoutMs: 20_000 },
      );
      // /run holds only the real git the guard shim runs (git-guard.ts): no socket of the host.
      expect(result.stdout).toBe(`home=${home}\n0\nhb-git\n`);
      expect(result.stdout + result.stderr).not.toContain('PRIVATE KEY');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  describe('network', () => {
    let server: Server;
    let port: number;
    let connections = 0;
    beforeAll(async () => {
      server = createServer((_req, res) => res.end('hello from the host'));
      server.on('connection', () => (connections += 1));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('a loopback server of the host cannot be reached (and can be reached unboxed)', async () => {
      const command = `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port} && printf "GET / HTTP/1.0\\r\\n\\r\\n" >&3 && cat <&3'`;
      connections = 0;
      const boxed = await exec(command);
      expect(boxed.stdout).not.toContain('hello from the host');
      expect(boxed.exitCode).not.toBe(0);
      expect(connections).toBe(0);
      const open = await unboxed.exec(command, { cwd: ws, timeoutMs: 20_000 });
      expect(open.stdout).toContain('hello from the host');
      expect(connections).toBe(1);
    });

    it('only a loopback interface exists inside', async () => {
      const result = await exec(
        'ls /sys/class/net 2>/dev/null; cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d " "',
      );
      expect(
        result.stdout
          .trim()
          .split('\n')
          .filter((l) => l !== '' && l !== 'lo')
          .filter((l) => !readdirSync('/sys/class/net').includes(l)),
      ).toEqual([]);
      expect(result.stdout).toContain('lo');
      const procNet = result.stdout.trim().split('\n').slice(-1)[0];
      expect(procNet).toBe('lo');
    });
  });

  it('the environment holds no secret of the parent', async () => {
    process.env.HB_FAKE_API_KEY = 'sk-hb-fake-0123456789';
    process.env.OPENAI_API_KEY = 'sk-openai-fake-0123456789';
    process.env.GITHUB_TOKEN = 'ghp_fake0123456789';
    try {
      const result = await exec('env');
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain('PATH=');
      for (const secret of [
        'sk-hb-fake',
        'sk-openai-fake',
        'ghp_fake',
        'HB_FAKE_API_KEY',
        'OPENAI_API_KEY',
        'GITHUB_TOKEN',
      ])
        expect(result.stdout).not.toContain(secret);
    } finally {
      delete process.env.HB_FAKE_API_KEY;
      delete process.env.OPENAI_API_KEY;
      delete process.env.GITHUB_TOKEN;
    }
  });

  describe('resource limits', () => {
    const spawnCount = `perl -e 'my $n = 0; while ($n < 5000) { my $p = fork(); last unless defined $p; if (!$p) { sleep 60; exit 0 } $n++ } print "$n\\n"; kill "KILL", -$$'`;

    it('a process count past the limit fails to fork (as this user: the PID namespace cap under root)', async () => {
      const boxed = new BwrapSandbox(ws, { limits: { processes: 400 } });
      const result = await boxed.exec(spawnCount, { cwd: ws, timeoutMs: 20_000 });
      const spawned = Number(result.stdout.trim());
      expect(spawned).toBeGreaterThan(300);
      expect(spawned).toBeLessThan(400);
    });

    it.runIf(detectHost().globalRoot)(
      'as an unprivileged user (runAs nobody), RLIMIT_NPROC holds the count',
      async () => {
        const shared = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-ws-nobody-')));
        chmodSync(shared, 0o777);
        try {
          const boxed = new BwrapSandbox(shared, {
            runAs: { uid: 65534, gid: 65534 },
            limits: { processes: 64 },
          });
          const result = await boxed.exec(`id -u; ${spawnCount}`, { cwd: shared, timeoutMs: 20_000 });
          const [uid, count] = result.stdout.trim().split('\n');
          expect(uid).toBe('65534');
          expect(Number(count)).toBeGreaterThan(40);
          expect(Number(count)).toBeLessThan(64);
        } finally {
          rmSync(shared, { recursive: true, force: true });
        }
      },
    );

    it('a fork bomb is held and torn down completely by the timeout', async () => {
      const marker = `hb-bomb-${process.pid}-${Math.floor(performance.now())}`;
      const before = readFileSync('/proc/sys/kernel/pid_max', 'utf8');
      const boxed = new BwrapSandbox(ws, { limits: { processes: 400 } });
      const pending = boxed.exec(`: ${marker}; bomb() { bomb | bomb & }; bomb; sleep 30`, {
        cwd: ws,
        timeoutMs: 3000,
      });
      let settled = false;
      void pending.finally(() => (settled = true));
      let most = 0;
      while (!settled) {
        most = Math.max(most, hostProcessesWith(marker));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const result = await pending;
      expect(result.timedOut).toBe(true);
      expect(most).toBeGreaterThan(100);
      expect(most).toBeLessThan(400);
      await expect.poll(() => hostProcessesWith(marker), { timeout: 10_000, interval: 100 }).toBe(0);
      expect(readFileSync('/proc/sys/kernel/pid_max', 'utf8')).toBe(before);
      const after = await exec('echo still works');
      expect(after.stdout).toBe('still works\n');
    });

    it('a memory hog fails its allocation at the address-space limit', async () => {
      const boxed = new BwrapSandbox(ws, { limits: { addressSpaceBytes: 256 * 1024 ** 2 } });
      const result = await boxed.exec('tail /dev/zero', { cwd: ws, timeoutMs: 20_000 });
      expect(result.timedOut).toBe(false);
      expect(result.exitCode).not.toBe(0);
      expect(result.stderr).toMatch(/memory exhausted|Cannot allocate memory/);
    });

    it('a CPU spinner is killed at the CPU-time limit', async () => {
      const boxed = new BwrapSandbox(ws, { limits: { cpuSeconds: 1 } });
      const result = await boxed.exec('while :; do :; done', { cwd: ws, timeoutMs: 20_000 });
      expect(result.timedOut).toBe(false);
      expect([137, 152]).toContain(result.exitCode);
    });

    it('a file cannot grow past the file-size limit', async () => {
      const boxed = new BwrapSandbox(ws, { limits: { fileSizeBytes: 1024 * 1024 } });
      const result = await boxed.exec(
        'head -c 5000000 /dev/zero > big.bin; echo "exit=$?"; stat -c %s big.bin',
        { cwd: ws, timeoutMs: 20_000 },
      );
      expect(result.stdout).toMatch(/exit=(153|1)\n1048576\n/);
    });
  });

  it('a timeout kills the command and every descendant, setsid and nohup ones included', async () => {
    const marker = `hb-grandchild-${process.pid}-${Math.floor(performance.now())}`;
    // The marker is assembled inside the box, so only the three descendants carry it, not the outer shell.
    const spawn = (how: string) => `${how} sh -c "sleep 120; : $m-live" >/dev/null 2>&1 &`;
    const pending = exec(
      `m=${marker}; ${spawn('setsid')} ${spawn('nohup')} (${spawn('')}) ; sleep 120`,
      3000,
    );
    await expect.poll(() => hostProcessesWith(`${marker}-live`), { timeout: 10_000, interval: 50 }).toBe(3);
    const result = await pending;
    expect(result.timedOut).toBe(true);
    await expect.poll(() => hostProcessesWith(`${marker}-live`), { timeout: 10_000, interval: 100 }).toBe(0);
  });

  it('background processes die when the command ends (unboxed, a setsid one survives)', async () => {
    const marker = `hb-background-${process.pid}-${Math.floor(performance.now())}`;
    const command = `m=${marker}; setsid sh -c "sleep 120; : $m-live" >/dev/null 2>&1 & echo started`;
    const result = await exec(command);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'started\n', timedOut: false });
    await expect.poll(() => hostProcessesWith(`${marker}-live`), { timeout: 10_000, interval: 100 }).toBe(0);
    await unboxed.exec(command, { cwd: ws, timeoutMs: 20_000 });
    await expect.poll(() => hostProcessesWith(`${marker}-live`), { timeout: 10_000, interval: 50 }).toBe(1);
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`${marker}-live`))
          process.kill(Number(pid), 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  });
});
