import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../eval/config-load.ts';
import type { CliIo } from './io.ts';
import { main } from './main.ts';

async function check(cwd: string, ...args: string[]) {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    cwd,
    env: { NO_COLOR: '1' },
    isTTY: false,
  };
  const code = await main(['node', 'harness-bench', 'policy', 'check', ...args], io);
  return {
    code,
    out,
    err,
    json: () =>
      JSON.parse(out) as { verdict: string; rule: string; reason: string; parts: Record<string, unknown>[] },
  };
}

describe('harness-bench policy check', () => {
  it('prints only JSON with the verdict, the deciding rule and every part; exit 0 whatever the verdict', async () => {
    const r = await check(
      PACKAGE_ROOT,
      '--',
      'git add README.md && git commit -m "wip" && git push origin main',
    );
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    const json = r.json();
    expect(json).toMatchObject({ verdict: 'deny', rule: 'bash:git push *' });
    expect(json.parts.filter((p) => 'command' in p)).toEqual([
      { command: 'git add README.md', verdict: 'ask', rule: 'bash:*' },
      { command: 'git commit -m wip', verdict: 'ask', rule: 'bash:*' },
      { command: 'git push origin main', verdict: 'deny', rule: 'bash:git push *' },
    ]);
    const allowed = await check(PACKAGE_ROOT, '--', 'ls -la');
    expect([allowed.code, allowed.json().verdict]).toEqual([0, 'allow']);
  });

  it('resolves paths in the given workspace, links included, and takes another configuration', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-cli-policy-')));
    mkdirSync(path.join(root, 'ws'));
    mkdirSync(path.join(root, 'out'));
    symlinkSync(path.join(root, 'out'), path.join(root, 'ws', 'outbox'));
    writeFileSync(
      path.join(root, 'cfg.json'),
      JSON.stringify({ permissions: { bash: [{ pattern: '*', action: 'allow' }] } }),
    );
    const r = await check(root, '--config', 'cfg.json', '--workspace', 'ws', '--', 'echo x > outbox/y');
    expect(r.json()).toMatchObject({ verdict: 'deny', rule: 'workspace:outside' });
    expect(r.json().parts).toContainEqual(
      expect.objectContaining({
        path: 'outbox/y',
        access: 'write',
        resolved: path.join(root, 'out', 'y'),
        rule: 'workspace:outside',
      }),
    );
    const file = await check(
      root,
      '--workspace',
      'ws',
      '--tool',
      'write_file',
      '--',
      '.github/workflows/ci.yml',
    );
    expect(file.json()).toMatchObject({ verdict: 'ask', rule: 'sensitive:**/.github/workflows/**' });
    const tainted = await check(
      root,
      '--config',
      'cfg.json',
      '--workspace',
      'ws',
      '--tainted-by',
      'web_fetch',
      '--',
      'git fetch',
    );
    expect(tainted.json()).toMatchObject({ verdict: 'ask', requiresHuman: true });
  });

  it('-c takes a configuration name as run -c does (strict, permissive, …); an unknown name lists them', async () => {
    const strict = await check(PACKAGE_ROOT, '-c', 'strict', '--', 'ls');
    expect(strict.err).toBe('');
    expect(strict.code).toBe(0);
    expect(JSON.parse(strict.out)).toMatchObject({ config: 'strict', mode: 'headless' });
    const unknown = await check(PACKAGE_ROOT, '-c', 'stirct', '--', 'ls');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/no configuration file or name "stirct" \(did you mean "strict"\?\)/);
  });

  it('bad input exits 2 with the reason on stderr and nothing on stdout', async () => {
    for (const args of [
      ['--'],
      ['--config', 'nope.json', '--', 'ls'],
      ['--workspace', 'no/such/dir', '--', 'ls'],
      ['--tool', 'list_todos', '--', 'x'],
    ]) {
      const r = await check(PACKAGE_ROOT, ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.out).toBe('');
      expect(r.err.length).toBeGreaterThan(0);
    }
  });
});

describe('harness-bench policy check --batch', () => {
  it('one JSON verdict per line, in order, with the rule ids of every part; mode and taint per line', async () => {
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-batch-')));
    const file = path.join(dir, 'checks.jsonl');
    writeFileSync(
      file,
      [
        '{"command":"ls -la","id":"a"}',
        '',
        '# a comment',
        '{"command":"git push","mode":"auto"}',
        '{"tool":"read_file","path":"../outside.txt"}',
        '{"command":"echo $((x))","mode":"plan"}',
        '{"command":"pytest -q","mode":"auto","taintedBy":"get_issue"}',
      ].join('\n'),
    );
    const r = await check(PACKAGE_ROOT, '--batch', file, '--workspace', dir);
    expect(r.code).toBe(0);
    const lines = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.line, l.verdict, l.rule])).toEqual([
      [1, 'allow', 'bash:ls *'],
      [4, 'deny', 'bash:git push'],
      [5, 'deny', 'workspace:outside'],
      [6, 'deny', 'mode:plan'],
      [7, 'ask', 'bash:*'],
    ]);
    expect(lines[0]).toMatchObject({ id: 'a', rules: ['bash:ls *'], effect: 'read' });
    expect(lines[3]!.rules).toContain('shell:arithmetic');
    expect(lines[4]).toMatchObject({ requiresHuman: true });
    expect(lines[4]!.rules).toContain('taint:untrusted-content');
  });

  it('a bad line is exit 2 with file, line and reason, and nothing on stdout', async () => {
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-batch-')));
    const file = path.join(dir, 'bad.jsonl');
    writeFileSync(file, '{"command":"ls"}\nnot json\n{"command":"x","mode":"yolo"}\n{"cmd":"ls"}\n');
    const r = await check(PACKAGE_ROOT, '--batch', file);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain(`${file}: line 2: not JSON`);
    expect(r.err).toContain('line 3: mode: must be one of');
    expect(r.err).toContain('line 4: unknown key "cmd"');
  });
});
