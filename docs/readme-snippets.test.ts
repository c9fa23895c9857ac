/**
 * The README's runnable snippets run as written: every code block whose info string is
 * `ts doctest` becomes a test file of a throw-away user project (`harness-bench` installed, the
 * package's scenarios, recordings and configs beside it, vitest without globals), and vitest runs
 * them all in a child process. A snippet that names a file that does not exist, or an export
 * that is gone, fails here.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../eval/config-load.ts';
import { runVitest, vitestProject } from '../eval/vitest-project.test-helpers.ts';

/** The `ts doctest` blocks of a Markdown text, in order, with the line each starts on. */
function doctestBlocks(markdown: string): { line: number; code: string }[] {
  const blocks: { line: number; code: string }[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    if (!/^```ts\s+doctest\s*$/.test(lines[i]!)) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end += 1;
    blocks.push({ line: start + 1, code: `${lines.slice(start, end).join('\n')}\n` });
    i = end;
  }
  return blocks;
}

const created: string[] = [];
afterAll(() => {
  for (const dir of created) rmSync(dir, { recursive: true, force: true });
});

describe('README.md snippets', () => {
  const blocks = doctestBlocks(readFileSync(path.join(PACKAGE_ROOT, 'README.md'), 'utf8'));

  it('finds the blocks (a block that is not fenced right would be skipped silently)', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    expect(doctestBlocks('text\n```ts doctest\nconst a = 1;\n```\n```ts\nnot run\n```\n')).toEqual([
      { line: 3, code: 'const a = 1;\n' },
    ]);
  });

  it('every ts doctest block runs as written and passes', async () => {
    const files = Object.fromEntries(blocks.map((b) => [`readme-line-${b.line}.test.ts`, b.code]));
    const dir = vitestProject(files, {
      scenarios: path.join(PACKAGE_ROOT, 'scenarios'),
      recordings: path.join(PACKAGE_ROOT, 'recordings'),
      configs: path.join(PACKAGE_ROOT, 'configs'),
    });
    created.push(dir);
    const run = await runVitest(dir);
    const failed = run.tests.filter((t) => t.status !== 'passed');
    expect(failed.map((t) => `${t.file}: ${t.fullName}: ${t.failureMessages.join('\n')}`)).toEqual([]);
    expect(run.code, run.output).toBe(0);
    for (const file of Object.keys(files))
      expect(run.tests.filter((t) => t.file === file).length, `${file} ran no test`).toBeGreaterThan(0);
  });
});
