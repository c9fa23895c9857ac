import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BoundedCollector, runProcess } from './process.ts';

const ws = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-process-')));
afterAll(() => rmSync(ws, { recursive: true, force: true }));

describe('BoundedCollector', () => {
  it('keeps everything under the cap', () => {
    const c = new BoundedCollector(10);
    c.push(Buffer.from('abc'));
    c.push(Buffer.from('def'));
    expect(c.text()).toBe('abcdef');
    expect(c.dropped).toBe(0);
  });

  it('keeps head and tail over the cap and marks how many bytes were dropped', () => {
    const c = new BoundedCollector(10);
    for (const part of ['01234', '56789', 'abcde', 'fghij']) c.push(Buffer.from(part));
    expect(c.dropped).toBe(10);
    expect(c.text()).toBe('01234\n[… 10 bytes elided …]\nfghij');
  });
});

describe('runProcess', () => {
  it('rejects with ENOENT for a missing binary', async () => {
    const error = await runProcess('/nonexistent/hb-binary', [], { cwd: ws, env: {}, timeoutMs: 5000 }).catch(
      (e: unknown) => e,
    );
    expect((error as { code?: string }).code).toBe('ENOENT');
  });

  it('caps a flood of output without holding all of it', async () => {
    const result = await runProcess('sh', ['-c', 'head -c 3000000 /dev/zero | tr "\\0" x'], {
      cwd: ws,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      timeoutMs: 20_000,
      maxOutputBytes: 1000,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('[… 2999000 bytes elided …]');
    expect(result.stdout.length).toBeLessThan(1100);
  });

  it('an already aborted signal kills the process at once', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runProcess('sh', ['-c', 'sleep 10; echo late'], {
      cwd: ws,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      timeoutMs: 20_000,
      signal: controller.signal,
    });
    expect(result.stdout).toBe('');
    expect(result.timedOut).toBe(false);
  });
});
