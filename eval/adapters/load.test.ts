import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.ts';
import { loadAdapterFile, resolveHarness, shippedAdapterNames } from './load.ts';

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'hb-adapter-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

function problems(run: () => unknown): { file: string; path: string; reason: string }[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).fault).toBe('user_input');
    return (error as InputError).problems;
  }
  throw new Error('expected an InputError');
}

describe('loadAdapterFile', () => {
  it('loads a module adapter with defaults and the module path made absolute', () => {
    const dir = folder({
      'a.json': JSON.stringify({ name: 'mine', kind: 'module', module: './run.mjs' }),
      'run.mjs': '',
    });
    const adapter = loadAdapterFile(path.join(dir, 'a.json'));
    expect(adapter).toMatchObject({
      name: 'mine',
      kind: 'module',
      module: path.join(dir, 'run.mjs'),
      timeoutMs: 60000,
      maxTurns: 20,
      model: 'scripted',
      requires: [],
    });
  });

  it('loads a YAML command adapter: argv paths next to the file resolved, other words kept', () => {
    const dir = folder({
      'loop.yaml':
        'name: py\nkind: command\ncommand: [python3, loop.py, --fast, missing.py]\ntask: arg\ntimeoutMs: 5000\ntools:\n  read_file: { name: readFile, args: { path: filePath } }\n',
      'loop.py': '',
    });
    const adapter = loadAdapterFile(path.join(dir, 'loop.yaml'));
    expect(adapter.kind === 'command' && adapter.argv).toEqual([
      'python3',
      path.join(dir, 'loop.py'),
      '--fast',
      'missing.py',
    ]);
    expect(adapter).toMatchObject({
      task: 'arg',
      timeoutMs: 5000,
      tools: { read_file: { name: 'readFile', args: { path: 'filePath' } } },
    });
  });

  it('names file, path and reason for every problem', () => {
    const dir = folder({
      'bad.json': JSON.stringify({ kind: 'plugin', timeoutMs: -1, toolz: {} }),
      'mod.json': JSON.stringify({ name: 'm', kind: 'module', module: 'nope.mjs', task: 'stdin' }),
      'cmd.json': JSON.stringify({ name: 'c', kind: 'command' }),
      'syntax.json': '{"name": "x",',
    });
    const file = path.join(dir, 'bad.json');
    const bad = problems(() => loadAdapterFile(file));
    expect(bad).toEqual(
      expect.arrayContaining([
        { file, path: '/', reason: "must have required property 'name'" },
        { file, path: '/kind', reason: 'must be one of "module", "command"' },
        { file, path: '/timeoutMs', reason: 'must be >= 1' },
        expect.objectContaining({ file, path: '/', reason: expect.stringContaining('toolz') }),
      ]),
    );
    const mod = problems(() => loadAdapterFile(path.join(dir, 'mod.json')));
    expect(mod.map((p) => [p.path, p.reason])).toEqual([
      ['/task', 'only for kind "command"'],
      ['/module', `no such file: ${path.join(dir, 'nope.mjs')}`],
    ]);
    expect(problems(() => loadAdapterFile(path.join(dir, 'cmd.json')))[0]!.reason).toBe(
      "must have required property 'command'",
    );
    expect(problems(() => loadAdapterFile(path.join(dir, 'syntax.json')))[0]!.reason).toMatch(
      /JSON syntax error/,
    );
    expect(problems(() => loadAdapterFile(path.join(dir, 'none.json')))[0]!.reason).toBe(
      'no such adapter file',
    );
    expect(problems(() => loadAdapterFile(path.join(dir, 'x.txt')))[0]!.reason).toMatch(/ends in .json/);
  });
});

describe('resolveHarness', () => {
  it('takes ours by default, a NAME from the adapters folder, or a path', () => {
    const dir = folder({
      'mine.json': JSON.stringify({ name: 'mine', kind: 'command', command: ['node'] }),
      'adapter.schema.json': '{}',
    });
    expect(resolveHarness(undefined)).toEqual({ kind: 'ours', name: 'ours' });
    expect(resolveHarness('ours', dir, dir).name).toBe('ours');
    expect(resolveHarness('mine', dir, dir).name).toBe('mine');
    expect(resolveHarness('./mine.json', dir, dir).name).toBe('mine');
    expect(shippedAdapterNames(dir)).toEqual(['mine', 'ours']);
    const unknown = problems(() => resolveHarness('mien', dir, dir));
    expect(unknown[0]).toEqual({
      file: '--harness',
      path: '',
      reason: expect.stringContaining('no harness "mien" (did you mean "mine"?)'),
    });
  });
});
