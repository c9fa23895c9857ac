import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, mergeConfig } from './config.ts';
import { describeSystemError, runPathLabels, showPath, showPathsIn } from './path-display.ts';
import { decideCommand } from './policy/command-policy.ts';
import { LocalSandbox } from './sandbox/local.ts';
import { bashTool } from './tools/builtin/bash.ts';
import { outputText, runTool } from './tools/builtin/builtin.test-helpers.ts';

const segment = fc.stringMatching(/^[A-Za-z0-9._-]{1,8}$/).filter((s) => s !== '.' && s !== '..');

describe('showPath', () => {
  const labels = runPathLabels('/tmp/hb-ws-abc', [
    { path: '/tmp/hb-out-xyz', label: '$OUTSIDE' },
    { path: '/tmp', label: '$TMPDIR' },
  ]);

  it('names the workspace, a labelled folder and the temp folder; other paths stay as they are', () => {
    expect(showPath('/tmp/hb-ws-abc', labels)).toBe('$WS');
    expect(showPath('/tmp/hb-ws-abc/src/a.ts', labels)).toBe('$WS/src/a.ts');
    expect(showPath('/tmp/hb-out-xyz/secret.txt', labels)).toBe('$OUTSIDE/secret.txt');
    expect(showPath('/tmp/etc/x', labels)).toBe('$TMPDIR/etc/x');
    expect(showPath('/etc/passwd', labels)).toBe('/etc/passwd');
    expect(showPath('/tmp/hb-ws-abc/a', [])).toBe('/tmp/hb-ws-abc/a');
  });

  it('a folder whose name merely starts like a labelled one is not under it', () => {
    expect(showPath('/tmp/hb-ws-abcd/a', runPathLabels('/tmp/hb-ws-abc'))).toBe('/tmp/hb-ws-abcd/a');
    expect(showPath('/tmp/hb-ws-abc/', runPathLabels('/tmp/hb-ws-abc/'))).toBe('$WS');
  });

  it('property: what a run shows does not depend on where its temp folders are', () => {
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 3 }),
        fc.array(segment, { minLength: 1, maxLength: 3 }),
        fc.array(segment, { maxLength: 4 }),
        (root1, root2, rest) => {
          const a = `/${root1.join('/')}`;
          const b = `/${root2.join('/')}`;
          const inA = path.posix.join(a, ...rest);
          const inB = path.posix.join(b, ...rest);
          expect(showPath(inA, runPathLabels(a))).toBe(showPath(inB, runPathLabels(b)));
          expect(showPath(inA, runPathLabels(a))).toBe(rest.length ? `$WS/${rest.join('/')}` : '$WS');
        },
      ),
    );
  });
});

