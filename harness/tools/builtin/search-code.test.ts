import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outputText, runTool } from './builtin.test-helpers.ts';
import { SEARCH_MAX_LINE_CHARS, SEARCH_MAX_MATCHES, searchCodeTool } from './search-code.ts';

let ws: string;
let outside: string;
beforeEach(() => {
  ws = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-search-')));
  outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-search-out-')));
  mkdirSync(path.join(ws, 'src', 'lib'), { recursive: true });
  writeFileSync(
    path.join(ws, 'src', 'index.ts'),
    'import { main } from "./lib/main";\nexport function start() {\n  main();\n}\n',
  );
  writeFileSync(path.join(ws, 'src', 'lib', 'main.ts'), 'export function main() {\n  return 42;\n}\n');
  writeFileSync(path.join(ws, 'README.md'), '# demo\nCall main() to start.\n');
});
afterEach(() => {
  rmSync(ws, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});
const search = (args: Record<string, unknown>) => runTool(searchCodeTool, args, ws);

describe('search_code', () => {
  it('returns matching lines as file:line: text, files in name order', async () => {
    expect(outputText(await search({ pattern: 'main\\(' }))).toBe(
      [
        'README.md:2: Call main() to start.',
        'src/index.ts:3:   main();',
        'src/lib/main.ts:1: export function main() {',
      ].join('\n'),
    );
  });

  it('narrows by path (a folder or a file) and by glob (a file name glob or a path glob)', async () => {
    expect(outputText(await search({ pattern: 'main', path: 'src/lib' }))).toBe(
      'src/lib/main.ts:1: export function main() {',
    );
    expect(outputText(await search({ pattern: 'export', path: 'src/index.ts' }))).toBe(
      'src/index.ts:2: export function start() {',
    );
    expect(outputText(await search({ pattern: 'main', glob: '*.md' }))).toBe(
      'README.md:2: Call main() to start.',
    );
    expect(outputText(await search({ pattern: 'main', glob: 'src/lib/*.ts' }))).toBe(
      'src/lib/main.ts:1: export function main() {',
    );
  });

  it('says so when nothing matches, with the number of files searched', async () => {
    expect(outputText(await search({ pattern: 'nothing-like-this' }))).toBe(
      'no matches for /nothing-like-this/ in .; 3 files searched',
    );
  });

  it('caps the matches and says how many more there are', async () => {
    writeFileSync(
      path.join(ws, 'many.txt'),
      Array.from({ length: SEARCH_MAX_MATCHES + 25 }, (_, i) => `hit ${i}`).join('\n'),
    );
    const text = outputText(await search({ pattern: '^hit', path: 'many.txt' }));
    expect(text.split('\n')).toHaveLength(SEARCH_MAX_MATCHES + 1);
    expect(text.split('\n').at(-1)).toBe('[25 more matches not shown; narrow the pattern, path or glob]');
  });

  it('cuts long lines and marks the cut', async () => {
    writeFileSync(path.join(ws, 'long.txt'), `needle${'x'.repeat(1000)}`);
    const text = outputText(await search({ pattern: 'needle', path: 'long.txt' }));
    expect(text).toContain(`… [line cut: ${1006} chars]`);
    expect(text.length).toBeLessThan(SEARCH_MAX_LINE_CHARS + 100);
  });

  it('does not follow links (they may lead outside), skips .git, node_modules and binary files', async () => {
    writeFileSync(path.join(outside, 'secret.txt'), 'needle outside');
    symlinkSync(outside, path.join(ws, 'outbox'));
    symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'secret-link.txt'));
    for (const dir of ['.git', 'node_modules/pkg']) {
      mkdirSync(path.join(ws, dir), { recursive: true });
      writeFileSync(path.join(ws, dir, 'x.txt'), 'needle hidden');
    }
    writeFileSync(path.join(ws, 'blob.bin'), 'needle\u0000binary');
    writeFileSync(path.join(ws, 'ok.txt'), 'needle here');
    expect(outputText(await search({ pattern: 'needle' }))).toBe(
      'ok.txt:1: needle here\n[1 binary files skipped]',
    );
  });

  it('an invalid pattern is invalid_arguments saying why', async () => {
    const out = await search({ pattern: 'main(' });
    expect(out).toMatchObject({ ok: false, errorType: 'invalid_arguments' });
    expect(outputText(out)).toContain('not a valid regular expression');
  });

  it('a missing path is tool_failed', async () => {
    expect(outputText(await search({ pattern: 'x', path: 'nope' }))).toBe(
      'ERROR tool_failed: nope: no such file or directory',
    );
  });

  it('declares its path for the path policy (default the workspace root)', () => {
    expect(searchCodeTool.paths?.({ pattern: 'x' })).toEqual([{ path: '.', access: 'read' }]);
    expect(searchCodeTool.paths?.({ pattern: 'x', path: '../etc' })).toEqual([
      { path: '../etc', access: 'read' },
    ]);
    expect(searchCodeTool.effect).toBe('read');
  });
});