describe('showPath fast path', () => {
  /** showPath as it was before the fast path: path.relative for every labelled path. */
  const reference = (absolute: string, labels: readonly { path: string; label: string }[]): string => {
    let best: { path: string; label: string } | undefined;
    for (const label of labels) {
      const root = label.path.length > 1 ? label.path.replace(/[\\/]+$/, '') : label.path;
      const under =
        absolute === root || absolute.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
      if (under && (!best || root.length > best.path.length)) best = { path: root, label: label.label };
    }
    if (!best) return absolute;
    const rest = path.relative(best.path, absolute).split(path.sep).join('/');
    return rest === '' ? best.label : `${best.label}/${rest}`;
  };
  const odd = fc.constantFrom('', '.', '..', '...', '.a', 'a.', '\\', ' ', '$WS');
  const piece = fc.oneof(segment, odd);
  const folder = fc.oneof(
    fc.constantFrom('/', '//', '', '.', '..', 'rel', 'rel/x', '/tmp/', '/tmp//', '/tmp/ws\\', '\\'),
    fc.array(piece, { minLength: 1, maxLength: 3 }).map((s) => `/${s.join('/')}`),
  );

  it('property: gives what path.relative gives, for odd folders and odd paths under them', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ path: folder, label: fc.constantFrom('$WS', '$OUTSIDE', '$TMPDIR') }), {
          maxLength: 3,
        }),
        fc.nat(3),
        fc.array(piece, { maxLength: 4 }),
        fc.constantFrom('', '/', '//'),
        (labels, pick, rest, end) => {
          const base = labels.length > 0 ? labels[pick % labels.length]!.path : '/tmp';
          const absolute = `${base}${rest.length > 0 ? `/${rest.join('/')}` : ''}${end}`;
          expect(showPath(absolute, labels)).toBe(reference(absolute, labels));
          expect(showPath(base, labels)).toBe(reference(base, labels));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('describeSystemError', () => {
  it("drops the absolute path of Node's message, or shows it labelled", async () => {
    const ws = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-pd-')));
    try {
      const error = await readFile(path.join(ws, 'missing.txt')).catch((e: unknown) => e);
      expect(String((error as Error).message)).toContain(ws);
      expect(describeSystemError(error)).toBe('no such file or directory (ENOENT)');
      expect(describeSystemError(error, runPathLabels(ws))).toBe(
        'no such file or directory (ENOENT): $WS/missing.txt',
      );
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
    expect(describeSystemError(new Error('plain'))).toBe('plain');
    expect(describeSystemError('text')).toBe('text');
  });
});

describe('policy reasons show paths as the model sees them', () => {
  it('with labels: $WS inside, $OUTSIDE through a link; without: absolute (policy check)', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-pd-')));
    const ws = path.join(root, 'ws');
    const outside = path.join(root, 'out');
    try {
      mkdirSync(ws);
      mkdirSync(outside);
      symlinkSync(outside, path.join(ws, 'outbox'));
      const config = mergeConfig(DEFAULT_CONFIG, {});
      const labels = [{ path: outside, label: '$OUTSIDE' }];
      const inside = await decideCommand('echo x > a.txt', config, { workspace: ws, pathLabels: labels });
      expect(inside.reason).toContain('(resolves to $WS/a.txt)');
      const out = await decideCommand('echo x > outbox/e.txt', config, { workspace: ws, pathLabels: labels });
      expect(out.reason).toContain('resolves outside the workspace (to $OUTSIDE/e.txt)');
      expect(out.reason).not.toContain(root);
      const plain = await decideCommand('echo x > a.txt', config, { workspace: ws });
      expect(plain.reason).toContain(`(resolves to ${path.join(ws, 'a.txt')})`);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('showPathsIn', () => {
  const labels = runPathLabels('/tmp/hb-ws-abc', [
    { path: '/tmp/hb-out-xyz', label: '$OUTSIDE' },
    { path: '/tmp', label: '$TMPDIR' },
  ]);

  it('writes whole labelled paths by their label, longest first, and leaves look-alikes alone', () => {
    expect(
      showPathsIn(
        "/tmp/hb-ws-abc\nsrc/a.ts -> /tmp/hb-ws-abc/src/a.ts\noutbox -> /tmp/hb-out-xyz\n'/tmp/x' /tmp",
        labels,
      ),
    ).toBe("$WS\nsrc/a.ts -> $WS/src/a.ts\noutbox -> $OUTSIDE\n'$TMPDIR/x' $TMPDIR");
    expect(showPathsIn('/tmp/hb-ws-abcd /private/tmp/hb-ws-abc x/tmp', labels)).toBe(
      '$TMPDIR/hb-ws-abcd /private/tmp/hb-ws-abc x/tmp',
    );
    expect(showPathsIn('/tmp/hb-ws-abcd', runPathLabels('/tmp/hb-ws-abc'))).toBe('/tmp/hb-ws-abcd');
    expect(showPathsIn('no paths', labels)).toBe('no paths');
  });

  it('property: the shown text does not depend on where the workspace is', () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 3 }), fc.string(), (root, tail) => {
        const ws = `/${root.join('/')}`;
        const shown = showPathsIn(`cd ${ws}/src && ls ${ws}; ${tail.replace(/\//g, '')}`, runPathLabels(ws));
        expect(shown).toBe(`cd $WS/src && ls $WS; ${tail.replace(/\//g, '')}`);
      }),
    );
  });
});

describe('bash output', () => {
  it('names the workspace $WS, and $WS in a command is the workspace', async () => {
    const ws = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-pd-')));
    try {
      const out = await runTool(bashTool, { command: 'pwd; echo hi > "$WS/a.txt"; cat a.txt' }, ws, {
        sandbox: new LocalSandbox({ allowExec: true }),
      });
      expect(outputText(out)).toBe('exit code: 0\nstdout:\n$WS\nhi\n');
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  });
});
